import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-gpu-compositing"] });
const doc = process.argv[2] ?? "big:5000";
for (const zoom of (process.argv[3] ?? "0.6,1").split(",").map(Number)) {
  const p = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  p.on("pageerror", (e) => console.error("pageerror:", e.message));
  await p.goto(`${url}index.html?doc=${doc}`);
  await p.waitForFunction(() => window.__trellisPerf && window.__trellisPerf.nodeCount() > 0);
  await p.waitForTimeout(1500);
  await p.evaluate(async (zoom) => { window.__trellisPerf.setViewport({ x: -3000 * zoom, y: -1500 * zoom, zoom }); await window.__trellisPerf.whenIdle(); }, zoom);
  await p.waitForTimeout(500);
  const box = await p.locator('[data-testid="canvas"]').boundingBox();
  const e = await p.evaluate(() => window.__trellisPerf.emptyPoint?.()); const cx = e ? e.x : box.x + box.width / 2, cy = e ? e.y : box.y + box.height / 2;
  const vp0 = await p.evaluate(() => window.__trellisPerf.getViewport()); console.log('start at', cx, cy, vp0);
  await p.evaluate(() => window.__trellisPerf.startSampling());
  await p.mouse.move(cx, cy); await p.mouse.down();
  for (let i = 1; i <= 40; i++) await p.mouse.move(cx - i * 6, cy - i * 2);
  await p.mouse.up();
  const s = await p.evaluate(() => window.__trellisPerf.stopSampling()); console.log('end', await p.evaluate(() => window.__trellisPerf.getViewport()), s.samples.map(x=>Math.round(x)).join(' '));
  const info = await p.evaluate(() => ({ mode: window.__trellisPerf.renderMode(), dom: window.__trellisPerf.domNodeCount(), edges: document.querySelectorAll(".react-flow__edge").length }));
  console.log(doc, zoom, info, { median: s.median.toFixed(1), p95: s.p95.toFixed(1), max: s.max.toFixed(1), frames: s.frames });
  await p.context().close();
}
await browser.close(); server.close();
