// Canvas frame times in WebKitGTK (MiniBrowser, software painting under Xvfb): the Trellis
// canvas and the plain React Flow baseline, same generated graphs, a real pointer drag (pan,
// WebDriver actions) and wheel-like zoom steps. Usage: node scripts/webkit-bench.mjs [1000,3000,5000]
import { recordedViews, serve } from "./serve.mjs";
import { webkit } from "./webkit.mjs";

const sizes = (process.argv[2] ?? "1000,3000,5000").split(",").map(Number);
// The Trellis side opens the view Rust makes of the generated document (the app measurements'
// document); the baseline draws its own graph of the same size on the same grid.
recordedViews(sizes);
const { server, url } = await serve();
const wk = await webkit();
await wk.window({ width: 1440, height: 900 });

async function measure(pageUrl) {
  const t0 = Date.now();
  await wk.go(pageUrl);
  await wk.run(`const done = arguments[arguments.length - 1];
    const t = setInterval(() => { if (window.__trellisPerf && window.__trellisPerf.nodeCount() > 0 && document.querySelector(".react-flow__pane")) { clearInterval(t); window.__trellisPerf.whenIdle().then(() => done(true)); } }, 50);`);
  const openMs = Date.now() - t0;
  await new Promise((r) => setTimeout(r, 1500));
  const start = await wk.exec(`const p = window.__trellisPerf.emptyPoint ? window.__trellisPerf.emptyPoint() : null;
    if (p) return p; const r = document.querySelector(".react-flow__pane").getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2 };`);
  await wk.exec("window.__trellisPerf.startSampling()");
  const moves = [];
  for (let i = 1; i <= 30; i++)
    moves.push({ type: "pointerMove", duration: 16, x: Math.round(start.x - i * 10), y: Math.round(start.y - i * 4) });
  for (let i = 29; i >= 0; i--)
    moves.push({ type: "pointerMove", duration: 16, x: Math.round(start.x - i * 10), y: Math.round(start.y - i * 4) });
  await wk.actions([
    {
      type: "pointer",
      id: "mouse",
      parameters: { pointerType: "mouse" },
      actions: [
        { type: "pointerMove", duration: 0, x: Math.round(start.x), y: Math.round(start.y) },
        { type: "pointerDown", button: 0 },
        ...moves,
        { type: "pointerUp", button: 0 },
      ],
    },
  ]);
  // Zoom in and out in steps around the centre (wheel actions are not in WebKitWebDriver).
  await wk.run(`const done = arguments[arguments.length - 1]; const P = window.__trellisPerf; const v = P.getViewport();
    const el = document.querySelector(".react-flow__pane").getBoundingClientRect(); const cx = el.width / 2, cy = el.height / 2;
    let k = 0; const steps = [...Array(20).keys()].map((i) => 1.08 ** (i + 1)).concat([...Array(20).keys()].map((i) => 1.08 ** (19 - i)));
    const tick = () => { if (k >= steps.length) return done(true); const z = v.zoom * steps[k++];
      P.setViewport({ x: cx - ((cx - v.x) / v.zoom) * z, y: cy - ((cy - v.y) / v.zoom) * z, zoom: z }); requestAnimationFrame(tick); };
    requestAnimationFrame(tick);`);
  const s = await wk.exec("return window.__trellisPerf.stopSampling()");
  const mode = await wk.exec("return window.__trellisPerf.renderMode()");
  return { openMs, frames: s.frames, median: +s.median.toFixed(1), p95: +s.p95.toFixed(1), max: +s.max.toFixed(1), mode };
}

try {
  for (const n of sizes) {
    const trellis = await measure(`${url}index.html?doc=big:${n}`);
    const base = await measure(`${url}baseline.html?n=${n}`);
    console.log(
      JSON.stringify({ engine: "WebKitGTK MiniBrowser", n, trellis, base, ratioP95: +(base.p95 / Math.max(1, trellis.p95)).toFixed(1) }),
    );
  }
} finally {
  await wk.close();
  server.close();
}
