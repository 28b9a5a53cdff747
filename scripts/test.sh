#!/usr/bin/env bash
# `npm test`: install what is missing, then run every test. The last lines are nextest's summary
# (CI reads them), so everything else runs before it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

# Cheap, so before the long builds: no module of a crate and no file of ui/src may import,
# directly or through others, one that imports it (scripts/import-cycles.mjs; its own test first).
echo "== import cycles (Rust modules, ui/src files)"
node --test --test-reporter=dot scripts/import-cycles.test.mjs
node scripts/import-cycles.mjs

# The desktop app embeds ui/dist (feature `trellis-app/e2e` = `tauri/custom-protocol`), and the
# end-to-end tests drive that build. Every cargo command below uses the same feature set, so
# the Tauri stack is built once (toolchain trap 9).
echo "== UI build (ui/dist)"
npm run build --silent

APP_FEATURES=(--features trellis-app/e2e)

# The TypeScript types of what crosses IPC are generated from the Rust types (ts-rs), and the
# UI tests run on documents and edit answers written by Rust tests (ui/src/test/fixtures).
# Export both again and fail when the committed ones are stale, then type-check the UI.
echo "== IPC types (ts-rs), Rust-made UI fixtures and the UI type check"
cargo test --workspace --lib --locked -q "${APP_FEATURES[@]}" -- export_bindings export_fixtures >/dev/null
GENERATED=(ui/src/bindings ui/src/test/fixtures)
if git rev-parse --git-dir >/dev/null 2>&1 &&
  { ! git diff --quiet -- "${GENERATED[@]}" || [[ -n $(git ls-files --others --exclude-standard "${GENERATED[@]}") ]]; }; then
  git --no-pager diff --stat -- "${GENERATED[@]}"
  git ls-files --others --exclude-standard "${GENERATED[@]}"
  echo "ui/src/bindings or ui/src/test/fixtures is stale: commit the regenerated files" >&2
  exit 1
fi
npm run typecheck --silent

echo "== UI lint and format (Biome; warnings are listed by npm run lint)"
(cd ui && npx biome check --diagnostic-level=error .)

echo "== UI tests (Vitest)"
npm run test:ui --silent

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked "${APP_FEATURES[@]}" -- -D warnings

echo "== fuzz targets (built, not run: npm run bench runs them)"
bash scripts/fuzz.sh build

echo "== doc tests"
cargo test --workspace --doc --locked -q "${APP_FEATURES[@]}"

# The installable packages, for the tests of what they hold and of the installed app
# (src-tauri/tests/installed; installing needs root, which CI has). A release build: several
# minutes when cold (docs/install.md).
echo "== packages (.deb, .rpm: npm run package)"
bash scripts/package.sh

echo "== Rust tests (nextest)"
# The app's measurements (src-tauri/tests/perf) are benchmarks, not tests: `npm run bench` runs
# them on a release build and writes docs/BENCHMARKS.md.
cargo nextest run --workspace --locked --no-fail-fast "${APP_FEATURES[@]}" -E 'not (package(trellis-app) & binary(perf))'
