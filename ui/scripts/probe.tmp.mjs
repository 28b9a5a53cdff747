import { chromium } from "playwright-core";
import { serve } from "/work/main/ui/scripts/serve.mjs";
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const p = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
p.on("pageerror", (e) => console.error("pageerror:", e.message));
p.on("console", (m) => console.log("console:", m.text()));
await p.goto(`${url}index.html?doc=big:5000`);
await p.waitForFunction(() => window.__trellisPerf && window.__trellisPerf.nodeCount() > 0);
await p.waitForTimeout(2000);
const r = await p.evaluate(async () => {
  const P = window.__trellisPerf;
  const out = [];
  for (const zoom of [0.05, 0.3, 0.6, 1, 0.6, 0.3, 0.05]) {
    const t = performance.now();
    P.setViewport({ x: -2000 * zoom, y: -1000 * zoom, zoom });
    await P.whenIdle();
    out.push({ zoom, ms: Math.round(performance.now() - t), mode: P.renderMode(), dom: P.domNodeCount(), draw: P.lastCanvasDrawMs().toFixed(1) });
  }
  return out;
});
console.log(r);
await browser.close(); server.close();
