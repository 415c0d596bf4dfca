#!/usr/bin/env bash
# Runs the gallery: in a window when a display is available, else headless into out/.
set -euo pipefail
bin="$(swift build -c release --show-bin-path)/samples"
if [ -n "${DISPLAY:-}" ]; then
    exec "$bin"
else
    echo "run: no DISPLAY; rendering headless into out/"
    mkdir -p out
    exec "$bin" --headless out
fi
