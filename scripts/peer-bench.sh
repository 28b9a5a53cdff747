#!/usr/bin/env bash
# scripts/peer-bench.sh [ILMEK_GIT_DIR]: Trellis's core beside the reference TypeScript round trip.
#
# In one run, on the same generated GraphSpec files:
#   1. the reference (AimTune/ilmek's TypeScript core: JSON.parse, fromSpec, compile, toSpec,
#      JSON.stringify, in process, after a warm-up) through ../shared/peer-bench/run.sh, which
#      checks the reference out of the Git directory given (nothing of it enters this
#      repository), builds it, generates the specs and writes one JSON line per size;
#   2. the release `trellis` CLI, whole process, on the same files: `fmt --check`, `validate`
#      and `validate --format json`, with a registry describing the twelve generated types (any
#      object config accepted, so the config schema check runs); RUNS runs each, median. Wall
#      time from `hyperfine -N` when it is installed (the process from exec to exit, nothing
#      else), else from the shell's clock around /usr/bin/time (which adds the start of `date`
#      and of /usr/bin/time itself: 3-4 ms on this project's machines); peak RSS and the exit
#      status from /usr/bin/time;
#   3. findings: `validate` of the 10,000-node file with one unknown field added to every node
#      (10,000 more warnings) beside the file as generated, in both output formats;
# then prints the ratio table (reference median / Trellis median; peak RSS / file size) and
# writes it, with the machine and the load, to $PEER_ROOT/results/table.md.
#
# ILMEK_GIT_DIR (or $1): a Git directory of AimTune/ilmek (a bare mirror is fine). Without it,
# and without a checkout already built under $PEER_ROOT, the script says so and exits 3.
# Environment: SIZES (default "10000 100000"), RUNS (default 21), WARMUP_RUNS (hyperfine's
# unmeasured runs before them, default 10), PEER_ROOT (default
# target/peer), PEER_BENCH_DIR (default ../shared/peer-bench), CARGO_TARGET_DIR, TRELLIS_BIN (a
# release `trellis` already built: no build step).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
export CARGO_TARGET_DIR="$TARGET"
PEER_ROOT="${PEER_ROOT:-$TARGET/peer}"
PEER_BENCH_DIR="${PEER_BENCH_DIR:-$PWD/../shared/peer-bench}"
GIT_DIR_ARG="${1:-${ILMEK_GIT_DIR:-}}"
SIZES="${SIZES:-10000 100000}"
# 21: on a 2-core virtual machine a 10,000-node run takes about 12 ms or about 16 ms, as another
# process (kdamond here) holds a core or not, and a median of five moved by a third between runs.
RUNS="${RUNS:-21}"
WARMUP_RUNS="${WARMUP_RUNS:-10}"
SPECS="$PEER_ROOT/specs"
RESULTS="$PEER_ROOT/results"
export PEER_ROOT

if [[ ! -x "$PEER_BENCH_DIR/run.sh" ]]; then
  echo "peer-bench: no peer harness at $PEER_BENCH_DIR (set PEER_BENCH_DIR)" >&2
  exit 3
fi
if [[ -z "$GIT_DIR_ARG" && ! -f "$PEER_ROOT/ilmek/ts/packages/core/src/spec.ts" ]]; then
  echo "peer-bench: no reference checkout: pass a Git directory of AimTune/ilmek as \$1 or ILMEK_GIT_DIR" >&2
  echo "peer-bench: (nothing measured; the reference is not part of this repository)" >&2
  exit 3
fi
[[ -x /usr/bin/time ]] || { echo "peer-bench: /usr/bin/time is needed (apt-get install time)" >&2; exit 2; }
if command -v hyperfine >/dev/null 2>&1; then
  CLOCK="hyperfine"
else
  CLOCK="shell"
  echo "peer-bench: no hyperfine (apt-get install hyperfine): wall times from the shell's clock, 3-4 ms high" >&2
fi

load() { cut -d' ' -f1-3 /proc/loadavg; }
LOAD_BEFORE="$(load)"
UPTIME_BEFORE="$(uptime)"

if [[ -n "${TRELLIS_BIN:-}" ]]; then
  TRELLIS="$TRELLIS_BIN"
else
  echo "== release build of the CLI" >&2
  cargo build --release -p trellis-cli >&2
  TRELLIS="$TARGET/release/trellis"
fi

echo "== reference round trip (sizes $SIZES, $RUNS runs); load $(load)" >&2
SIZES="$SIZES" RUNS="$RUNS" WARMUP=1 bash "$PEER_BENCH_DIR/run.sh" ${GIT_DIR_ARG:+"$GIT_DIR_ARG"} >&2

# The twelve types gen-spec.mjs uses, each accepting any object as its config.
REGISTRY="$PEER_ROOT/peer.registry.json"
node -e '
  const types = ["llm", "tool", "http", "classify", "retrieve", "summarize",
    "validate", "transform", "human_review", "set_state", "delay", "notify"];
  const doc = { name: "peer-bench", types: types.map((type) => ({ type, config_schema: { type: "object" } })) };
  require("fs").writeFileSync(process.argv[1], JSON.stringify(doc, null, 2) + "\n");
' "$REGISTRY"

# The 10,000-node file with an unknown field in every node: 10,000 more findings.
FINDINGS_BASE=10000
if [[ -f "$SPECS/spec-$FINDINGS_BASE.json" ]]; then
  node -e '
    const fs = require("fs");
    const spec = JSON.parse(fs.readFileSync(process.argv[1], "utf8"));
    for (const n of spec.nodes) n.position = { x: 0, y: 0 };
    fs.writeFileSync(process.argv[2], JSON.stringify(spec, null, 2) + "\n");
  ' "$SPECS/spec-$FINDINGS_BASE.json" "$SPECS/findings-$FINDINGS_BASE.json"
fi

# measure NAME FILE ARGS...: RUNS runs of `trellis ARGS FILE`, one JSON line per run into
# $RESULTS/trellis.jsonl (wall ms from hyperfine or the shell's clock, peak RSS from
# /usr/bin/time).
: >"$RESULTS/trellis.jsonl"
measure() {
  local name=$1 file=$2
  shift 2
  local i start end rss status walls=()
  if [[ $CLOCK == hyperfine ]]; then
    # -N: no shell; the command is split like a shell would, so every word is quoted. -i: exit
    # 1 is a document with problems; the statuses are checked below. Ten runs to warm up: on
    # this project's virtual machines the first ten or twenty runs of a command after a pause
    # take 3-5 ms more at 10,000 nodes (15-20 ms, then 13-14 ms), which is the reference's
    # whole margin; its own warm-up is a full round trip in the same process.
    local command
    command="$(printf '%q ' "$TRELLIS" "$@" "$file")"
    hyperfine -N -i --warmup "$WARMUP_RUNS" --runs "$RUNS" --export-json "$RESULTS/hyperfine.json" "$command" >/dev/null 2>&1
    mapfile -t walls < <(node -e '
      for (const t of require(process.argv[1]).results[0].times) console.log((t * 1000).toFixed(3));
    ' "$RESULTS/hyperfine.json")
  fi
  for ((i = 0; i < RUNS + 1; i++)); do
    start=$(date +%s%N)
    set +e
    /usr/bin/time -f '%M' -o "$RESULTS/time.txt" "$TRELLIS" "$@" "$file" >/dev/null 2>"$RESULTS/stderr.txt"
    status=$?
    set -e
    end=$(date +%s%N)
    rss=$(tail -1 "$RESULTS/time.txt")
    # Exit 1 is a document with problems (or, for fmt --check, one that would change).
    if ((status > 1)); then
      echo "peer-bench: trellis $* $file exited $status:" >&2
      cat "$RESULTS/stderr.txt" >&2
      exit 1
    fi
    # The first run warms the page cache; it is not counted.
    if ((i > 0)); then
      local wall="$(((end - start) / 1000))e-3"
      [[ $CLOCK == hyperfine ]] && wall="${walls[i - 1]}"
      printf '{"case": "%s", "file": "%s", "bytes": %s, "wall_ms": %s, "peak_kb": %s, "exit": %s}\n' \
        "$name" "$file" "$(stat -c %s "$file")" "$wall" "$rss" "$status" >>"$RESULTS/trellis.jsonl"
    fi
  done
}

for n in $SIZES; do
  f="$SPECS/spec-$n.json"
  echo "== trellis on $n nodes; load $(load)" >&2
  measure "fmt --check/$n" "$f" fmt --check
  measure "validate/$n" "$f" validate --no-discover --registry "$REGISTRY"
  measure "validate --format json/$n" "$f" validate --no-discover --registry "$REGISTRY" --format json
done
if [[ -f "$SPECS/findings-$FINDINGS_BASE.json" ]]; then
  f="$SPECS/findings-$FINDINGS_BASE.json"
  echo "== trellis validate with 10,000 more findings; load $(load)" >&2
  measure "findings: validate/$FINDINGS_BASE" "$f" validate --no-discover --registry "$REGISTRY"
  measure "findings: validate --format json/$FINDINGS_BASE" "$f" validate --no-discover --registry "$REGISTRY" --format json
  "$TRELLIS" validate --no-discover --registry "$REGISTRY" --format json "$SPECS/spec-$FINDINGS_BASE.json" >"$RESULTS/clean.json" || true
  "$TRELLIS" validate --no-discover --registry "$REGISTRY" --format json "$f" >"$RESULTS/findings.json" || true
fi

LOAD_AFTER="$(load)"
WARMUP_RUNS="$WARMUP_RUNS" node - "$RESULTS" "$SIZES" "$LOAD_BEFORE" "$LOAD_AFTER" "$UPTIME_BEFORE" "$RUNS" "$CLOCK" <<'EOF' | tee "$RESULTS/table.md"
const fs = require("fs");
const os = require("os");
const [results, sizes, loadBefore, loadAfter, uptime, runs, clock] = process.argv.slice(2);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };
const rows = fs.readFileSync(`${results}/trellis.jsonl`, "utf8").trim().split("\n").map((l) => JSON.parse(l));
const byCase = new Map();
for (const r of rows) (byCase.get(r.case) ?? byCase.set(r.case, []).get(r.case)).push(r);
const stat = (name) => {
  const rs = byCase.get(name);
  if (!rs) return null;
  return { ms: median(rs.map((r) => r.wall_ms)), min: Math.min(...rs.map((r) => r.wall_ms)), max: Math.max(...rs.map((r) => r.wall_ms)),
    peakMB: Math.max(...rs.map((r) => r.peak_kb)) / 1024, bytes: rs[0].bytes };
};
const f = (x, d = 0) => x.toLocaleString("en-US", { minimumFractionDigits: d, maximumFractionDigits: d });
const cpu = (os.cpus()[0] || {}).model || "unknown CPU";
console.log(`Measured ${new Date().toISOString().slice(0, 16)}Z on ${os.cpus().length} cores (${cpu.trim()}), ${f(os.totalmem() / 2 ** 30, 1)} GiB; load average before ${loadBefore}, after ${loadAfter} (\`uptime\`: ${uptime.trim()}).`);
const timer = clock === "hyperfine" ? `wall time from \`hyperfine -N\`, exec to exit, after ${process.env.WARMUP_RUNS} unmeasured runs` : "wall time from the shell's clock around `/usr/bin/time`, after one unmeasured run (3-4 ms high: no hyperfine)";
console.log(`Trellis: release CLI, whole process (start, read, parse, check, write, exit), median of ${runs} runs: ${timer}; peak RSS from \`/usr/bin/time\` (${runs} runs after one unmeasured run). Reference: \`bench-ilmek.mjs\` in process after one warm-up (parse, fromSpec, compile, toSpec, stringify; no process start, no file read), median of ${runs} runs.`);
console.log("");
console.log("| nodes | file | reference round trip (peak RSS) | command | Trellis median (min–max) | ratio | Trellis peak RSS | peak / file |");
console.log("|---|---|---|---|---|---|---|---|");
for (const n of sizes.split(/\s+/).filter(Boolean)) {
  const ref = JSON.parse(fs.readFileSync(`${results}/ilmek-${n}.json`, "utf8"));
  for (const cmd of ["fmt --check", "validate", "validate --format json"]) {
    const s = stat(`${cmd}/${n}`);
    if (!s) continue;
    console.log(`| ${f(Number(n))} | ${f(s.bytes / 1e6, 1)} MB | ${f(ref.median_ms, 1)} ms (${f(ref.time_v_max_rss_mb ?? ref.max_rss_mb)} MB) | \`${cmd}\` | ${f(s.ms, 1)} ms (${f(s.min, 1)}–${f(s.max, 1)}) | **${f(ref.median_ms / s.ms, 1)}x** | ${f(s.peakMB)} MB | ${f((s.peakMB * 2 ** 20) / s.bytes, 2)}x |`);
  }
}
const clean = stat("validate/10000"), many = stat("findings: validate/10000");
const cleanJ = stat("validate --format json/10000"), manyJ = stat("findings: validate --format json/10000");
if (clean && many) {
  const count = (file) => { try { return JSON.parse(fs.readFileSync(file, "utf8")).files[0].diagnostics.length; } catch { return NaN; } };
  const c0 = count(`${results}/clean.json`), c1 = count(`${results}/findings.json`);
  console.log("");
  console.log(`Findings, 10,000 nodes: ${f(c0)} findings as generated, ${f(c1)} with an unknown field in every node.`);
  console.log("");
  console.log("| output | as generated | with 10,000 more findings | difference |");
  console.log("|---|---|---|---|");
  console.log(`| human | ${f(clean.ms, 1)} ms | ${f(many.ms, 1)} ms | ${f(many.ms - clean.ms, 1)} ms |`);
  if (cleanJ && manyJ) console.log(`| \`--format json\` | ${f(cleanJ.ms, 1)} ms | ${f(manyJ.ms, 1)} ms | ${f(manyJ.ms - cleanJ.ms, 1)} ms |`);
}
EOF
