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

echo "== UI tests (Vitest)"
npm run test:ui --silent
APP_FEATURES=(--features trellis-app/e2e)

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked "${APP_FEATURES[@]}" -- -D warnings

echo "== doc tests"
cargo test --workspace --doc --locked -q "${APP_FEATURES[@]}"

echo "== Rust tests (nextest)"
cargo nextest run --workspace --locked --no-fail-fast "${APP_FEATURES[@]}"
