#!/usr/bin/env bash
# Installs the Debian packages given as arguments when any is missing.
# Idempotent and fast: one dpkg-query when everything is present.
set -euo pipefail
missing=()
for pkg in "$@"; do
    if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$pkg")
    fi
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$(id -u)" -eq 0 ]; then
    echo "deps: installing ${missing[*]}"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq "${missing[@]}" >/dev/null 2>&1 || {
        apt-get update -qq >/dev/null
        apt-get install -y -qq "${missing[@]}" >/dev/null
    }
else
    echo "deps: missing Debian packages. Run:"
    echo "  sudo apt-get install -y ${missing[*]}"
    exit 1
fi
