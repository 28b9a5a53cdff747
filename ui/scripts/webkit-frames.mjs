// Frame intervals AND the frame's own cost in WebKitGTK (MiniBrowser under Xvfb, software
// painting), window 1280x820 like the app: the same pointer-drag pan and wheel zoom as the app
// harness (src-tauri/tests/perf/main.rs). Per page: rAF interval stats, main-thread busy time
// per frame (rAF to the first task after the rendering update, perf/hooks.ts), our overview
// draw time, CPU time of the WebKit processes per frame, and the web process's PSS.
// Usage: node scripts/webkit-frames.mjs [page ...]   page = "doc=empty" | "doc=big:5000" |
// "baseline:3" (baseline.html?n=3). WebKit switches go in the environment (they reach the
// MiniBrowser through WebKitWebDriver), e.g. WEBKIT_DISABLE_COMPOSITING_MODE=1.
import { readFileSync, readdirSync } from "node:fs";
import { recordedViews, serve } from "./serve.mjs";
import { webkit } from "./webkit.mjs";

const pages = process.argv.slice(2).length ? process.argv.slice(2) : ["doc=empty", "baseline:3", "doc=big:1000", "doc=big:5000"];
recordedViews(pages.flatMap((page) => /^doc=big:(\d+)$/.exec(page)?.slice(1) ?? []).map(Number));
const { server, url } = await serve();
process.env.TRELLIS_FRAMES_RUN = String(process.pid); // marks the WebKit processes of this run
const wk = await webkit();
await wk.window({ width: 1280, height: 820 });

/** WebKit processes (MiniBrowser and its children) started by this script's driver. */
function procs() {
  const out = [];
  for (const d of readdirSync("/proc")) {
    if (!/^\d+$/.test(d)) continue;
    try {
      const stat = readFileSync(`/proc/${d}/stat`, "utf8");
      const comm = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      if (!/^(MiniBrowser|WebKitWebProces|WebKitNetworkPr)/.test(comm)) continue;
      const env = readFileSync(`/proc/${d}/environ`, "utf8");
      if (!env.includes(`TRELLIS_FRAMES_RUN=${process.pid}`)) continue;
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      out.push({ pid: Number(d), comm, cpuTicks: Number(f[11]) + Number(f[12]) });
    } catch {
      /* gone */
    }
  }
  return out;
}
const cpu = (name) =>
  procs()
    .filter((p) => p.comm.startsWith(name))
    .reduce((a, p) => a + p.cpuTicks, 0);
function pssMb(name) {
  let kb = 0;
  for (const p of procs().filter((q) => q.comm.startsWith(name))) {
    const m = /Pss:\s+(\d+)/.exec(readFileSync(`/proc/${p.pid}/smaps_rollup`, "utf8"));
    if (m) kb += Number(m[1]);
  }
  return Math.round(kb / 1024);
}

const r1 = (x) => Math.round(x * 10) / 10;
const brief = (s) => ({
  frames: s.frames,
  median: r1(s.median),
  p95: r1(s.p95),
  max: r1(s.max),
  missed: s.samples.filter((x) => x > 25).length,
});

async function measure(page) {
  const base = page.startsWith("baseline:") ? `${url}baseline.html?n=${page.split(":")[1]}` : `${url}index.html?${page}`;
  await wk.go(base);
  await wk.run(`const done = arguments[arguments.length - 1];
    const t = setInterval(() => { const a = document.querySelector('[data-testid=app]');
      if (window.__trellisPerf && document.querySelector('.react-flow__pane') && (!a || a.dataset.ready === 'true')) { clearInterval(t); window.__trellisPerf.whenIdle().then(() => done(true)); } }, 50);`);
  await new Promise((r) => setTimeout(r, 1500));
  const start = await wk.exec(`const P = window.__trellisPerf; const p = P.emptyPoint ? P.emptyPoint() : null; if (p) return p;
    const r = document.querySelector('.react-flow__pane').getBoundingClientRect();
    for (let fy = 0.5; fy < 0.95; fy += 0.013) for (let fx = 0.5; fx < 0.95; fx += 0.017) {
      const x = r.left + r.width * fx, y = r.top + r.height * fy; const el = document.elementFromPoint(x, y);
      if (el && el.classList.contains('react-flow__pane')) return { x, y }; }
    return { x: r.left + r.width / 2, y: r.top + r.height / 2 };`);
  const c0 = { web: cpu("WebKitWebProces"), ui: cpu("MiniBrowser") };
  await wk.exec("window.__trellisPerf.startSampling(); window.__trellisPerf.drawLog?.(true)");
  const moves = [];
  for (let i = 1; i <= 60; i++)
    moves.push({ type: "pointerMove", duration: 16, origin: "viewport", x: Math.round(start.x - i * 6), y: Math.round(start.y - i * 3) });
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
  const pan = await wk.exec("return window.__trellisPerf.stopSampling()");
  const panDraw = await wk.exec("return window.__trellisPerf.drawLog ? window.__trellisPerf.drawLog(true) : []");
  const c1 = { web: cpu("WebKitWebProces"), ui: cpu("MiniBrowser") };
  const zoom = await wk.run(`const done = arguments[arguments.length - 1];
    const pane = document.querySelector('.react-flow__pane'); const r = pane.getBoundingClientRect();
    const cx = r.left + r.width / 2, cy = r.top + r.height / 2; let k = 0;
    window.__trellisPerf.startSampling();
    const tick = () => {
      if (k >= 40) return done(window.__trellisPerf.stopSampling());
      const dy = k < 20 ? -60 : 60; k++;
      pane.dispatchEvent(new WheelEvent('wheel', { deltaY: dy, deltaMode: 0, clientX: cx, clientY: cy, bubbles: true, cancelable: true }));
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);`);
  const zoomDraw = await wk.exec("return window.__trellisPerf.drawLog ? window.__trellisPerf.drawLog(true) : []");
  const c2 = { web: cpu("WebKitWebProces"), ui: cpu("MiniBrowser") };
  await new Promise((r) => setTimeout(r, 1000));
  const mode = await wk.exec("return window.__trellisPerf.renderMode()");
  const perFrame = (a, b, frames) => ({
    web: r1(((b.web - a.web) * 10) / Math.max(1, frames)),
    ui: r1(((b.ui - a.ui) * 10) / Math.max(1, frames)),
  });
  const drawStats = (d) =>
    d.length ? { n: d.length, median: r1([...d].sort((a, b) => a - b)[Math.floor(d.length / 2)]), max: r1(Math.max(...d)) } : null;
  return {
    page,
    mode,
    pan: { ...brief(pan), busy: brief(pan.busy), cpuMsPerFrame: perFrame(c0, c1, pan.frames), draw: drawStats(panDraw) },
    zoom: { ...brief(zoom), busy: brief(zoom.busy), cpuMsPerFrame: perFrame(c1, c2, zoom.frames), draw: drawStats(zoomDraw) },
    pssMb: { web: pssMb("WebKitWebProces"), ui: pssMb("MiniBrowser"), net: pssMb("WebKitNetworkPr") },
  };
}

const envs = Object.entries(process.env)
  .filter(([k]) => k.startsWith("WEBKIT_") || k === "LIBGL_ALWAYS_SOFTWARE")
  .map(([k, v]) => `${k}=${v}`);
try {
  for (const p of pages) {
    const load = readFileSync("/proc/loadavg", "utf8").split(" ").slice(0, 3).join(" ");
    const m = await measure(p);
    console.log(JSON.stringify({ env: envs, load, ...m }));
  }
} finally {
  await wk.close();
  server.close();
}
