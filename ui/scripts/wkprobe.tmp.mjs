import { serve } from "./serve.mjs";
import { webkit } from "./webkit.mjs";
const { server, url } = await serve();
const wk = await webkit();
await wk.window({ width: 1440, height: 900 });
try {
  for (const doc of (process.argv[2] ?? "empty,big:1000").split(",")) {
    await wk.go(`${url}index.html?doc=${doc}${process.argv[3] ?? ""}`);
    await wk.run(`const done = arguments[arguments.length - 1]; const t = setInterval(() => { if (document.querySelector('[data-ready="true"]')) { clearInterval(t); done(true); } }, 50);`);
    await new Promise((r) => setTimeout(r, 1000));
    if (process.env.HIDE) await wk.exec(`for (const s of ${JSON.stringify(process.env.HIDE.split(','))}) for (const e of document.querySelectorAll(s)) e.style.display = 'none';`);
    const r = await wk.run(`const done = arguments[arguments.length - 1]; const P = window.__trellisPerf;
      (async () => {
        const out = {};
        P.startSampling(); await new Promise((r) => setTimeout(r, 1000)); out.idle = P.stopSampling();
        const v = P.getViewport(); let k = 0; const draws = [];
        P.startSampling();
        await new Promise((res) => { const tick = () => { if (k++ > 60) return res(); P.setViewport({ x: v.x - k * 8, y: v.y - k * 3, zoom: v.zoom }); draws.push(P.lastCanvasDrawMs()); requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
        out.pan = P.stopSampling();
        k = 0; P.startSampling();
        await new Promise((res) => { const tick = () => { if (k++ > 40) return res(); const z = v.zoom * 1.03 ** k; P.setViewport({ x: v.x, y: v.y, zoom: z }); requestAnimationFrame(tick); }; requestAnimationFrame(tick); });
        out.zoom = P.stopSampling();
        const f = (s) => ({ median: s.median.toFixed(0), p95: s.p95.toFixed(0), max: s.max.toFixed(0), n: s.frames });
        done({ mode: P.renderMode(), idle: f(out.idle), pan: f(out.pan), zoom: f(out.zoom), drawMs: Math.max(...draws).toFixed(1), dpr: devicePixelRatio });
      })();`);
    console.log(doc, JSON.stringify(r));
  }
} finally { await wk.close(); server.close(); }
