#!/usr/bin/env bash
# Installs what the build and the tests need and is not there yet. A second run does nothing.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v cargo-nextest >/dev/null 2>&1; then
  cargo install cargo-nextest --locked
fi
