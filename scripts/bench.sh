#!/usr/bin/env bash
# Runs the benchmarks: first the peer renderers of ../shared/bench/peers (cairo, pixman, Skia,
# Blend2D; ROUNDS rounds, default 1) on a copy of that folder (it writes beside itself and the
# shared folder is read-only), then our release `bench`, which prints each scene's ratio to the
# fastest single-thread peer of this run. PEERS=0 skips the peers (ratios fall back to the
# recorded baseline). Usage: scripts/bench.sh BENCH_BINARY [scene filters…]
set -euo pipefail
bench="$1"; shift
peers_src="$(cd "$(dirname "$0")/.." && pwd)/../shared/bench/peers"
if [ "${PEERS:-1}" != "0" ] && [ -f "$peers_src/run.sh" ]; then
    work="${TMPDIR:-/tmp}/ca-peers"
    mkdir -p "$work"
    # Keep the peers' virtual environments between runs; refresh their sources.
    cp -r "$peers_src/src" "$peers_src/run.sh" "$peers_src/SCENES.md" "$work/"
    echo "bench: running the peers (ROUNDS=${ROUNDS:-1}) in $work"
    if (cd "$work" && ROUNDS="${ROUNDS:-1}" bash run.sh >"$work/run.log" 2>&1); then
        export PEERS_RESULTS="$work/out/results.tsv"
    else
        echo "bench: the peers did not run (see $work/run.log); ratios use the recorded baseline"
    fi
fi
exec "$bench" "$@"
