#!/usr/bin/env bash
# Regenerates the TypeScript types of what crosses IPC from the Rust types (ts-rs) into
# ui/src/bindings/: the desktop shell's (DocumentView, SaveAnswer, ...) and everything they use.
set -euo pipefail
cd "$(dirname "$0")/.."
export TS_RS_EXPORT_DIR="$PWD/ui/src/bindings"
# The same feature set as `npm test`, so this reuses its build.
cargo test -p trellis-app --features e2e --lib --locked -q export_bindings
echo "bindings written to ui/src/bindings/"
