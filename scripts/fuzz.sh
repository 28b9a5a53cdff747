#!/usr/bin/env bash
# The fuzz targets (fuzz/fuzz_targets, one per parser): `build` compiles them all (npm test does,
# so a target that no longer compiles fails CI); `run SECONDS` runs each for that long from seeds
# taken from the fixtures and the corpus (npm run bench does, 60 s each). Needs the nightly
# toolchain (preinstalled on this machine kind) and cargo-fuzz (scripts/setup.sh installs it).
set -euo pipefail
cd "$(dirname "$0")/.."

TARGETS=(spec_pipeline reader_oracle weaveflow_read graphmd_read registry_manifest layout_sidecar runs_read)

# Seeds: copied (not linked) into fuzz/corpus/<target>, which is ignored by Git.
seed() {
  local target=$1 dir="fuzz/corpus/$1"
  mkdir -p "$dir"
  case $target in
    spec_pipeline | reader_oracle) cp crates/spec/tests/fixtures/{valid,invalid}/*.json ../shared/corpus/ilmek/docs/*.json "$dir"/ 2>/dev/null || true ;;
    weaveflow_read) cp ../shared/corpus/weaveflow/*.json "$dir"/ 2>/dev/null || true ;;
    graphmd_read) find ../shared/corpus/graphmd crates/formats/tests -name '*.md' -exec cp {} "$dir"/ \; 2>/dev/null || true ;;
    registry_manifest) cp crates/spec/tests/fixtures/registry/{valid,invalid}/*.json "$dir"/ 2>/dev/null || true ;;
    runs_read) find crates/runs/tests/fixtures -type f ! -name '*.snap' -exec cp {} "$dir"/ \; 2>/dev/null || true ;;
    layout_sidecar) printf '{"version":1,"positions":{"a":{"x":1,"y":2}},"viewport":{"x":0,"y":0,"zoom":1}}\n' >"$dir/seed.json" ;;
  esac
}

case "${1:-}" in
  build)
    # --dev: the targets' code is type-checked and linked with libFuzzer, without optimising.
    (cd fuzz && cargo +nightly fuzz build --dev)
    ;;
  run)
    seconds=${2:-60}
    failed=()
    for t in "${TARGETS[@]}"; do
      seed "$t"
      echo "== fuzz $t for ${seconds}s"
      # A crash is printed (with the input libFuzzer saved under fuzz/artifacts) and ends the
      # run with a failure after the other targets have had their turn.
      if ! (cd fuzz && cargo +nightly fuzz run "$t" "corpus/$t" -- -max_total_time="$seconds" -print_final_stats=1 >"/tmp/fuzz-$t.log" 2>&1); then
        tail -n 40 "/tmp/fuzz-$t.log"
        failed+=("$t")
      fi
      grep -E 'stat::number_of_executed_units' "/tmp/fuzz-$t.log" || true
    done
    if ((${#failed[@]})); then
      echo "fuzz: crashes in ${failed[*]}" >&2
      exit 1
    fi
    ;;
  *)
    echo "usage: scripts/fuzz.sh build | run [SECONDS]" >&2
    exit 2
    ;;
esac
