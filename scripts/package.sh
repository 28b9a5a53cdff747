#!/usr/bin/env bash
# `npm run package`: the installable packages, `.deb` and `.rpm`, built with the Tauri bundler
# (src-tauri/tauri.conf.json, "bundle"; the desktop entry, MIME types and install scripts are in
# src-tauri/packaging/). Nothing is downloaded: the bundle targets are deb and rpm only (AppImage
# would fetch its tools). Each package holds the app (/usr/bin/trellis-app), the command line
# (/usr/bin/trellis), the desktop entry, the icons, the MIME types and the licence.
# Writes target/release/bundle/{deb,rpm}/ and prints the two paths and sizes.
set -euo pipefail
cd "$(dirname "$0")/.."

TARGET="${CARGO_TARGET_DIR:-$PWD/target}"

echo "== package: UI build (ui/dist, embedded in the app)"
npm run build --silent

echo "== package: the command line, release build (target/release/trellis)"
cargo build --release --locked -p trellis-cli

echo "== package: the app, release build, and the .deb and .rpm"
# Older packages would be listed beside the new ones.
rm -rf "$TARGET/release/bundle/deb" "$TARGET/release/bundle/rpm"
npx tauri build --ci --bundles deb,rpm -- --locked

for f in "$TARGET"/release/bundle/deb/*.deb "$TARGET"/release/bundle/rpm/*.rpm; do
  printf '%s  %s bytes (%s MiB)\n' "$f" "$(stat -c %s "$f")" "$(awk -v b="$(stat -c %s "$f")" 'BEGIN {printf "%.1f", b / 1048576}')"
done
