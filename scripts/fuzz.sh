#!/bin/sh
# Runs each fuzz target under libFuzzer for $2 seconds (FUZZ_SECONDS) and prints how many inputs
# each ran. New interesting inputs collect in .fuzz/TARGET (not checked in: `make fuzz-merge`
# style minimising is done by hand with -merge=1 into Fuzz/Corpus/TARGET); crashes, leaks and
# timeouts are written to failures/fuzz/ and fail the run.
# FUZZ_LEAKS=0 skips libFuzzer's leak check after each input that allocated more than it freed
# (caches make that most inputs), which is most of a run's time under LeakSanitizer; leaks are
# still reported when the run ends, and `make asan` checks the tests for them.
# FUZZ_RUNS stops each target after that many inputs instead of after SECONDS.
# usage: scripts/fuzz.sh BINARY SECONDS TARGET...
set -u
bin=$1; seconds=$2; shift 2
mkdir -p failures/fuzz
status=0
for t in "$@"; do
    mkdir -p ".fuzz/$t"
    log="failures/fuzz/$t.log"
    FUZZ_TARGET="$t" SWIFT_BACKTRACE=enable=no LSAN_OPTIONS="suppressions=Fuzz/lsan.supp:print_suppressions=0" "$bin" -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -detect_leaks="${FUZZ_LEAKS:-1}" -timeout=30 -rss_limit_mb=3072 -max_len=4096 \
        -artifact_prefix="failures/fuzz/$t-" -print_final_stats=1 \
        ".fuzz/$t" "Fuzz/Corpus/$t" "Tests/FuzzTargetsTests/Regressions/$t" > "$log" 2>&1
    rc=$?
    counters=$(sed -n 's/^INFO: Loaded 1 modules *(\([0-9]*\) inline.*/\1/p' "$log" | head -1)
    if [ "${counters:-0}" -lt 1000 ]; then echo "fuzz $t: only ${counters:-0} coverage counters: the build is not instrumented"; status=1; fi
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    if [ $rc -eq 0 ]; then
        echo "fuzz $t: ${runs:-?} inputs in ${seconds} s, no failure"
    else
        echo "fuzz $t: FAILED after ${runs:-?} inputs (exit $rc); see $log and failures/fuzz/$t-*"
        status=1
    fi
done
exit $status
