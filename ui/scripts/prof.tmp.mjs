import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu"] });
const p = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
p.on("pageerror", (e) => console.error("pageerror:", e.message));
await p.goto(`${url}index.html?doc=big:5000`);
await p.waitForFunction(() => window.__trellisPerf && window.__trellisPerf.nodeCount() > 0);
await p.waitForTimeout(2000);
const cdp = await p.context().newCDPSession(p);
await cdp.send("Profiler.enable");
await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
await cdp.send("Profiler.start");
const r = await p.evaluate(async () => {
  const P = window.__trellisPerf;
  const out = [];
  for (const zoom of [0.6, 1, 0.6, 1, 0.6]) {
    const t = performance.now();
    P.setViewport({ x: -2000 * zoom - out.length * 300, y: -1000 * zoom, zoom });
    await P.whenIdle();
    out.push({ zoom, ms: Math.round(performance.now() - t), mode: P.renderMode(), dom: P.domNodeCount() });
  }
  return out;
});
const { profile } = await cdp.send("Profiler.stop");
console.log(r);
const self = new Map();
const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const dt = profile.timeDeltas; let i = 0;
for (const s of profile.samples) { const n = byId.get(s); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i++] ?? 0) / 1000); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0).padStart(6)} ms  ${k}`).join("\n"));
await browser.close(); server.close();
