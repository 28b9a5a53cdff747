// Canvas frame times in Chromium (playwright-core, software rendering), for the Trellis canvas
// and the plain React Flow baseline page, with a real pointer drag (pan) and wheel zoom across
// the graph. Chromium is not the app's WebKitGTK: use these figures as ratios; the WebDriver
// harness of issue 8 measures the real app with the same `window.__trellisPerf` hooks.
// Usage: node scripts/bench-canvas.mjs [sizes=1000,3000,5000]
import { chromium } from "playwright-core";
import { recordedViews, serve } from "./serve.mjs";

const sizes = (process.argv[2] ?? "1000,3000,5000").split(",").map(Number);
// The Trellis side opens the view Rust makes of the generated document (the app measurements'
// document); the baseline draws its own graph of the same size on the same grid.
recordedViews(sizes);
const { server, url } = await serve();
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-gpu-compositing", "--disable-features=Vulkan"],
});

async function measure(pageUrl, selector) {
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const p = await ctx.newPage();
  p.on("pageerror", (e) => console.error("pageerror:", e.message));
  const t0 = Date.now();
  await p.goto(pageUrl);
  await p.waitForFunction(() => window.__trellisPerf && window.__trellisPerf.nodeCount() > 0, null, { timeout: 120000 });
  await p.waitForSelector(selector, { timeout: 120000 });
  await p.evaluate(() => window.__trellisPerf.whenIdle());
  const openMs = Date.now() - t0;
  await p.waitForTimeout(1500);
  const box = await p.locator(selector).boundingBox();
  // Start the pan where no node is (a drag on a node would move it instead).
  const empty = await p.evaluate(() => window.__trellisPerf.emptyPoint?.() ?? null);
  const cx = empty ? empty.x : box.x + box.width / 2;
  const cy = empty ? empty.y : box.y + box.height / 2;
  await p.evaluate(() => window.__trellisPerf.startSampling());
  // Pan: a real pointer drag across the pane, left then back.
  for (const dir of [1, -1]) {
    await p.mouse.move(cx, cy);
    await p.mouse.down();
    for (let i = 1; i <= 40; i++) await p.mouse.move(cx + dir * i * 8, cy + dir * i * 3);
    await p.mouse.up();
  }
  // Zoom: wheel in then out around the centre.
  await p.mouse.move(cx, cy);
  for (let i = 0; i < 20; i++) await p.mouse.wheel(0, -60);
  for (let i = 0; i < 20; i++) await p.mouse.wheel(0, 60);
  await p.waitForTimeout(300);
  const s = await p.evaluate(() => window.__trellisPerf.stopSampling());
  const mode = await p.evaluate(() => window.__trellisPerf.renderMode());
  await ctx.close();
  return { openMs, frames: s.frames, median: +s.median.toFixed(1), p95: +s.p95.toFixed(1), max: +s.max.toFixed(1), mode };
}

const rows = [];
for (const n of sizes) {
  const trellis = await measure(`${url}index.html?doc=big:${n}`, '[data-testid="canvas"] .react-flow__pane');
  const base = await measure(`${url}baseline.html?n=${n}`, ".react-flow__pane");
  rows.push({ n, trellis, base, ratioP95: +(base.p95 / Math.max(1, trellis.p95)).toFixed(1) });
  console.log(JSON.stringify(rows[rows.length - 1]));
}
await browser.close();
server.close();
