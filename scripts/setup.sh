#!/usr/bin/env bash
# Installs what the build and the tests need and is not there yet. A second run does nothing.
# Debian 12 packages (WebKitGTK for Tauri, Xvfb and WebKitWebDriver for the end-to-end tests),
# the npm dependencies, cargo-nextest and tauri-driver. Not root: prints the exact command to run.
set -euo pipefail
cd "$(dirname "$0")/.."

# --- Debian packages (see docs: toolchain) -------------------------------------------------
APT_PACKAGES=(
  libwebkit2gtk-4.1-dev build-essential curl wget file libxdo-dev libssl-dev
  libayatana-appindicator3-dev librsvg2-dev xvfb xauth x11-utils webkit2gtk-driver chromium imagemagick
  fonts-dejavu-core
  # The peer bench's clocks (scripts/peer-bench.sh, `npm run bench`): hyperfine for wall time
  # (without it the shell's clock, 3-4 ms high on a 10-15 ms command), /usr/bin/time for peak RSS.
  hyperfine time
  # The packages (npm run package, scripts/test.sh): the desktop entry checked, the MIME types
  # looked up as a desktop does (xdg-mime through gio), the .rpm read, the installed app's second
  # start finding the first on a session bus of the test's own.
  desktop-file-utils xdg-utils shared-mime-info libglib2.0-bin dbus-daemon rpm
)
missing=()
if command -v dpkg >/dev/null 2>&1; then
  for pkg in "${APT_PACKAGES[@]}"; do
    # `dpkg -s` also succeeds for removed-but-configured packages; check the status line.
    if ! dpkg -s "$pkg" 2>/dev/null | grep -q '^Status: install ok installed'; then
      missing+=("$pkg")
    fi
  done
fi
if ((${#missing[@]})); then
  install_cmd="apt-get update && apt-get install -y --no-install-recommends ${missing[*]}"
  if [[ $(id -u) -eq 0 ]]; then
    echo "setup: installing Debian packages: ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq --no-install-recommends "${missing[@]}"
  else
    echo "setup: missing Debian packages. Run as root, then run this again:" >&2
    echo "  sudo sh -c '$install_cmd'" >&2
    exit 1
  fi
fi

# --- Rust tools -----------------------------------------------------------------------------
if ! command -v cargo-nextest >/dev/null 2>&1; then
  cargo install cargo-nextest --locked
fi
# cargo-fuzz builds the fuzz targets (scripts/fuzz.sh) with the preinstalled nightly toolchain.
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  cargo install cargo-fuzz --locked --version 0.13.2
fi
if ! command -v tauri-driver >/dev/null 2>&1; then
  cargo install tauri-driver --locked --version 2.1.0
fi

# --- npm dependencies -----------------------------------------------------------------------
# `npm ci` deletes node_modules first, so run it only when the lock file changed since the last
# install (npm writes node_modules/.package-lock.json on every install).
npm_ci_if_stale() {
  local dir=$1
  [[ -f "$dir/package-lock.json" ]] || return 0
  local stamp="$dir/node_modules/.trellis-lock.sha256"
  local want
  want=$(sha256sum "$dir/package-lock.json" | cut -d' ' -f1)
  if [[ ! -f "$stamp" || "$(cat "$stamp")" != "$want" ]]; then
    echo "setup: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund)
    echo "$want" >"$stamp"
  fi
}
npm_ci_if_stale .
# The UI may be its own package (not an npm workspace of the root): install it too.
if [[ -f ui/package-lock.json ]]; then
  npm_ci_if_stale ui
fi
