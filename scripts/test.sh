#!/usr/bin/env bash
# `npm test`: install what is missing, then run every test. The last lines are nextest's summary
# (CI reads them), so everything else runs before it.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/setup.sh

echo "== cargo fmt / clippy"
cargo fmt --all -- --check
cargo clippy --workspace --all-targets --locked -- -D warnings

echo "== doc tests"
cargo test --workspace --doc --locked -q

echo "== Rust tests (nextest)"
cargo nextest run --workspace --locked --no-fail-fast
