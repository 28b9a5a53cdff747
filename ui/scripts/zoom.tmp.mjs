import { chromium } from "playwright-core";
import { serve } from "./serve.mjs";
const { server, url } = await serve();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-gpu", "--disable-gpu-compositing"] });
const p = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
await p.goto(`${url}index.html?doc=${process.argv[2] ?? "big:5000"}`);
await p.waitForFunction(() => window.__trellisPerf && window.__trellisPerf.nodeCount() > 0);
await p.waitForTimeout(2500);
const e = await p.evaluate(() => window.__trellisPerf.emptyPoint?.());
await p.mouse.move(e.x, e.y);
const cdp = await p.context().newCDPSession(p); await cdp.send('Profiler.enable'); await cdp.send('Profiler.setSamplingInterval', { interval: 200 }); await cdp.send('Profiler.start');
await p.evaluate(() => window.__trellisPerf.startSampling());
const log = [];
for (let i = 0; i < 20; i++) { await p.mouse.wheel(0, -60); log.push(await p.evaluate(() => `${window.__trellisPerf.getViewport().zoom.toFixed(3)}/${window.__trellisPerf.renderMode()}/${window.__trellisPerf.lastCanvasDrawMs().toFixed(0)}`)); }
for (let i = 0; i < 20; i++) { await p.mouse.wheel(0, 60); }
const s = await p.evaluate(() => window.__trellisPerf.stopSampling());
const { profile } = await cdp.send("Profiler.stop");
const self = new Map(); const byId = new Map(profile.nodes.map((n) => [n.id, n])); const dt = profile.timeDeltas; let i = 0;
for (const x of profile.samples) { const n = byId.get(x); const k = `${n.callFrame.functionName || "(anon)"} ${n.callFrame.url.split("/").pop()}:${n.callFrame.lineNumber}`; self.set(k, (self.get(k) ?? 0) + (dt[i++] ?? 0) / 1000); }
console.log([...self].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${v.toFixed(0).padStart(6)} ms  ${k}`).join("\n"));
console.log(log.join(" "));
console.log(s.samples.map((x) => Math.round(x)).join(" "));
await browser.close(); server.close();
