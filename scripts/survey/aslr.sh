#!/bin/bash
# The workloads again with user address-space randomization off, for the
# rows whose workloads the report judges (benchmarks/bootprof/workloads.txt:
# the workloads targets' rows and their baselines): results/aslr.csv,
# make bench's perf.csv lines of those rows as benchmarks/run.sh measures
# them with "norandmaps" added to every boot's kernel arguments
# (HARNESS_ARGS, recorded in the harness_args column), icount runs only.
#
# Why: under -icount a boot replays exactly, so the guest's randomness,
# and with it where make bench's workloads place their stacks, heaps and
# other mappings, is a function of the kernel binary and of the trajectory's
# timing: each row samples as many placements as it has trajectories,
# each kernel its own, and a process whose mappings straddle one more
# page-table boundary allocates and clears one more page-table page.
# With norandmaps every kernel places them alike, and what two kernels
# running the same code (off and off-fork) still differ by is the rest:
# code layout and the paths the scheduler takes.  The report (aslr.md)
# sets these figures beside make bench's and judges the workloads targets
# on them too.
#
# A row whose lines in results/aslr.csv were measured on its present
# inputs (row_inputs) is kept; the others are measured in $BUILD/aslr/bench
# and replace their lines.  'make aslr', part of 'make results'; it sits
# with the survey's scripts, outside the files whose change marks make
# bench's rows stale (measure_files), as nothing those rows record comes
# from it.  Environment: STEP_JOBS (guests at once, as make bench), FULL=1
# (measure every row again).  It keeps its own list of current rows,
# and benchmarks/run.sh's measure() the build lock: a measure() step of
# its own would take the lock run.sh then waits for.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$TOP/benchmarks/lib.sh"

out=$TOP/results/aslr.csv
work=$BUILD/aslr
rows=$(awk '!/^[ \t]*(#|$)/ { print $1 }' "$TOP/benchmarks/bootprof/workloads.txt")
[ -n "$rows" ] || die "benchmarks/bootprof/workloads.txt names no row"

# stale_rows: the rows whose lines in $out are missing or were measured on
# other inputs (every row with FULL=1).
stale_rows() {
	local r
	for r in $rows; do
		if [ "${FULL:-0}" = 1 ] || [ ! -f "$out" ] ||
			! python3 "$TOP/scripts/survey/aslr.py" current "$out" "$r" "$(row_inputs "$r")"; then
			echo "$r"
		fi
	done
}
todo=$(stale_rows | xargs)
if [ -z "$todo" ]; then
	log "aslr: every row of $out is measured on its present inputs (FULL=1 measures again)"
	exit 0
fi
log "aslr: measuring with norandmaps: $todo"

# The rows, their peers and baselines all among them: a matrix of their
# lines alone, which benchmarks/run.sh reads as it reads the whole one
# (row_inputs takes a row's own line, so the inputs are the same).
mkdir -p "$work"
awk 'NR == FNR { want[$1] = 1; next } /^[ \t]*(#|$)/ || want[$1]' \
	<(printf '%s\n' $rows) "$TOP/benchmarks/matrix.txt" >"$work/matrix.txt"
# One memory size, no plain-TCG boots nor cache model: only the perf
# phase's icount runs are kept.  The microbenchmark runs after the
# workloads in each boot, so its smaller loops leave their figures as
# they are.
MATRIX=$work/matrix.txt RESULTS=$work/bench ROWS=$todo \
	HARNESS_ARGS="nolapic_timer norandmaps" MEMS=1G TCG_BOOTS=0 NO_CACHESIM=1 \
	MICRO_N=1000 WS_N=1024 CACHE_N=100 \
	"$TOP/benchmarks/run.sh" || die "aslr: benchmarks/run.sh failed"
python3 "$TOP/scripts/survey/aslr.py" merge "$out" "$work/bench/perf.csv" $todo
log "aslr: wrote $out; 'make report' writes results/aslr.md"
