#!/usr/bin/env bash
# Runs the gallery: in a window when a display is available, else headless into out/.
set -euo pipefail
bin="$(swift build -c release --show-bin-path)/samples"
if [ -n "${DISPLAY:-}" ]; then
    # The gallery falls back to rendering PNGs into out/ when the display cannot be opened.
    exec "$bin"
else
    echo "run: no DISPLAY; rendering every scene headless into out/"
    exec "$bin" --headless out
fi
