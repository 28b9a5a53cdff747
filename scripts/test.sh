#!/usr/bin/env bash
# `npm test`: install what is missing, then run every test. The last lines are nextest's summary
# (CI reads them), so everything else runs before it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# The desktop app embeds ui/dist (feature `trellis-app/e2e` = `tauri/custom-protocol`), and the
# end-to-end tests drive that build. Every cargo command below uses the same feature set, so
# the Tauri stack is built once (toolchain trap 9).
echo "== UI build (ui/dist)"
npm run build --silent

APP_FEATURES=(--features trellis-app/e2e)

# The TypeScript types of what crosses IPC are generated from the Rust types (ts-rs). Export
# them again and fail when the committed ones are stale, then type-check the UI against them.
echo "== IPC types (ts-rs) and the UI type check"
cargo test --workspace --lib --locked -q "${APP_FEATURES[@]}" export_bindings >/dev/null
if git rev-parse --git-dir >/dev/null 2>&1 &&
  { ! git diff --quiet -- ui/src/bindings || [[ -n $(git ls-files --others --exclude-standard ui/src/bindings) ]]; }; then
  git --no-pager diff --stat -- ui/src/bindings
  git ls-files --others --exclude-standard ui/src/bindings
  echo "ui/src/bindings is stale: commit the regenerated files" >&2
  exit 1
fi
npm run typecheck --silent

echo "== UI tests (Vitest)"
npm run test:ui --silent

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked "${APP_FEATURES[@]}" -- -D warnings

echo "== fuzz targets (built, not run: npm run bench runs them)"
bash scripts/fuzz.sh build

echo "== doc tests"
cargo test --workspace --doc --locked -q "${APP_FEATURES[@]}"

echo "== Rust tests (nextest)"
# The app's measurements (src-tauri/tests/perf) are benchmarks, not tests: `npm run bench` runs
# them on a release build and writes docs/BENCHMARKS.md.
cargo nextest run --workspace --locked --no-fail-fast "${APP_FEATURES[@]}" -E 'not (package(trellis-app) & binary(perf))'
