#!/usr/bin/env bash
# `npm run bench`: every figure, then the whole of docs/BENCHMARKS.md (scripts/bench-report.mjs).
#
#   1. core (criterion, crates/bench/benches/document.rs): open, save (whole pipeline with the
#      atomic write into a temp dir) at 1,000 / 10,000 / 100,000 nodes, an edit + revalidation
#      on 10,000 nodes; and the spec helper's pipeline bench (crates/spec/benches/pipeline.rs);
#   2. the app users run, the `npm start` build (Cargo's dev profile: our crates at opt-level 1,
#      dependencies optimised; feature e2e = embedded UI), under Xvfb through the e2e harness
#      (src-tauri/tests/perf): open, pan/zoom frame times vs the plain React Flow baseline page
#      at 1,000 / 3,000 / 5,000 nodes (and an empty document for the memory floor), edit to
#      screen, memory per process, start to first frame; the 5,000 figures again with
#      WEBKIT_DISABLE_COMPOSITING_MODE=1 and with WebKit's compositing kept on (=0; the app turns
#      it off itself when there is no GPU, src-tauri/src/webkit_env.rs); the open of
#      100,000 nodes (open + memory only, given up after BENCH_SCALE_LIMIT seconds);
#   3. the release binary's size (the installable package's binary: `tauri build`);
#   4. the automatic layout: time at 1,000 / 10,000 / 100,000 nodes (criterion,
#      crates/layout/benches/layout.rs) and readability beside ELK layered on the corpus, the
#      layout fixtures and the peer harness's specs (crates/bench/examples/layout_quality.rs:
#      the table is printed and written to target/bench/layout-quality.md and .json).
#
# Environment: BENCH_SIZES (default 1000,3000,5000), BENCH_SCALE (default 100000; empty: none),
# BENCH_SCALE_LIMIT (seconds, default 600), BENCH_SKIP_CORE=1, BENCH_SKIP_APP=1,
# BENCH_SKIP_UI_BUILD=1 (ui/dist already built), BENCH_SKIP_FUZZ=1, BENCH_SKIP_LAYOUT=1,
# BENCH_SKIP_PACKAGE=1 (no packages, no installed-app start),
# TRELLIS_SHARED (the shared folder with corpus/ and peer-bench/, default ../shared), BENCH_REAL_SIZES (files
# without a layout sidecar, default 1000,10000,100000), BENCH_ELK_LIMIT (s, default 300: the elkjs baseline is
# given up after it), BENCH_ONLY_REAL=1 (of the app figures, only the real files), BENCH_FUZZ_SECONDS (default 60
# per fuzz target, scripts/fuzz.sh), CARGO_TARGET_DIR (default ./target), ILMEK_GIT_DIR (a Git
# directory of AimTune/ilmek: the CLI beside the reference, scripts/peer-bench.sh), BENCH_SKIP_PEER=1.
# Takes about 25 minutes on 2 cores (the release build is about 3 of them when cold).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"
export CARGO_TARGET_DIR="$TARGET"
OUT="$TARGET/bench"
mkdir -p "$OUT"
SIZES="${BENCH_SIZES:-1000,3000,5000}"
# The scale figure (open + memory only); BENCH_SCALE= (empty) leaves it out.
SCALE="${BENCH_SCALE-100000}"
SCALE_LIMIT="${BENCH_SCALE_LIMIT:-600}"
REAL_SIZES="${BENCH_REAL_SIZES:-1000,10000,100000}"
STAMP="$(date -u +%Y-%m-%dT%H:%MZ)"

machine_json() {
  local mem webkit cpu
  mem=$(awk '/MemTotal/ {printf "%.1f GiB", $2/1048576}' /proc/meminfo)
  webkit=$(pkg-config --modversion webkit2gtk-4.1 2>/dev/null || dpkg-query -W -f '${Version}' libwebkit2gtk-4.1-0 2>/dev/null || echo unknown)
  cpu=$(awk -F: '/model name/ {gsub(/^ +/, "", $2); print $2; exit}' /proc/cpuinfo)
  local commit
  commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
  git diff --quiet HEAD 2>/dev/null || commit="$commit with uncommitted changes"
  printf '{"nproc": %s, "memory": "%s", "cpu": "%s", "webkitgtk": "%s", "kernel": "%s", "rustc": "%s", "date": "%s", "commit": "%s"}\n' \
    "$(nproc)" "$mem" "$cpu" "$webkit" "$(uname -r)" "$(rustc --version)" "$STAMP" "$commit"
}
machine_json >"$OUT/machine.json"
echo "== machine: $(cat "$OUT/machine.json")"

if [[ "${BENCH_SKIP_CORE:-}" != 1 ]]; then
  echo "== core benches (criterion); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  cut -d' ' -f1-3 /proc/loadavg >"$OUT/core-load-before.txt"
  # The release profile (not `bench`, which adds debug info): reuses the app's release build.
  cargo bench --profile release -p trellis-bench --bench document
  cargo bench --profile release -p trellis-spec --bench pipeline
  cut -d' ' -f1-3 /proc/loadavg >"$OUT/core-load-after.txt"
fi

if [[ "${BENCH_SKIP_LAYOUT:-}" != 1 ]]; then
  # The automatic layout: its time at 1,000 / 10,000 / 100,000 nodes (criterion), and how
  # readable it is beside ELK's layered algorithm on real graphs (the corpus with its
  # third-party documents, the layout fixtures, the peer harness's generated specs).
  echo "== layout: time (criterion) and readability against ELK layered"
  cargo bench --profile release -p trellis-layout --bench layout
  SHARED="${TRELLIS_SHARED:-../shared}"
  mkdir -p "$OUT/layout-specs"
  for n in 1000 10000; do
    node "$SHARED/peer-bench/gen-spec.mjs" "$n" "$OUT/layout-specs/peer-$n.json" >/dev/null
  done
  cargo run --profile release -q -p trellis-bench --example layout_quality -- \
    --elk --elk-limit "${BENCH_ELK_LIMIT:-300}" --out "$OUT" \
    "$SHARED/corpus" crates/layout/fixtures "$OUT/layout-specs" ||
    echo "bench: the layout comparison failed (see above); its table is left out" >&2
fi

if [[ "${BENCH_SKIP_PEER:-}" != 1 ]]; then
  # The CLI beside the reference TypeScript round trip, same files, same run; its table is kept
  # as peer.md for the page.
  rm -f "$OUT/peer.md"
  if [[ -n "${ILMEK_GIT_DIR:-}" || -f "$TARGET/peer/ilmek/ts/packages/core/src/spec.ts" ]]; then
    echo "== the CLI beside the reference TypeScript round trip (scripts/peer-bench.sh)"
    if PEER_ROOT="$TARGET/peer" bash scripts/peer-bench.sh; then
      cp "$TARGET/peer/results/table.md" "$OUT/peer.md"
    else
      echo "bench: the peer comparison failed (see above); its table is left out" >&2
    fi
  else
    echo "bench: no reference checkout: set ILMEK_GIT_DIR to a Git directory of AimTune/ilmek to compare the CLI with the reference TypeScript round trip (left out)" >&2
  fi
fi

if [[ "${BENCH_SKIP_APP:-}" != 1 ]]; then
  if [[ "${BENCH_SKIP_UI_BUILD:-}" != 1 ]]; then
    echo "== UI build (ui/dist, embedded in the binary)"
    npm run build --silent
  fi
  echo "== release build of the app (its size only: the figures below are taken on the npm start build)"
  cargo build --release -p trellis-app --features e2e
  BIN="$TARGET/release/trellis-app"
  strip -o "$OUT/trellis-app.stripped" "$BIN"
  printf '{"kind": "binary", "path": "%s", "bytes": %s, "stripped_bytes": %s}\n' \
    "$BIN" "$(stat -c %s "$BIN")" "$(stat -c %s "$OUT/trellis-app.stripped")" >"$OUT/binary.json"
  rm -f "$OUT/trellis-app.stripped"

  # The build `npm start` runs (scripts/start.sh): the same profile and features, so the app the
  # figures are taken on is the one users run.
  echo "== the npm start build of the app"
  cargo build -p trellis-app --features e2e --all-targets --locked
  PERF=(cargo test -p trellis-app --features e2e --test perf -- --test-threads=1 --nocapture)
  rm -f "$OUT/app-real.jsonl" "$OUT/app-real.status"
  echo "== files without a sidecar ($REAL_SIZES nodes, project types) against React Flow + elkjs"
  start=$(date +%s)
  if ! TRELLIS_BENCH_REAL_SIZES="$REAL_SIZES" TRELLIS_BENCH_OUT="$OUT/app-real.jsonl" \
    TRELLIS_BENCH_OPEN_LIMIT_S="$SCALE_LIMIT" TRELLIS_BENCH_ELK_LIMIT_S="${BENCH_ELK_LIMIT:-300}" \
    timeout "$((3 * SCALE_LIMIT + 900))" "${PERF[@]}" real_files; then
    printf '{"nodes": "%s", "reason": "the run failed or did not finish: it stopped after %s s (load %s); see the bench log"}\n' \
      "$REAL_SIZES" "$(($(date +%s) - start))" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/app-real.status"
  fi
fi

if [[ "${BENCH_SKIP_APP:-}" != 1 && "${BENCH_ONLY_REAL:-}" != 1 ]]; then
  echo "== app measurements (sizes $SIZES); load average $(cut -d' ' -f1-3 /proc/loadavg)"
  rm -f "$OUT/app.jsonl" "$OUT/app-nocompositing.jsonl" "$OUT/app-compositing.jsonl" "$OUT/app-scale.status"
  # One test at a time: the figures must not share the two cores with each other.
  TRELLIS_BENCH_SIZES="$SIZES" TRELLIS_BENCH_OUT="$OUT/app.jsonl" "${PERF[@]}" --skip real_files
  echo "== 5,000 nodes with WEBKIT_DISABLE_COMPOSITING_MODE=1, then with WebKit's compositing kept on"
  WEBKIT_DISABLE_COMPOSITING_MODE=1 TRELLIS_BENCH_SIZES=5000 TRELLIS_BENCH_OUT="$OUT/app-nocompositing.jsonl" \
    "${PERF[@]}" canvas_figures || echo "bench: the run with WEBKIT_DISABLE_COMPOSITING_MODE=1 failed (its table is left out)" >&2
  WEBKIT_DISABLE_COMPOSITING_MODE=0 TRELLIS_BENCH_SIZES=5000 TRELLIS_BENCH_OUT="$OUT/app-compositing.jsonl" \
    "${PERF[@]}" canvas_figures || echo "bench: the run with compositing on failed (its table is left out)" >&2
  if [[ -n "$SCALE" ]]; then
    echo "== $SCALE nodes: open and memory only (given up after ${SCALE_LIMIT}s)"
    start=$(date +%s)
    # The test gives up itself after the limit (and stops the app); `timeout` is the last resort.
    if ! TRELLIS_BENCH_SIZES="$SCALE" TRELLIS_BENCH_OUT="$OUT/app.jsonl" TRELLIS_BENCH_OPEN_LIMIT_S="$SCALE_LIMIT" \
      timeout "$((SCALE_LIMIT + 300))" "${PERF[@]}" canvas_figures; then
      printf '{"nodes": %s, "reason": "the run failed or did not finish: it stopped after %s s (open limit %s s, load %s); see the bench log"}\n' \
        "$SCALE" "$(($(date +%s) - start))" "$SCALE_LIMIT" "$(cut -d' ' -f1-3 /proc/loadavg)" >"$OUT/app-scale.status"
    fi
  fi
fi

if [[ "${BENCH_SKIP_APP:-}" != 1 && "${BENCH_SKIP_PACKAGE:-}" != 1 ]]; then
  # The packages' sizes, and the installed package's app from its start to a usable
  # window (the first drawn frame), as shipped. Installing needs root; without it the start is
  # not measured and the report says so.
  echo "== the packages (npm run package) and the installed app's start"
  rm -f "$OUT/packages.jsonl" "$OUT/app-package.jsonl" "$OUT/app-package.status"
  bash scripts/package.sh
  for f in "$TARGET"/release/bundle/deb/*.deb "$TARGET"/release/bundle/rpm/*.rpm; do
    printf '{"kind": "package", "file": "%s", "bytes": %s}\n' "$(basename "$f")" "$(stat -c %s "$f")" >>"$OUT/packages.jsonl"
  done
  if [[ $(id -u) -eq 0 ]]; then
    was_installed=$(dpkg-query --show --showformat='${Status}' trellis 2>/dev/null || true)
    dpkg --install "$TARGET"/release/bundle/deb/*.deb >/dev/null
    TRELLIS_BENCH_APP=/usr/bin/trellis-app TRELLIS_BENCH_OUT="$OUT/app-package.jsonl" "${PERF[@]}" start_to_first_drawn_frame ||
      echo '{"reason": "the run failed; see the bench log"}' >"$OUT/app-package.status"
    if [[ "$was_installed" != "install ok installed" ]]; then dpkg --remove trellis >/dev/null; fi
  else
    echo '{"reason": "not measured: installing the .deb needs root"}' >"$OUT/app-package.status"
  fi
fi

if [[ "${BENCH_SKIP_FUZZ:-}" != 1 ]]; then
  # Not a figure: every parser's fuzz target gets a run of its own (BENCH_FUZZ_SECONDS each) on
  # the quiet machine a bench run has. A crash is printed and fails the run at the end.
  echo "== fuzz targets, ${BENCH_FUZZ_SECONDS:-60} s each"
  bash scripts/fuzz.sh run "${BENCH_FUZZ_SECONDS:-60}" || fuzz_failed=1
  printf '{"seconds": %s, "failed": [%s]}\n' "${BENCH_FUZZ_SECONDS:-60}" \
    "${fuzz_failed:+\"one or more targets, named in the bench log\"}" >"$OUT/fuzz.json"
fi

echo "== docs/BENCHMARKS.md"
node scripts/bench-report.mjs "$OUT" docs/BENCHMARKS.md
if [[ -n "${fuzz_failed:-}" ]]; then
  echo "bench: a fuzz target crashed (see above; the input is under fuzz/artifacts)" >&2
  exit 1
fi
