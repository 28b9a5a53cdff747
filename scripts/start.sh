#!/usr/bin/env bash
# `npm start`: install what is missing, build the UI and the desktop app, and open it on the
# built-in example graph (or on the files given: `npm start -- path/to/graph.json`).
set -euo pipefail
cd "$(dirname "$0")/.."

# A desktop app needs a display. Say so at once, before minutes of building.
if [[ -z "${DISPLAY:-}" && -z "${WAYLAND_DISPLAY:-}" ]]; then
  echo "trellis: no display (neither DISPLAY nor WAYLAND_DISPLAY is set): the desktop app needs one; run it in a desktop session, or under Xvfb: xvfb-run -a npm start" >&2
  exit 1
fi

bash scripts/setup.sh

echo "== building the UI (ui/dist)"
npm run build --silent

# One cargo feature, `e2e`, turns on `tauri/custom-protocol` (the app serves ui/dist instead of
# the Vite dev server URL). `--all-targets` resolves features as `npm test` does (with the test
# dependencies), so the app binary here is the very one the end-to-end tests drive and the app
# benchmarks measure: one build of the Tauri stack for all three, not two. The profile is the dev
# one as Cargo.toml sets it (our crates at opt-level 1, every dependency fully optimised).
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}"
echo "== building the app (Cargo's dev profile: our crates at opt-level 1, dependencies optimised; the first build takes a few minutes)"
cargo build -p trellis-app --features e2e --all-targets --locked

echo "== starting Trellis"
exec "$CARGO_TARGET_DIR/debug/trellis-app" "$@"
