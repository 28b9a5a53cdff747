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
const withComp = readLines(join(outDir, "app-compositing.jsonl"));
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
  "Reproduce: `npm run bench` (= `bash scripts/bench.sh`; about 25 minutes). The machine is shared: the load average",
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
const canvasAll = app.filter((r) => r.kind === "canvas");
const canvas = canvasAll.filter((r) => r.trellis); // sizes with interaction figures
const emptyRun = canvasAll.find((r) => r.nodes === 0);
const startup = app.filter((r) => r.kind === "startup");
const n = (x) => x.toLocaleString("en");
const mb = (kb) => `${(kb / 1024).toFixed(0)} MB`;
const spread = (s) => (s ? `${fmtMs(s.median)} ms (${fmtMs(s.min)}–${fmtMs(s.max)}, ${s.frames} runs)` : "n/a");
const frames = (s) => `${fmtMs(s.median)} / ${fmtMs(s.p95)} / ${fmtMs(s.max)}`;
// The build the figures were taken on, as the records say (older records: release).
const builds = [...new Set(app.map((r) => r.build ?? (r.release === false ? "dev profile" : "release")))];
const appBuild = builds.length ? builds.join(", ") : "not run";
push(
  `### The app (${appBuild} build, WebKitGTK under Xvfb, WebDriver harness)`,
  "",
  "The build is the one `npm start` runs (Cargo's dev profile: our crates at opt-level 1, every dependency optimised without debug assertions).",
  "Command: `TRELLIS_BENCH_SIZES=1000,3000,5000 TRELLIS_BENCH_OUT=<file> cargo test -p trellis-app --features e2e --test perf -- --test-threads=1`",
  "(`src-tauri/tests/perf/`). Per size a fresh app (an empty document first, for the memory floor): Ctrl+O (dialog answered",
  "by the test bypass) to the new document's first drawn frame (the UI's `firstDrawnAt`: two frames after the fitted",
  "view's drawing was scheduled); memory per process; fit view; a real pointer drag of the pane (60 moves of (-6, -3) px,",
  "16 ms apart, from a point where the pane itself is hit and no node of the grid lies) then 40 wheel steps (20 in, 20",
  "out), frame intervals from requestAnimationFrame; the test fails unless the viewport followed the drag and the wheel.",
  "Then edit to screen, then `baseline.html` (plain React Flow 12 with its defaults, same size, same grid) in the same",
  "webview with the same drag and wheel steps. Frame figures: median / p95 / max in ms over every frame of the drag and",
  "the zoom (the per-frame distribution is the spread).",
  "",
  "| nodes | load (before → after) | open → drawn | Trellis frames med / p95 / max (mode) | baseline med / p95 / max | ratio p95 (median) |",
  "|---|---|---|---|---|---|",
);
for (const r of canvas) {
  push(
    `| ${n(r.nodes)} | ${r.load_before} → ${r.load_after} | ${fmtMs(r.open.ms)} ms (${r.open.mode}) | ` +
      `${frames(r.trellis.all)} (${r.trellis.mode_after}) | ${frames(r.baseline.all)} | ${r.ratio_p95}x (${r.ratio_median}x) |`,
  );
}
push("", "Pan and zoom separately (Trellis / baseline, median / p95 in ms; how far the viewport moved for the 402 px drag):", "");
push("| nodes | pan | zoom | viewport moved (Trellis / baseline) |", "|---|---|---|---|");
for (const r of canvas) {
  const mv = (x) => (x.pan_moved_px ? `(${x.pan_moved_px.join(", ")}) px` : "?");
  push(
    `| ${n(r.nodes)} | ${fmtMs(r.trellis.pan.median)} / ${fmtMs(r.trellis.pan.p95)} vs ${fmtMs(r.baseline.pan.median)} / ${fmtMs(r.baseline.pan.p95)} | ` +
      `${fmtMs(r.trellis.zoom.median)} / ${fmtMs(r.trellis.zoom.p95)} vs ${fmtMs(r.baseline.zoom.median)} / ${fmtMs(r.baseline.zoom.p95)} | ${mv(r.trellis)} / ${mv(r.baseline)} |`,
  );
}

push(
  "",
  "Edit to screen, whole graph in view (the overview drawing): node `n3` clicked where it is drawn (a real pointer click;",
  "the inspector must show it), Delete, until the UI's document has one node less + 2 animation frames (checked against",
  "Rust's document: `n3` is gone); Ctrl+Z likewise; the llm node `n0`'s `max_tokens` typed in the inspector, from Enter to",
  "2 frames after the inspector's raw JSON shows the new value (Rust answered: apply, full revalidation, the view sent",
  "back, applied and drawn). Median (min–max, runs):",
  "",
  "| nodes | delete → drawn | undo → drawn | config field → drawn |",
  "|---|---|---|---|",
);
for (const r of canvas) push(`| ${n(r.nodes)} | ${spread(r.edit.delete)} | ${spread(r.edit.undo)} | ${spread(r.edit.config_field)} |`);

const variantRows = (rows, label) => {
  if (!rows.length) return;
  push("", label, "");
  push(
    "| nodes | load | open | Trellis med / p95 / max | baseline med / p95 / max | ratio p95 | edit delete / undo / config (median) | memory PSS after open / after use |",
    "|---|---|---|---|---|---|---|---|",
  );
  for (const r of rows.filter((x) => x.kind === "canvas")) {
    if (!r.trellis) {
      push(`| empty | ${r.load_before} | ${fmtMs(r.open.ms)} ms | — | — | — | — | ${r.memory.pss_mb.toFixed(0)} MB / — |`);
      continue;
    }
    push(
      `| ${n(r.nodes)} | ${r.load_before} | ${fmtMs(r.open.ms)} ms | ${frames(r.trellis.all)} | ${frames(r.baseline.all)} | ${r.ratio_p95}x | ` +
        `${fmtMs(r.edit.delete.median)} / ${fmtMs(r.edit.undo.median)} / ${fmtMs(r.edit.config_field.median)} ms | ` +
        `${r.memory.pss_mb.toFixed(0)} / ${r.memory_after_use.pss_mb.toFixed(0)} MB |`,
    );
  }
};
variantRows(
  noComp,
  "With `WEBKIT_DISABLE_COMPOSITING_MODE=1` set outside (the app sets the same itself when the machine has no GPU render node, `src-tauri/src/webkit_env.rs`, so this row should match the 5,000 row above):",
);
variantRows(
  withComp,
  "With WebKit's accelerated compositing kept on (`WEBKIT_DISABLE_COMPOSITING_MODE=0`: WebKit's default, what the app did before), same script:",
);

// Memory.
push(
  "",
  "#### Memory",
  "",
  "Per process from `/proc/<pid>/smaps_rollup`: PSS splits shared pages between the processes that map them, so the",
  "PSS column adds up to what the app costs; VmRSS counts shared libraries once per process. Taken 2 s after the open",
  "(\"open\") and again after the pan, zoom and edits (\"after use\": the drawing's bitmap caches exist then).",
  "",
  "| document | load | PSS open (app + WebKit) | PSS after use | RSS sum open | trellis-app PSS | WebKitWebProcess PSS | WebKitNetworkProcess PSS |",
  "|---|---|---|---|---|---|---|---|",
);
const procPss = (m, name) => {
  const p = m?.processes.find((x) => x.name.startsWith(name));
  return p ? mb(p.pss_kb) : "—";
};
for (const r of canvasAll) {
  push(
    `| ${r.nodes === 0 ? "empty" : `${n(r.nodes)} nodes`} | ${r.load_before} | ${r.memory.pss_mb.toFixed(0)} MB | ${r.memory_after_use ? `${r.memory_after_use.pss_mb.toFixed(0)} MB` : "—"} | ` +
      `${r.memory.rss_mb.toFixed(0)} MB | ${procPss(r.memory, "trellis-app")} | ${procPss(r.memory, "WebKitWebProces")} | ${procPss(r.memory, "WebKitNetworkPr")} |`,
  );
}
const breakdownOf = (r, label, which) => {
  const m = which === "use" ? r?.memory_after_use : r?.memory;
  if (!m) return;
  push("", `Where it goes, ${label} (biggest groups of mappings from \`/proc/<pid>/smaps\`, PSS / RSS):`, "");
  push("| process | PSS (anon / file / shmem) | peak RSS | biggest groups |", "|---|---|---|---|");
  for (const p of m.processes) {
    const groups = (p.breakdown ?? []).slice(0, 5).map((g) => `${g.group} ${mb(g.pss_kb)} / ${mb(g.rss_kb)}`).join("; ");
    push(`| ${p.name} | ${mb(p.pss_kb)} (${mb(p.pss_anon_kb ?? 0)} / ${mb(p.pss_file_kb ?? 0)} / ${mb(p.pss_shmem_kb ?? 0)}) | ${mb(p.peak_rss_kb ?? 0)} | ${groups} |`);
  }
};
breakdownOf(emptyRun, "empty document", "open");
const run5k = canvasAll.find((r) => r.nodes === 5000);
breakdownOf(run5k, "5,000 nodes after use", "use");

// Scale.
const scale = canvasAll.filter((r) => r.nodes >= 20000);
const scaleFail = readLines(join(outDir, "app-scale.status"));
if (scale.length || scaleFail.length) {
  push("", "#### Scale (open and memory only)", "");
  for (const r of scale) {
    push(
      `${n(r.nodes)} nodes: Ctrl+O to the first drawn frame ${fmtMs(r.open.ms)} ms (wall, with the WebDriver round trips: ${fmtMs(r.open_wall_ms)} ms), ` +
        `mode ${r.open.mode}; memory PSS ${r.memory.pss_mb.toFixed(0)} MB (trellis-app ${procPss(r.memory, "trellis-app")}, WebKitWebProcess ${procPss(r.memory, "WebKitWebProces")}); load ${r.load_before}.`,
    );
  }
  for (const s of scaleFail) push(`${n(s.nodes)} nodes: not measured: ${s.reason}`);
}

const runs = startup.flatMap((s) => s.runs_ms);
const sorted = [...runs].sort((a, b) => a - b);
push(
  "",
  `Cold start: start of the app process (from /proc, 10 ms ticks) to its first drawn frame (\`performance.timeOrigin + firstDrawnAt()\`), no document: ` +
    (runs.length
      ? `${runs.map((x) => fmtMs(x)).join(", ")} ms; median ${fmtMs(med(runs))} ms (${fmtMs(sorted[0])}–${fmtMs(sorted[sorted.length - 1])}) (load ${startup.map((s) => s.load).join("; ")}).`
      : "not run."),
);
if (binary) {
  push(
    "",
    `Release binary (\`cargo build --release -p trellis-app --features e2e\`, the UI embedded): ${(binary.bytes / 1048576).toFixed(1)} MiB ` +
      `(${n(binary.bytes)} bytes; \`strip\` again: ${(binary.stripped_bytes / 1048576).toFixed(1)} MiB).`,
  );
}

// Issue 51: the packages and the installed package's start.
const packages = readLines(join(outDir, "packages.jsonl"));
const packageRuns = readLines(join(outDir, "app-package.jsonl")).flatMap((s) => s.runs_ms);
const packageStatus = readJson(join(outDir, "app-package.status"));
if (packages.length || packageRuns.length || packageStatus) {
  push(
    "",
    `Packages (\`npm run package\`): ${packages.map((p) => `${p.file} ${(p.bytes / 1048576).toFixed(1)} MiB`).join(", ") || "not built"}. ` +
      `Installed \`.deb\`, \`/usr/bin/trellis-app\` from its start to its first drawn frame, as shipped: ` +
      (packageRuns.length ? `${packageRuns.map((x) => fmtMs(x)).join(", ")} ms; median ${fmtMs(med(packageRuns))} ms.` : `${packageStatus?.reason ?? "not run"}.`),
  );
}

// ---- targets -------------------------------------------------------------------------------
const at = (n) => canvas.filter((r) => r.nodes === n);
const targets = [
  ["open 5,000 nodes", "≤ 2,000 ms", med(at(5000).map((r) => r.open.ms)), (v) => v <= 2000, "ms"],
  ["pan/zoom p95 at 5,000 nodes", "≤ 33 ms", med(at(5000).map((r) => r.trellis.all.p95)), (v) => v <= 33, "ms"],
  ["pan/zoom p95 at 1,000 nodes", "≤ 16 ms", med(at(1000).map((r) => r.trellis.all.p95)), (v) => v <= 16, "ms"],
  ["p95 at 3,000 nodes vs plain React Flow", "≥ 5x better", med(at(3000).map((r) => r.ratio_p95)), (v) => v >= 5, "x"],
  ["edit on 10,000 nodes (set_config_field + revalidation)", "≤ 50 ms", crit("edit/set_config_field_10000")?.median, (v) => v <= 50, "ms"],
  ["save 10,000 nodes", "≤ 100 ms", crit("save/10000")?.median, (v) => v <= 100, "ms"],
  ["memory with 5,000 nodes open (PSS, app + WebKit processes)", "≤ 400 MB", med(at(5000).map((r) => r.memory.pss_mb)), (v) => v <= 400, "MB"],
  ["the same after pan, zoom and edits (PSS)", "≤ 400 MB", med(at(5000).map((r) => r.memory_after_use.pss_mb)), (v) => v <= 400, "MB"],
  ["the same as a sum of VmRSS (shared libraries counted per process)", "≤ 400 MB", med(at(5000).map((r) => r.memory.rss_mb)), (v) => v <= 400, "MB"],
  ["cold start to first drawn frame", "≤ 1,500 ms", med(runs), (v) => v <= 1500, "ms"],
  ["release binary", "≤ 15 MB", binary ? binary.bytes / 1048576 : null, (v) => v <= 15, "MiB"],
  ["installed package: start to first drawn frame (issue 51)", "≤ 1,000 ms", med(packageRuns), (v) => v <= 1000, "ms"],
  ["largest package, .deb or .rpm (issue 51)", "≤ 20 MB", packages.length ? Math.max(...packages.map((p) => p.bytes)) / 1e6 : null, (v) => v <= 20, "MB"],
];
push("", "### Targets (issue 8)", "", "| target | limit | measured (median of runs) | |", "|---|---|---|---|");
for (const [name, limit, v, ok, unit] of targets) {
  const shown = v == null ? "not measured" : `${unit === "x" ? v : fmtMs(v)} ${unit}`;
  push(`| ${name} | ${limit} | ${shown} | ${v == null ? "—" : ok(v) ? "met" : "**missed**"} |`);
}
push("", END);

// ---- issue 13: real files (no sidecar, project types), against React Flow + elkjs -------------
const REAL_BEGIN = "<!-- bench.sh real files: generated from here -->";
const REAL_END = "<!-- bench.sh real files: generated up to here -->";
const real = readLines(join(outDir, "app-real.jsonl"));
const realFail = readLines(join(outDir, "app-real.status"));
const realLines = [REAL_BEGIN, ""];
if (real.length || realFail.length) {
  const extraMb = (before, after) => {
    // The most any one process grew from the app at rest to the document open (PSS).
    let most = 0;
    for (const p of after?.processes ?? []) {
      const b = before?.processes.find((x) => x.name === p.name);
      most = Math.max(most, (p.pss_kb - (b?.pss_kb ?? 0)) / 1024);
    }
    return most;
  };
  const editMed = (r, k) => r.edit?.[k]?.median;
  realLines.push(
    `Measured ${machine.date ?? "?"} (${machine.nproc ?? "?"} cores, WebKitGTK ${machine.webkitgtk ?? "?"} under Xvfb), ${[...new Set(real.map((r) => r.build ?? "release"))].join(", ")} build. ` +
      "Documents: `trellis_bench::write_real_file` (the edge shape of the generated documents, 12 project types described by " +
      "`project.registry.json` beside the file, **no layout sidecar**). Layout: trellis-layout on the document in the test's " +
      "own process (the code the app runs before its first view). Open: Ctrl+O to the first drawn frame, layout included. " +
      "Pan/zoom at the opening view, without fitting (the readable zoom the app chose). Edit to screen: median of the runs. " +
      "Extra memory: the most any one process grew (PSS) from the app at rest to the document open. Baseline: plain React Flow " +
      "in the same webview, laid out by elkjs in a Web Worker (the app's former engine and options), given up after the limit; " +
      "where elkjs gave up or failed, React Flow draws trellis-layout's positions (marked), so its drawing is still compared.",
    "",
    "| nodes (edges) | load | layout | open to first frame | opening zoom, mode, names drawn | pan/zoom p95 | edit: delete / undo / config field | extra memory | baseline: elkjs layout | baseline: open | baseline: p95 | ratio p95 (baseline / Trellis) |",
    "|---|---|---|---|---|---|---|---|---|---|---|---|",
  );
  for (const r of real) {
    const b = r.baseline;
    const base = !b
      ? ["not run (elkjs is not tried above 10,000 nodes)", "—", "—"]
      : b.layout_ms == null
        ? [
            b.error ? `failed: ${b.error}` : `gave up after ${fmtMs(b.limit_ms / 1000)} s`,
            ...(b.drawn
              ? [`${fmtMs(b.open_ms)} ms (elkjs failing first, then trellis-layout's positions)`, `${fmtMs(b.all?.p95)} ms`]
              : ["—", "—"]),
          ]
        : [`${fmtMs(b.layout_ms)} ms`, `${fmtMs(b.open_ms)} ms`, `${fmtMs(b.all?.p95)} ms`];
    const v = r.opening_view ?? {};
    realLines.push(
      `| ${n(r.nodes)} (${n(r.edges)}) | ${r.load_before} | ${fmtMs(r.layout_ms)} ms | ${fmtMs(r.open.ms)} ms | ` +
        `${Math.round((v.zoom ?? 0) * 100)} %, ${v.mode}, ${v.mode === "canvas" ? n(v.names ?? 0) : `${n(v.dom_nodes ?? 0)} DOM nodes`} | ` +
        `${fmtMs(r.trellis?.all?.p95)} ms | ${fmtMs(editMed(r, "delete"))} / ${fmtMs(editMed(r, "undo"))} / ${fmtMs(editMed(r, "config_field"))} ms | ` +
        `${extraMb(r.memory_before_open, r.memory).toFixed(0)} MB | ${base.join(" | ")} | ${r.ratio_p95 ?? "—"} |`,
    );
  }
  for (const s of realFail) realLines.push("", `${n(s.nodes)} nodes: not measured: ${s.reason}`);
  // Where an edit's time went (the UI's edit trace of the last run of each edit, ms after the
  // key): Rust's answer back, applied to the view, the canvas's derived data, the overview
  // scene (built, compared, the changed places repainted), the frame drawn.
  // The first stamp of a stage (a second render after the scene marks some again).
  const stageAt = (stages, name) => (stages ?? []).find(([s]) => s === name) ?? null;
  const traced = real.filter((r) => r.edit?.stages);
  if (traced.length) {
    realLines.push(
      "",
      "Where the time of the last run of each edit went (ms after the key; `ui/src/perf/editTrace.ts`): Rust answered " +
        "(IPC both ways included), the delta applied to the view, the canvas's data, the overview scene rebuilt " +
        "(own time), the frame's drawing (own time), and the figure (that frame rendered). The minimap repaints after it.",
      "",
      "| nodes | edit | answered | applied | canvas data | scene (own) | drawn (own) | figure |",
      "|---|---|---|---|---|---|---|---|",
    );
    for (const r of traced)
      for (const k of ["delete", "undo", "config_field"]) {
        const st = r.edit.stages[k];
        if (!st) continue;
        const at = (name) => stageAt(st, name)?.[1];
        const own = (name) => stageAt(st, name)?.[2];
        const last = r.edit[k]?.samples?.[r.edit[k].samples.length - 1];
        realLines.push(
          `| ${n(r.nodes)} | ${k.replace("_", " ")} | ${fmtMs(at("answered"))} | ${fmtMs(at("stored"))} | ${fmtMs(at("data"))} | ` +
            `${fmtMs(at("scene"))} (${fmtMs(own("scene"))}) | ${fmtMs(at("drawn"))} (${fmtMs(own("drawn"))}) | ${fmtMs(last)} |`,
        );
      }
    // What of "answered" is the IPC itself: 30 round trips of a command that does next to nothing.
    const ipc = traced.filter((r) => typeof r.ipc?.median === "number");
    if (ipc.length)
      realLines.push(
        "",
        "IPC round trip of a command that does next to nothing (`list_documents`, 30 from the page, after the edits): " +
          ipc.map((r) => `${n(r.nodes)} nodes: median ${fmtMs(r.ipc.median)}, ${fmtMs(r.ipc.min)}–${fmtMs(r.ipc.max)} ms`).join("; ") +
          " (WebKit's clock in the page counts whole milliseconds).",
      );
  }
  const atReal = (k) => real.filter((r) => r.nodes === k);
  const realTargets = [
    ["layout of 10,000 nodes", "≤ 2 s", med(atReal(10000).map((r) => r.layout_ms)), (x) => x <= 2000, "ms"],
    ["layout of 100,000 nodes", "≤ 20 s", med(atReal(100000).map((r) => r.layout_ms)), (x) => x <= 20000, "ms"],
    ["extra memory, any process, 100,000 nodes", "≤ 500 MB", med(atReal(100000).map((r) => extraMb(r.memory_before_open, r.memory))), (x) => x <= 500, "MB"],
    ["edit to screen (delete) at 10,000 nodes", "≤ 50 ms", med(atReal(10000).map((r) => editMed(r, "delete"))), (x) => x <= 50, "ms"],
    ["edit to screen (undo) at 10,000 nodes", "≤ 50 ms", med(atReal(10000).map((r) => editMed(r, "undo"))), (x) => x <= 50, "ms"],
    ["edit to screen (config field) at 10,000 nodes", "≤ 50 ms", med(atReal(10000).map((r) => editMed(r, "config_field"))), (x) => x <= 50, "ms"],
    ["edit to screen (delete) at 100,000 nodes", "≤ 150 ms", med(atReal(100000).map((r) => editMed(r, "delete"))), (x) => x <= 150, "ms"],
    ["edit to screen (undo) at 100,000 nodes", "≤ 150 ms", med(atReal(100000).map((r) => editMed(r, "undo"))), (x) => x <= 150, "ms"],
    ["edit to screen (config field) at 100,000 nodes", "≤ 150 ms", med(atReal(100000).map((r) => editMed(r, "config_field"))), (x) => x <= 150, "ms"],
    ["pan/zoom p95 at 10,000 nodes, names drawn", "≤ 33 ms", med(atReal(10000).map((r) => r.trellis?.all?.p95)), (x) => x <= 33, "ms"],
  ];
  realLines.push("", "| target (issue 13) | limit | measured | |", "|---|---|---|---|");
  for (const [name, limit, x, ok, unit] of realTargets) {
    realLines.push(`| ${name} | ${limit} | ${x == null ? "not measured" : `${fmtMs(x)} ${unit}`} | ${x == null ? "—" : ok(x) ? "met" : "**missed**"} |`);
  }
} else {
  realLines.push("Not run yet: `BENCH_ONLY_REAL=1 npm run bench`.");
}
realLines.push("", REAL_END);

// ---- the automatic layout: time, and readability beside ELK layered (scripts/bench.sh step 4) ----
const LAYOUT_BEGIN = "<!-- bench.sh: layout from here -->";
const LAYOUT_END = "<!-- bench.sh: layout up to here -->";
const layoutQuality = existsSync(join(outDir, "layout-quality.md")) ? readFileSync(join(outDir, "layout-quality.md"), "utf8").trim() : null;
const layoutLines = [LAYOUT_BEGIN, ""];
layoutLines.push(
  "Time of `trellis-layout` (criterion, crates/layout/benches/layout.rs, release profile) on graphs of the peer harness's shape",
  "(a chain with long jumps, fan-outs, loops back, early exits and labelled guarded branches; the start first, the end last):",
  "",
  "| | 1,000 nodes | 10,000 nodes | 100,000 nodes |",
  "|---|---|---|---|",
  `| layout | ${[1000, 10000, 100000].map((k) => critCell(crit(`layout/${k}`))).join(" | ")} |`,
  `| routes (from positions) | ${[1000, 10000, 100000].map((k) => critCell(crit(`routes/${k}`))).join(" | ")} |`,
  "",
);
if (layoutQuality) {
  layoutLines.push(
    "Readability, Trellis beside ELK's layered algorithm (elkjs, the options the app used before; cheaper ones above 1,500 nodes)",
    "on the same graphs, both drawings measured alike (`trellis_layout::quality`; crates/bench/examples/layout_quality.rs): every",
    "document of the corpus (third-party included), the layout fixtures and the peer harness's generated specs. Edges are",
    "measured as drawn: Trellis's routes, ELK's bend points; labels at each engine's place for them.",
    "",
    layoutQuality,
  );
} else {
  layoutLines.push("The readability comparison was not run (`BENCH_SKIP_LAYOUT=1`, or it failed).");
}
layoutLines.push("", LAYOUT_END);

// ---- merge into the document ------------------------------------------------------------------
let doc = existsSync(docPath) ? readFileSync(docPath, "utf8") : "";
const replaceBlock = (text, begin, end, block, heading) => {
  if (text.includes(begin) && text.includes(end)) return text.slice(0, text.indexOf(begin)) + block + text.slice(text.indexOf(end) + end.length);
  return `${text.trimEnd() || "# Benchmarks"}\n\n${heading}\n\n${block}\n`;
};
// A run of one scenario (BENCH_ONLY_REAL=1) leaves the other block as it was.
if (process.env.BENCH_ONLY_REAL !== "1") {
  doc = replaceBlock(doc, BEGIN, END, lines.join("\n"), "## Issue 8: open, save, edit and the app");
}
if (real.length || realFail.length || !doc.includes(REAL_BEGIN)) {
  doc = replaceBlock(doc, REAL_BEGIN, REAL_END, realLines.join("\n"), "## Issue 13: real files in the app (no sidecar), against React Flow + elkjs");
}
if (process.env.BENCH_ONLY_REAL !== "1" && process.env.BENCH_SKIP_LAYOUT !== "1") {
  doc = replaceBlock(doc, LAYOUT_BEGIN, LAYOUT_END, layoutLines.join("\n"), "## Automatic layout: time, and readability beside ELK layered");
}
writeFileSync(docPath, doc);
console.log(`wrote ${docPath}`);
