#!/bin/sh
# After removing: the shared MIME database and the desktop's "Open With" cache forget
# Trellis's file types (Debian's triggers do the same; running both is
# harmless). The tools are optional: a system without them has no desktop to tell.
set -e
if command -v update-mime-database >/dev/null 2>&1; then
  update-mime-database /usr/share/mime || true
fi
if command -v update-desktop-database >/dev/null 2>&1; then
  update-desktop-database -q /usr/share/applications || true
fi
if command -v gtk-update-icon-cache >/dev/null 2>&1 && [ -f /usr/share/icons/hicolor/index.theme ]; then
  gtk-update-icon-cache -q -t -f /usr/share/icons/hicolor || true
fi
exit 0
