#!/bin/bash
# measure() (benchmarks/lib.sh), the driver every measuring step shares,
# on a step of its own whose units are CASE/ROW and whose measurement is a
# line in a file: it measures what results/ lacks and keeps the rest,
# measures again with FULL=1, only the rows of ROWS, a row whose matrix
# line changed, and, units side by side, stops at a failed one and keeps
# those that finished.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export BUILD=$tmp/build RESULTS=$tmp/results MATRIX=$tmp/matrix.txt NO_BUILD=1
mkdir -p "$RESULTS"
matrix() { # ARGS-OF-ROW-c
	cat >"$MATRIX" <<M
a	fork-bench	flags	1	-	off-fork	-	-
b	fork-bench	flags	0	-	off-fork	-	sysctl.vm.mem_profiling=0
c	off-fork	none	-	-	-	-	$1
M
}
matrix -
cat >"$tmp/step.sh" <<'S'
#!/bin/bash
set -eu
. "$TOP/scripts/lib.sh"
. "$TOP/benchmarks/lib.sh"
# No kernel boots here: nothing to build for one.
bench_bins() { :; }
run_stamp() { commit=test qemu=none; }
step_units() { local c r; for c in one two; do for r in a b c; do echo "$c/$r"; done; done; }
step_current() { grep -qsx "$1 $2" "$RESULTS/done"; }
step_measure() {
	[ "$row" != "${FAIL_ROW:-}" ] || { sleep 0.5; die "$unit fails"; }
	echo "$unit $inputs" >>"$RESULTS/done"
	echo "$unit" >>"$RESULTS/order"
}
STEP_JOBS=${JOBS:-1}
measure toy
S
step() { TOP=$top bash "$tmp/step.sh" 2>"$tmp/log"; }
fail() { cat "$tmp/log"; echo "$*"; exit 1; }
runs() { grep -c . "$RESULTS/order" 2>/dev/null || echo 0; }

step || fail "the first run failed"
[ "$(runs)" = 6 ] || fail "the first run measured $(runs) units, not 6"
[ "$(head -2 "$RESULTS/order" | xargs)" = "one/a one/b" ] || fail "units out of order"
grep -q '\[1/6\] one/a: kernel fork-bench, no extra arguments' "$tmp/log" ||
	fail "no progress line for the first unit"
step || fail "the second run failed"
[ "$(runs)" = 6 ] || fail "a unit measured on its present inputs was measured again"
grep -q 'everything is measured on its present inputs' "$tmp/log" || fail "the run did not say why it did nothing"
FULL=1 step || fail "FULL=1 failed"
[ "$(runs)" = 12 ] || fail "FULL=1 measured $(($(runs) - 6)) units, not 6"
ROWS=b step || fail "ROWS=b failed"
[ "$(tail -2 "$RESULTS/order" | xargs)" = "one/b two/b" ] || fail "ROWS=b did not measure b's units alone"
! ROWS=nosuch step || fail "ROWS=nosuch did not fail"
grep -q "ROWS: no row 'nosuch'" "$tmp/log" || fail "ROWS=nosuch did not name the row"
# Row c's line changes: its units' inputs do, and only theirs.
matrix nolapic
: >"$RESULTS/order"
step || fail "the run after a matrix change failed"
[ "$(xargs <"$RESULTS/order")" = "one/c two/c" ] || fail "a matrix change measured $(xargs <"$RESULTS/order")"
# Two at a time, b failing: the run fails, naming it; a's units are kept.
: >"$RESULTS/order"
! FULL=1 JOBS=2 FAIL_ROW=b step || fail "a failed unit did not fail the run"
grep -q 'one/b fails' "$tmp/log" && grep -q 'toy: a unit failed' "$tmp/log" ||
	fail "the failure was not reported"
grep -qx one/a "$RESULTS/order" || fail "the unit finished beside the failed one was lost"
echo "measure: keeps current units, FULL, ROWS, matrix changes, a failed unit stops the run"
