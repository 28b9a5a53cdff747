// Writes the whole of docs/BENCHMARKS.md from what scripts/bench.sh recorded in <target>/bench:
// machine.json (the machine, the run's start and commit), criterion's estimates
// (<target>/criterion), the app's JSON lines (src-tauri/tests/perf), peer.md (the table
// scripts/peer-bench.sh printed), layout-quality.md, fuzz.json, the binary's and the packages'
// sizes. The page is generated, never edited by hand: earlier results live in Git's history.
// A section whose records are older than the run (a step skipped with BENCH_SKIP_*) says so.
// Usage: node scripts/bench-report.mjs <target>/bench docs/BENCHMARKS.md
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";

const [outDir, docPath] = process.argv.slice(2);
if (!outDir || !docPath) {
  console.error("usage: node scripts/bench-report.mjs <target>/bench docs/BENCHMARKS.md");
  process.exit(2);
}

const readJson = (p) => (existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null);
const readLines = (p) =>
  existsSync(p)
    ? readFileSync(p, "utf8")
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => JSON.parse(l))
    : [];
const readText = (p) => (existsSync(p) ? readFileSync(p, "utf8").trim() : null);

const machine = readJson(join(outDir, "machine.json")) ?? {};
const criterionDir = join(dirname(outDir), "criterion");
const runStart = machine.date ? Date.parse(machine.date.replace(/Z$/, ":00Z")) : null;

const fmtMs = (ms) =>
  ms == null || Number.isNaN(ms) ? "n/a" : ms >= 100 ? ms.toFixed(0) : ms >= 10 ? ms.toFixed(1) : ms.toFixed(2);
const n = (x) => x.toLocaleString("en");
const med = (xs) => {
  const s = xs.filter((x) => typeof x === "number").sort((a, b) => a - b);
  return s.length ? s[Math.floor((s.length - 1) / 2)] : null;
};

/** When the records at `paths` were written, and whether that was before this run began. */
function when(...paths) {
  const times = paths.filter((p) => existsSync(p)).map((p) => statSync(p).mtime);
  if (!times.length) return null;
  const latest = new Date(Math.max(...times.map((t) => t.getTime())));
  const stale = runStart != null && latest.getTime() < runStart;
  return `Recorded ${latest.toISOString().slice(0, 16)}Z${stale ? " (an earlier run: this step was skipped in the last one)" : ""}.`;
}

/** Criterion's estimate of one benchmark, in ms: median, its 95 % interval and the MAD. */
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
const critFile = (id) => join(criterionDir, id, "new", "estimates.json");
const critCell = (c) => (c ? `${fmtMs(c.median)} ms (${fmtMs(c.lo)}–${fmtMs(c.hi)})` : "not run");

const lines = [];
const push = (...l) => lines.push(...l);

// ---- what and how (the same on every run) -----------------------------------------------------
push(
  "# Benchmarks",
  "",
  "Written by `npm run bench` (`scripts/bench.sh`, then `scripts/bench-report.mjs`) from the records in",
  "`target/bench`; do not edit it by hand. Earlier results are in this file's Git history.",
  "",
  "## What is measured",
  "",
  "- **The core** (criterion, release profile): opening a document through a session (read, parse, validate",
  "  with config schemas, layout, compile), each stage alone, the save pipeline, edits with revalidation on",
  "  10,000 nodes (`crates/bench/benches/document.rs`), and the GraphSpec pipeline, findings and `fmt --check`",
  "  (`crates/spec/benches/pipeline.rs`). Documents from `trellis_bench::generate`.",
  "- **The CLI beside the reference TypeScript round trip** (`scripts/peer-bench.sh`): `trellis fmt --check`,",
  "  `validate` and `validate --format json` as whole processes, against the reference's in-process round trip",
  "  on the same generated files, in the same run; wall time and peak RSS.",
  "- **The app** (`src-tauri/tests/perf`, the `npm start` build under Xvfb through the e2e harness): open to",
  "  the first drawn frame, pan and zoom frame times against plain React Flow in the same webview, edit to",
  "  screen, memory per process, cold start; files without a layout sidecar at 1,000 to 100,000 nodes;",
  "  the release binary's and the packages' sizes, and the installed package's start.",
  "- **The automatic layout**: time at 1,000 / 10,000 / 100,000 nodes (`crates/layout/benches/layout.rs`)",
  "  and readability beside ELK layered (`crates/bench/examples/layout_quality.rs`).",
  "- **Fuzzing**: every fuzz target (`fuzz/fuzz_targets`) runs for a while; a crash fails the bench run.",
  "",
  "## How to rerun",
  "",
  "```sh",
  "npm run bench                                   # everything, then this page",
  "ILMEK_GIT_DIR=/path/to/ilmek.git npm run bench  # with the CLI beside the reference",
  "bash scripts/peer-bench.sh /path/to/ilmek.git   # that comparison alone (SIZES, RUNS, TRELLIS_BIN)",
  "cargo bench -p trellis-bench --bench document   # one criterion bench alone",
  "```",
  "",
  "`scripts/bench.sh` reads: `BENCH_SIZES` (app sizes, default 1000,3000,5000), `BENCH_SCALE` (default",
  "100000; empty: none), `BENCH_SCALE_LIMIT` (s, default 600), `BENCH_REAL_SIZES` (files without a sidecar,",
  "default 1000,10000,100000), `BENCH_ELK_LIMIT` (s, default 300), `BENCH_ONLY_REAL=1`, `BENCH_FUZZ_SECONDS`",
  "(default 60 per target), `BENCH_SKIP_CORE`, `_APP`, `_UI_BUILD`, `_LAYOUT`, `_PEER`, `_PACKAGE`, `_FUZZ`",
  "(each `=1`), `ILMEK_GIT_DIR` (a Git directory of AimTune/ilmek), `TRELLIS_SHARED` (default ../shared),",
  "`CARGO_TARGET_DIR`. The reference is never part of this repository: without `ILMEK_GIT_DIR` the",
  "comparison is left out and says so. The machine is shared; every table gives the load average.",
  "",
  "## Latest figures",
  "",
  `Last run started ${machine.date ?? "?"} at commit ${machine.commit ?? "?"} on ${machine.nproc ?? "?"} cores ` +
    `(${machine.cpu ?? "?"}), ${machine.memory ?? "?"}, WebKitGTK ${machine.webkitgtk ?? "?"} (software painting under Xvfb), ` +
    `kernel ${machine.kernel ?? "?"}, ${machine.rustc ?? "?"}.`,
);

// ---- core -----------------------------------------------------------------------------------
const coreIds = [
  ["open: read, parse, validate (schemas), layout, compile", "open/session"],
  ["&nbsp;&nbsp;parse only", "open/parse"],
  ["&nbsp;&nbsp;validate only (built-in registry, config schemas)", "open/validate"],
  ["&nbsp;&nbsp;from_spec + compile only", "open/compile"],
  ["save: write, read back, fingerprint check, atomic write, read back, sidecar", "save"],
  ["GraphSpec pipeline (parse, validate, compile, to_spec, write)", "pipeline"],
];
const sizes3 = [1000, 10000, 100000];
const coreFiles = coreIds.flatMap(([, id]) => sizes3.map((k) => critFile(`${id}/${k}`)));
push(
  "",
  "### Core (criterion)",
  "",
  `${when(...coreFiles) ?? "Not run."} Load average before / after: ${readText(join(outDir, "core-load-before.txt")) ?? "?"} / ${readText(join(outDir, "core-load-after.txt")) ?? "?"}.`,
  "Median of criterion's samples (95 % confidence interval of the median).",
  "",
  "| step | 1,000 nodes | 10,000 nodes | 100,000 nodes |",
  "|---|---|---|---|",
);
for (const [label, id] of coreIds) push(`| ${label} | ${sizes3.map((k) => critCell(crit(`${id}/${k}`))).join(" | ")} |`);
push(
  `| \`fmt --check\` in process (read, then compared with the writer) | — | ${critCell(crit("fmt_check/read_then_compare/10000"))} | ${critCell(crit("fmt_check/read_then_compare/100000"))} |`,
  "",
  "| on 10,000 nodes | median |",
  "|---|---|",
  `| edit: \`set_config_field\` + revalidation | ${critCell(crit("edit/set_config_field_10000"))} |`,
  `| edit: \`add_node\` + \`connect\` + 2 undo (4 revalidations) | ${critCell(crit("edit/add_connect_undo_10000"))} |`,
  `| reading with spans, no finding / 10,000 findings | ${critCell(crit("findings/0"))} / ${critCell(crit("findings/10000"))} |`,
  `| convert to GRAPH.md / to Weaveflow | ${critCell(crit("convert/graphmd/10000"))} / ${critCell(crit("convert/weaveflow/10000"))} |`,
);

// ---- the CLI beside the reference --------------------------------------------------------------
const peerPath = join(outDir, "peer.md");
const peer = readText(peerPath);
push("", "### The CLI beside the reference TypeScript round trip", "");
if (peer) push(when(peerPath), "", peer);
else push("Not run: set `ILMEK_GIT_DIR` to a Git directory of AimTune/ilmek (see above).");

// ---- the app --------------------------------------------------------------------------------
const appPath = join(outDir, "app.jsonl");
const app = readLines(appPath);
const canvasAll = app.filter((r) => r.kind === "canvas");
const canvas = canvasAll.filter((r) => r.trellis);
const startup = app.filter((r) => r.kind === "startup");
const frames = (s) => `${fmtMs(s.median)} / ${fmtMs(s.p95)} / ${fmtMs(s.max)}`;
const builds = [...new Set(app.map((r) => r.build ?? (r.release === false ? "dev profile" : "release")))];
push("", `### The app (${builds.length ? `${builds.join(", ")} build, ` : ""}WebKitGTK under Xvfb)`, "");
if (canvas.length) {
  push(
    `${when(appPath)} Generated documents with a grid sidecar. Open: Ctrl+O to the first drawn frame. Frames: a real pointer`,
    "drag of the pane and 40 wheel steps, median / p95 / max in ms; baseline: plain React Flow in the same webview.",
    "Edit to screen: a real click and Delete, Ctrl+Z, a config field typed in the inspector, to the frame drawn.",
    "",
    "| nodes | load | open | frames (mode) | baseline frames | ratio p95 | delete / undo / config field | memory PSS open / after use |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const r of canvas) {
    push(
      `| ${n(r.nodes)} | ${r.load_before} | ${fmtMs(r.open.ms)} ms | ${frames(r.trellis.all)} (${r.trellis.mode_after}) | ${frames(r.baseline.all)} | ` +
        `${r.ratio_p95}x | ${fmtMs(r.edit.delete.median)} / ${fmtMs(r.edit.undo.median)} / ${fmtMs(r.edit.config_field.median)} ms | ` +
        `${r.memory.pss_mb.toFixed(0)} / ${r.memory_after_use?.pss_mb.toFixed(0) ?? "—"} MB |`,
    );
  }
  const empty = canvasAll.find((r) => r.nodes === 0);
  if (empty) push("", `Empty document: memory PSS ${empty.memory.pss_mb.toFixed(0)} MB (app and WebKit processes).`);
} else {
  push("Not run (`BENCH_SKIP_APP=1`, or `BENCH_ONLY_REAL=1`).");
}
for (const [file, label] of [
  ["app-nocompositing.jsonl", "`WEBKIT_DISABLE_COMPOSITING_MODE=1` set outside (the app's own choice without a GPU)"],
  ["app-compositing.jsonl", "WebKit's accelerated compositing kept on (`=0`)"],
]) {
  const rows = readLines(join(outDir, file)).filter((r) => r.kind === "canvas" && r.trellis);
  for (const r of rows)
    push(
      "",
      `${label}, ${n(r.nodes)} nodes: open ${fmtMs(r.open.ms)} ms, frames ${frames(r.trellis.all)} ms against ${frames(r.baseline.all)} (${r.ratio_p95}x), ` +
        `memory PSS ${r.memory.pss_mb.toFixed(0)} MB (load ${r.load_before}).`,
    );
}
const scale = canvasAll.filter((r) => r.nodes >= 20000);
for (const r of scale)
  push(
    "",
    `${n(r.nodes)} nodes with a sidecar: open ${fmtMs(r.open.ms)} ms (mode ${r.open.mode})` +
      `${r.save?.save ? `, save to screen ${fmtMs(r.save.save.median)} ms (median of ${r.save.save.frames})` : ""}; ` +
      `memory PSS ${r.memory.pss_mb.toFixed(0)} MB (load ${r.load_before}).`,
  );
for (const s of readLines(join(outDir, "app-scale.status"))) push("", `${n(s.nodes)} nodes: not measured: ${s.reason}`);
const startRuns = startup.flatMap((s) => s.runs_ms);
if (startRuns.length)
  push("", `Cold start to the first drawn frame, no document: ${startRuns.map((x) => fmtMs(x)).join(", ")} ms; median ${fmtMs(med(startRuns))} ms.`);
const binary = readJson(join(outDir, "binary.json"));
if (binary) push("", `Release binary (UI embedded): ${(binary.bytes / 1048576).toFixed(1)} MiB.`);
const packages = readLines(join(outDir, "packages.jsonl"));
const packageRuns = readLines(join(outDir, "app-package.jsonl")).flatMap((s) => s.runs_ms);
const packageStatus = readJson(join(outDir, "app-package.status"));
if (packages.length || packageRuns.length || packageStatus)
  push(
    "",
    `Packages: ${packages.map((p) => `${p.file} ${(p.bytes / 1048576).toFixed(1)} MiB`).join(", ") || "not built"}. Installed \`.deb\`, start to the first drawn frame: ` +
      (packageRuns.length ? `median ${fmtMs(med(packageRuns))} ms (${packageRuns.length} runs).` : `${packageStatus?.reason ?? "not run"}.`),
  );

// Files without a sidecar (the layout runs before the first view), against React Flow + elkjs.
const realPath = join(outDir, "app-real.jsonl");
const real = readLines(realPath);
const realFail = readLines(join(outDir, "app-real.status"));
const extraMb = (before, after) => {
  let most = 0;
  for (const p of after?.processes ?? []) {
    const b = before?.processes.find((x) => x.name === p.name);
    most = Math.max(most, (p.pss_kb - (b?.pss_kb ?? 0)) / 1024);
  }
  return most;
};
const editMed = (r, k) => r.edit?.[k]?.median;
push("", "#### Files without a layout sidecar", "");
if (real.length || realFail.length) {
  push(
    `${when(realPath) ?? ""} \`trellis_bench::write_real_file\` documents (12 project types, no sidecar): the layout, open to the first`,
    "frame (layout included), pan/zoom p95 at the opening view, edit to screen (median), the most any process grew;",
    "baseline: plain React Flow laid out by elkjs in a Web Worker, given up after `BENCH_ELK_LIMIT`.",
    "",
    "| nodes (edges) | load | layout | open | pan/zoom p95 | delete / undo / config field | extra memory | elkjs layout | baseline p95 |",
    "|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of real) {
    const b = r.baseline;
    const elk = !b ? "not run" : b.layout_ms == null ? (b.error ? `failed: ${b.error}` : `gave up after ${fmtMs(b.limit_ms / 1000)} s`) : `${fmtMs(b.layout_ms)} ms`;
    push(
      `| ${n(r.nodes)} (${n(r.edges)}) | ${r.load_before} | ${fmtMs(r.layout_ms)} ms | ${fmtMs(r.open.ms)} ms | ${fmtMs(r.trellis?.all?.p95)} ms | ` +
        `${fmtMs(editMed(r, "delete"))} / ${fmtMs(editMed(r, "undo"))} / ${fmtMs(editMed(r, "config_field"))} ms | ` +
        `${extraMb(r.memory_before_open, r.memory).toFixed(0)} MB | ${elk} | ${b?.all?.p95 != null ? `${fmtMs(b.all.p95)} ms` : "—"} |`,
    );
  }
  for (const s of realFail) push("", `${s.nodes} nodes: not measured: ${s.reason}`);
} else {
  push("Not run.");
}

// ---- layout ---------------------------------------------------------------------------------
const layoutFiles = sizes3.flatMap((k) => [critFile(`layout/${k}`), critFile(`routes/${k}`)]);
const qualityPath = join(outDir, "layout-quality.md");
push(
  "",
  "### Automatic layout",
  "",
  `${when(...layoutFiles) ?? "Not run."} Graphs of the peer harness's shape (criterion, release profile).`,
  "",
  "| | 1,000 nodes | 10,000 nodes | 100,000 nodes |",
  "|---|---|---|---|",
  `| layout | ${sizes3.map((k) => critCell(crit(`layout/${k}`))).join(" | ")} |`,
  `| routes (from positions) | ${sizes3.map((k) => critCell(crit(`routes/${k}`))).join(" | ")} |`,
  "",
);
const quality = readText(qualityPath);
if (quality) push(`Readability beside ELK layered, both drawings measured alike. ${when(qualityPath)}`, "", quality);
else push("The readability comparison was not run.");

// ---- fuzzing --------------------------------------------------------------------------------
const fuzzPath = join(outDir, "fuzz.json");
const fuzz = readJson(fuzzPath);
push("", "### Fuzzing", "");
push(
  fuzz
    ? `${when(fuzzPath)} ${fuzz.seconds} s per target: ${fuzz.failed.length ? `**crashed: ${fuzz.failed.join(", ")}** (inputs under fuzz/artifacts)` : "no crash"}.`
    : "Not run (`BENCH_SKIP_FUZZ=1`).",
);

// ---- targets --------------------------------------------------------------------------------
const at = (k) => canvas.filter((r) => r.nodes === k);
const atReal = (k) => real.filter((r) => r.nodes === k);
const targets = [
  ["open 100,000 nodes in the app (with a sidecar)", "≤ 1,500 ms", med(scale.filter((r) => r.nodes === 100000).map((r) => r.open.ms)), (v) => v <= 1500, "ms"],
  ["edit to screen at 100,000 nodes (delete, undo, config field: the slowest)", "≤ 150 ms",
    atReal(100000).length ? Math.max(...["delete", "undo", "config_field"].map((k) => med(atReal(100000).map((r) => editMed(r, k))) ?? Number.NaN)) : null,
    (v) => v <= 150, "ms"],
  ["edit to screen at 10,000 nodes (the slowest)", "≤ 50 ms",
    atReal(10000).length ? Math.max(...["delete", "undo", "config_field"].map((k) => med(atReal(10000).map((r) => editMed(r, k))) ?? Number.NaN)) : null,
    (v) => v <= 50, "ms"],
  ["pan/zoom p95 at 5,000 nodes", "≤ 33 ms", med(at(5000).map((r) => r.trellis.all.p95)), (v) => v <= 33, "ms"],
  ["save 10,000 nodes (criterion)", "≤ 100 ms", crit("save/10000")?.median, (v) => v <= 100, "ms"],
  ["memory with 5,000 nodes open (PSS)", "≤ 400 MB", med(at(5000).map((r) => r.memory.pss_mb)), (v) => v <= 400, "MB"],
  ["cold start to the first drawn frame", "≤ 1,500 ms", med(startRuns), (v) => v <= 1500, "ms"],
  ["release binary", "≤ 15 MiB", binary ? binary.bytes / 1048576 : null, (v) => v <= 15, "MiB"],
  ["largest package", "≤ 20 MB", packages.length ? Math.max(...packages.map((p) => p.bytes)) / 1e6 : null, (v) => v <= 20, "MB"],
];
push("", "### Targets", "", "The CLI's target, at least 3x the reference at 10,000 and 100,000 nodes with peak memory at most 4x the file, is read from its table above.", "");
push("| target | limit | measured | |", "|---|---|---|---|");
for (const [name, limit, v, ok, unit] of targets) {
  const known = v != null && !Number.isNaN(v);
  push(`| ${name} | ${limit} | ${known ? `${fmtMs(v)} ${unit}` : "not measured"} | ${known ? (ok(v) ? "met" : "**missed**") : "—"} |`);
}

writeFileSync(docPath, `${lines.join("\n")}\n`);
console.log(`wrote ${docPath} (${lines.length} lines)`);
