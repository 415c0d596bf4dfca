#!/usr/bin/env bash
# Runs the benchmarks: first the peer renderers of ../shared/bench/peers (cairo, pixman, Skia,
# Blend2D; ROUNDS rounds, default 1) on a copy of that folder (it writes beside itself and the
# shared folder is read-only), then our release `bench`, which prints each scene's ratio to the
# fastest single-thread peer of this run. PEERS=0 skips the peers (ratios fall back to the
# recorded baseline). Then, the peers having run, S5 head to head: PAIRS times (default 5)
# Blend2D's single thread and our S5 re-rasterised one right after the other, each pair's
# ratio and their median (this host's speed comes in phases lasting seconds: a pair shares
# its phase, two passes minutes apart need not). PAIRS=0 skips it.
# Usage: scripts/bench.sh BENCH_BINARY [scene filters…]
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
# The live-window line runs under a private Xvfb (60 Hz vblanks through Present).
if command -v Xvfb >/dev/null; then
    display=":$((300 + $$ % 300))"
    Xvfb "$display" -screen 0 800x600x24 -nolisten tcp -noreset >/dev/null 2>&1 &
    xvfb_pid=$!
    trap 'kill $xvfb_pid 2>/dev/null || true' EXIT
    sleep 0.5
    DISPLAY="$display" "$bench" "$@"
else
    "$bench" "$@"
fi

blend2d="${TMPDIR:-/tmp}/ca-peers/build/blend2d_bench"
if [ -n "${PEERS_RESULTS:-}" ] && [ -x "$blend2d" ] && [ "${PAIRS:-5}" != "0" ]; then
    echo
    mkdir -p "${TMPDIR:-/tmp}/ca-peers/out-pairs"
    echo "S5 head to head, one right after the other (ms, median of 40 frames each):"
    ratios=()
    for i in $(seq "${PAIRS:-5}"); do
        theirs=$(PEERS_OUT="${TMPDIR:-/tmp}/ca-peers/out-pairs" PEERS_FRAMES=40 "$blend2d" 0 2>/dev/null | awk '$1 == "RESULT" && $3 == "S5" {print $4}')
        ours=$(PEERS_RESULTS= "$bench" "S5 stars, re" | sed -nE 's/^S5 stars, re.* ([0-9.]+) ms .*/\1/p')
        [ -n "$theirs" ] && [ -n "$ours" ] || continue
        ratio=$(awk -v a="$ours" -v b="$theirs" 'BEGIN { printf "%.2f", a / b }')
        ratios+=("$ratio")
        echo "  pair $i: ours $ours, Blend2D 1T $theirs: ${ratio}×"
    done
    if [ "${#ratios[@]}" -gt 0 ]; then
        median=$(printf '%s\n' "${ratios[@]}" | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }')
        echo "  median ratio ${median}× over ${#ratios[@]} pairs"
    fi
fi
