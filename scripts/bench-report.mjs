// Writes the generated part of docs/BENCHMARKS.md from what scripts/bench.sh measured:
// criterion's estimates (<target>/criterion), the app's JSON lines (src-tauri/tests/perf), the
// machine and the binary size. Only the text between the two markers below is replaced, so
// hand-written sections (the spec helper's "Core pipeline", the analysis of misses) are kept.
// Usage: node scripts/bench-report.mjs <target>/bench docs/BENCHMARKS.md
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, dirname } from "node:path";

const [outDir, docPath] = process.argv.slice(2);
if (!outDir || !docPath) {
  console.error("usage: node scripts/bench-report.mjs <target>/bench docs/BENCHMARKS.md");
  process.exit(2);
}
const BEGIN = "<!-- bench.sh: generated from here -->";
const END = "<!-- bench.sh: generated up to here -->";

const readJson = (p) => (existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null);
const readLines = (p) =>
  existsSync(p) ? readFileSync(p, "utf8").split("\n").filter((l) => l.trim()).map((l) => JSON.parse(l)) : [];
const readText = (p) => (existsSync(p) ? readFileSync(p, "utf8").trim() : "?");

const machine = readJson(join(outDir, "machine.json")) ?? {};
const criterionDir = join(dirname(outDir), "criterion");
const app = readLines(join(outDir, "app.jsonl"));
const noComp = readLines(join(outDir, "app-nocompositing.jsonl"));
const binary = readJson(join(outDir, "binary.json"));

const fmtMs = (ms) => (ms == null ? "n/a" : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2));
const med = (xs) => {
  const s = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

/** Criterion's estimate of one benchmark, in ms: median, and its 95 % interval + MAD. */
function crit(id) {
  const e = readJson(join(criterionDir, id, "new", "estimates.json"));
  if (!e) return null;
  const ms = (ns) => ns / 1e6;
  return {
    median: ms(e.median.point_estimate),
    lo: ms(e.median.confidence_interval.lower_bound),
    hi: ms(e.median.confidence_interval.upper_bound),
    mad: ms(e.median_abs_dev.point_estimate),
  };
}
const critCell = (c) => (c ? `${fmtMs(c.median)} ms (95 % CI ${fmtMs(c.lo)}–${fmtMs(c.hi)}, MAD ${fmtMs(c.mad)})` : "not run");

const lines = [];
const push = (...l) => lines.push(...l);
push(BEGIN, "");
push(
  `Measured ${machine.date ?? "?"} on: ${machine.nproc ?? "?"} cores (${machine.cpu ?? "?"}), ${machine.memory ?? "?"} memory, ` +
    `WebKitGTK ${machine.webkitgtk ?? "?"} (software painting under Xvfb), kernel ${machine.kernel ?? "?"}, ${machine.rustc ?? "?"}.`,
  "",
  "Reproduce: `npm run bench` (= `bash scripts/bench.sh`; about 15 minutes). The machine is shared: the load average",
  "is printed with every figure; the ratios to the plain React Flow baseline, measured in the same run and the same",
  "webview, are the figures that hold on a loaded machine.",
  "",
);

// ---- core ----------------------------------------------------------------------------------
push(
  "### Core (criterion, release profile)",
  "",
  `Command: \`cargo bench -p trellis-bench --bench document\`. Load average before / after: ${readText(join(outDir, "core-load-before.txt"))} / ${readText(join(outDir, "core-load-after.txt"))}.`,
  "Documents from `trellis_bench::generate` (the edge shape of `trellis_spec::generate`, nodes typed from the built-in",
  "registry with ~150-byte configs its schemas accept, grid layout sidecar). Median of criterion's samples, with the",
  "95 % confidence interval of the median and the median absolute deviation.",
  "",
  "| step | 1,000 nodes | 10,000 nodes | 100,000 nodes |",
  "|---|---|---|---|",
);
const rows = [
  ["open: read + parse + validate (schemas) + layout + compile", "open/session"],
  ["&nbsp;&nbsp;parse only", "open/parse"],
  ["&nbsp;&nbsp;validate only (built-in registry, config schemas)", "open/validate"],
  ["&nbsp;&nbsp;from_spec + compile only", "open/compile"],
  ["save: write, read back, revalidate, fingerprint check, atomic write + fsync, read back, layout sidecar", "save"],
  ["core pipeline (spec helper: parse, validate, from_spec, compile, to_spec, write)", "pipeline"],
];
for (const [label, id] of rows) {
  push(`| ${label} | ${[1000, 10000, 100000].map((n) => critCell(crit(`${id}/${n}`))).join(" | ")} |`);
}
push(
  "",
  "| edit on a 10,000-node document (apply + full revalidation, as the app answers it) | median |",
  "|---|---|",
  `| \`set_config_field\` on one node | ${critCell(crit("edit/set_config_field_10000"))} |`,
  `| \`add_node\` + \`connect\` + 2 undo (4 revalidations) | ${critCell(crit("edit/add_connect_undo_10000"))} |`,
  "",
);

// ---- app -----------------------------------------------------------------------------------
const canvas = app.filter((r) => r.kind === "canvas");
const startup = app.filter((r) => r.kind === "startup");
push(
  "### The app (release build, WebKitGTK under Xvfb, WebDriver harness)",
  "",
  "Command: `TRELLIS_BENCH_SIZES=1000,3000,5000 cargo test --release -p trellis-app --features e2e --test perf -- --test-threads=1`",
  "(`src-tauri/tests/perf/main.rs`). Per size a fresh app: Ctrl+O (dialog answered by the test bypass) to the new",
  "document's first drawn frame (the UI's `firstDrawnAt`: two frames after the fitted view's drawing was scheduled);",
  "fit view; a real pointer drag of the pane (60 moves, 16 ms apart) then 40 wheel steps (20 in, 20 out), frame",
  "intervals from requestAnimationFrame; click node `n3`, Delete, until the UI's document lost it + 2 frames; Ctrl+Z",
  "likewise; then `baseline.html` (plain React Flow 12 with its defaults, same size, same",
  "grid) in the same webview, same drag and wheel steps. Frame figures: median / p95 / max in ms over all frames of",
  "the drag and the zoom.",
  "",
  "| nodes | load (before → after) | open → all drawn | Trellis frames med / p95 / max (mode) | baseline med / p95 / max | ratio p95 (median) | delete → drawn | undo → drawn | memory RSS (PSS) |",
  "|---|---|---|---|---|---|---|---|---|",
);
for (const r of canvas) {
  const t = r.trellis.all;
  const b = r.baseline.all;
  push(
    `| ${r.nodes.toLocaleString("en")} | ${r.load_before} → ${r.load_after} | ${fmtMs(r.open.ms)} ms (${r.open.mode}) | ` +
      `${fmtMs(t.median)} / ${fmtMs(t.p95)} / ${fmtMs(t.max)} (${r.trellis.mode_after}) | ${fmtMs(b.median)} / ${fmtMs(b.p95)} / ${fmtMs(b.max)} | ` +
      `${r.ratio_p95}x (${r.ratio_median}x) | ${fmtMs(r.edit.delete_ms)} ms | ${fmtMs(r.edit.undo_ms)} ms | ${r.memory.rss_mb.toFixed(0)} MB (${r.memory.pss_mb.toFixed(0)} MB) |`,
  );
}
push("", "Pan and zoom separately (Trellis / baseline, p95 in ms):", "", "| nodes | pan | zoom |", "|---|---|---|");
for (const r of canvas) {
  push(
    `| ${r.nodes.toLocaleString("en")} | ${fmtMs(r.trellis.pan.p95)} / ${fmtMs(r.baseline.pan.p95)} | ${fmtMs(r.trellis.zoom.p95)} / ${fmtMs(r.baseline.zoom.p95)} |`,
  );
}
if (noComp.length) {
  push("", "Without accelerated compositing (`WEBKIT_DISABLE_COMPOSITING_MODE=1`), same script:", "");
  push("| nodes | load | open | Trellis med / p95 | baseline med / p95 | ratio p95 | memory RSS |", "|---|---|---|---|---|---|---|");
  for (const r of noComp.filter((x) => x.kind === "canvas")) {
    push(
      `| ${r.nodes.toLocaleString("en")} | ${r.load_before} | ${fmtMs(r.open.ms)} ms | ${fmtMs(r.trellis.all.median)} / ${fmtMs(r.trellis.all.p95)} | ` +
        `${fmtMs(r.baseline.all.median)} / ${fmtMs(r.baseline.all.p95)} | ${r.ratio_p95}x | ${r.memory.rss_mb.toFixed(0)} MB |`,
    );
  }
}
const mem5k = canvas.find((r) => r.nodes === 5000)?.memory;
if (mem5k) {
  push("", "Memory with 5,000 nodes open, per process (VmRSS; shared pages count in each, PSS splits them):", "");
  push("| process | RSS | PSS |", "|---|---|---|");
  for (const p of mem5k.processes) push(`| ${p.name} (${p.pid}) | ${(p.rss_kb / 1024).toFixed(0)} MB | ${(p.pss_kb / 1024).toFixed(0)} MB |`);
}
const runs = startup.flatMap((s) => s.runs_ms);
push(
  "",
  `Start of the app process (from /proc, 10 ms ticks) to its first drawn frame (\`performance.timeOrigin + firstDrawnAt()\`), no document: ` +
    (runs.length ? `${runs.map((x) => fmtMs(x)).join(", ")} ms, median ${fmtMs(med(runs))} ms (load ${startup.map((s) => s.load).join("; ")}).` : "not run."),
);
if (binary) {
  push(
    "",
    `Release binary (\`cargo build --release -p trellis-app --features e2e\`, the UI embedded): ${(binary.bytes / 1048576).toFixed(1)} MiB, ` +
      `${(binary.stripped_bytes / 1048576).toFixed(1)} MiB stripped.`,
  );
}

// ---- targets -------------------------------------------------------------------------------
const at = (n) => canvas.filter((r) => r.nodes === n);
const worst = (rs, f) => (rs.length ? Math.max(...rs.map(f)) : null);
const best = (rs, f) => (rs.length ? Math.min(...rs.map(f)) : null);
const targets = [
  ["open 5,000 nodes", "≤ 2,000 ms", med(at(5000).map((r) => r.open.ms)), (v) => v <= 2000, "ms"],
  ["pan/zoom p95 at 5,000 nodes", "≤ 33 ms", med(at(5000).map((r) => r.trellis.all.p95)), (v) => v <= 33, "ms"],
  ["pan/zoom p95 at 1,000 nodes", "≤ 16 ms", med(at(1000).map((r) => r.trellis.all.p95)), (v) => v <= 16, "ms"],
  ["p95 at 3,000 nodes vs plain React Flow", "≥ 5x better", med(at(3000).map((r) => r.ratio_p95)), (v) => v >= 5, "x"],
  ["edit on 10,000 nodes (set_config_field + revalidation)", "≤ 50 ms", crit("edit/set_config_field_10000")?.median, (v) => v <= 50, "ms"],
  ["save 10,000 nodes", "≤ 100 ms", crit("save/10000")?.median, (v) => v <= 100, "ms"],
  ["memory with 5,000 nodes (RSS, app + WebKit processes)", "≤ 400 MB", med(at(5000).map((r) => r.memory.rss_mb)), (v) => v <= 400, "MB"],
  ["cold start to first drawn frame", "≤ 1,500 ms", med(runs), (v) => v <= 1500, "ms"],
  ["release binary", "≤ 15 MB", binary ? binary.bytes / 1048576 : null, (v) => v <= 15, "MiB"],
];
void worst;
void best;
push("", "### Targets (issue 8)", "", "| target | limit | measured (median of runs) | |", "|---|---|---|---|");
for (const [name, limit, v, ok, unit] of targets) {
  const shown = v == null ? "not measured" : `${unit === "x" ? v : fmtMs(v)} ${unit}`;
  push(`| ${name} | ${limit} | ${shown} | ${v == null ? "—" : ok(v) ? "met" : "**missed**"} |`);
}
push("", END);

// ---- merge into the document ------------------------------------------------------------------
const generated = lines.join("\n");
let doc = existsSync(docPath) ? readFileSync(docPath, "utf8") : "";
if (doc.includes(BEGIN) && doc.includes(END)) {
  doc = doc.slice(0, doc.indexOf(BEGIN)) + generated + doc.slice(doc.indexOf(END) + END.length);
} else if (doc.trim()) {
  doc = `${doc.trimEnd()}\n\n## Issue 8: open, save, edit and the app\n\n${generated}\n`;
} else {
  doc = `# Benchmarks\n\n## Issue 8: open, save, edit and the app\n\n${generated}\n`;
}
writeFileSync(docPath, doc);
console.log(`wrote ${docPath}`);
