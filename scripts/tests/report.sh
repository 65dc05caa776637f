#!/bin/bash
# The report's data module, matrix reader and target judging on a small
# fixture (benchmarks/report/tests/), and the shell matrix reader
# (benchmarks/lib.sh) on the same matrix.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
python3 -m unittest discover -s benchmarks/report/tests -t . 2>&1

export MATRIX=$top/benchmarks/report/tests/matrix.txt
. scripts/lib.sh
. benchmarks/lib.sh
fail=0
want() { # want WHAT GOT EXPECTED
	[ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', want '$3'"; fail=1; }
}
want "pairs" "$(matrix_pairs | tr '\n' ' ')" "fork-a:stock-a fork-b:stock-a "
want "no qemu options" "$(row_qemu fork-other)" ""
sed 's/^\(fork-other .*\)$/\1 qemu.numa=2/' "$MATRIX" >"${TMPDIR:-/tmp}/numa-matrix.$$"
want "qemu.numa=2" \
	"$(MATRIX=${TMPDIR:-/tmp}/numa-matrix.$$ && . benchmarks/lib.sh && row_qemu fork-other)" "-N 2"
rm -f "${TMPDIR:-/tmp}/numa-matrix.$$"
want "kernel" "$(matrix_field fork-other kernel)" "fork-other"
want "args" "$(matrix_field fork-other args)" "a=1 b=2"
want "no args" "$(matrix_field off args)" "-"
want "no role" "$(matrix_field fork-a role)" "-"
if (matrix_field nope kernel) 2>/dev/null; then echo "FAIL: an unknown row was found"; fail=1; fi
printf 'off off none -\n' >"${TMPDIR:-/tmp}/bad-matrix.$$"
if (MATRIX=${TMPDIR:-/tmp}/bad-matrix.$$ && . benchmarks/lib.sh) 2>/dev/null; then
	echo "FAIL: a row of 4 columns was accepted"; fail=1
fi
rm -f "${TMPDIR:-/tmp}/bad-matrix.$$"

# Per-row inputs, on the real matrix and series: stable; a row's own
# arguments count; a stock kernel's ignore the series but for alloctop (in
# every measured initramfs); a fork kernel's take the tree of the posting
# it stands at (kernel/patches/trees), so that patches cut or worded
# otherwise change nothing, a later posting's tree leaves an earlier
# one's rows alone, and a tree missing from the file fails.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(
	MATRIX=$top/benchmarks/matrix.txt
	. benchmarks/lib.sh
	f=$(row_inputs fork-flags)
	want "row_inputs stable" "$(row_inputs fork-flags)" "$f"
	[ "$(row_inputs fork-disabled)" != "$f" ] || echo "FAIL: row_inputs: two rows' arguments, one hash"
	cp kernel/patches/* "$tmp"/
	s=$(kernel_inputs stock-bench) k=$(kernel_inputs fork-bench) x=$(kernel_inputs stock-fixes-bench)
	p=$(grep -L '^diff --git a/tools/mm/alloctop.c' "$tmp"/*.patch | tail -1)
	sed -i '0,/^+/s/^+/+ /' "$p"
	sed -i '0,/^Subject: /s/^Subject: /Subject: reworded /' "$p"
	want "stock kernel, a patch changed" "$(PATCHES=$tmp kernel_inputs stock-bench)" "$s"
	want "fork kernel, a patch changed, its trees not" "$(PATCHES=$tmp kernel_inputs fork-bench)" "$k"
	last=$(postings | tail -1)
	sed -i "s/^$last [0-9a-f]*/$last 0123456789abcdef0123456789abcdef01234567/" "$tmp/trees"
	[ "$(PATCHES=$tmp kernel_inputs fork-bench)" != "$k" ] ||
		echo "FAIL: kernel_inputs: the series' last tree changed, the fork's inputs did not"
	want "fixes kernel, a later posting's tree changed" "$(PATCHES=$tmp kernel_inputs stock-fixes-bench)" "$x"
	want "stock kernel, the trees changed" "$(PATCHES=$tmp kernel_inputs stock-bench)" "$s"
	p=$(grep -l '^diff --git a/tools/mm/alloctop.c' "$tmp"/*.patch | tail -1)
	awk '/^diff --git / { a = ($3 == "a/tools/mm/alloctop.c") } a && /^\+/ && !d { $0 = $0 " "; d = 1 } 1' \
		"$p" >"$tmp/x" && mv "$tmp/x" "$p"
	[ "$(PATCHES=$tmp kernel_inputs stock-bench)" != "$s" ] ||
		echo "FAIL: kernel_inputs: alloctop changed, a stock kernel's inputs did not"
	sed -i "/^$last /d" "$tmp/trees"
	if (trees_recorded "$tmp") 2>/dev/null; then
		echo "FAIL: trees_recorded: a posting without a recorded tree passed"
	fi
) | tee "$tmp/out"
grep -q FAIL "$tmp/out" && fail=1

# benchmarks/csvrows.py: a row is current only on its own inputs, whole;
# merging replaces one row's lines and keeps the others'.
h=date,commit,inputs,row,x
mkdir -p "$tmp/res" "$tmp/work"
printf '%s\n' $h '1,c,A,r1,"a,b"' '1,c,A,r2,2' >"$tmp/res/micro.csv"
printf '%s\n' $h '1,c,A,r1,1' '1,c,B,r2,2' >"$tmp/res/boot.csv"
printf '%s\n' $h '2,d,C,r2,9' '2,d,C,r1,8' >"$tmp/work/micro.csv"
printf '%s\n' $h '2,d,C,r2,7' >"$tmp/work/boot.csv"
cr() { python3 benchmarks/csvrows.py "$@"; }
cr current "$tmp/res" r1 A || { echo "FAIL: csvrows: r1 on A not current"; fail=1; }
! cr current "$tmp/res" r1 B || { echo "FAIL: csvrows: r1 current on B"; fail=1; }
! cr current "$tmp/res" r2 A || { echo "FAIL: csvrows: r2 current with a boot line on B"; fail=1; }
! cr current "$tmp/res" r3 A || { echo "FAIL: csvrows: r3 (no lines) current"; fail=1; }
cr merge "$tmp/res" "$tmp/work" r2
want "csvrows merge micro" "$(cat "$tmp/res/micro.csv")" "$(printf '%s\n' $h '1,c,A,r1,"a,b"' '2,d,C,r2,9')"
want "csvrows merge boot" "$(cat "$tmp/res/boot.csv")" "$(printf '%s\n' $h '1,c,A,r1,1' '2,d,C,r2,7')"
cr current "$tmp/res" r2 C || { echo "FAIL: csvrows: r2 not current after its merge"; fail=1; }
# A header that gains a column and loses one: the other rows take it, the
# new column empty, the lost one gone.
printf '%s\n' date,commit,inputs,row,y '3,e,D,r2,5' >"$tmp/work/boot.csv"
cr merge "$tmp/res" "$tmp/work" r2 2>/dev/null || { echo "FAIL: csvrows: no merge over a new header"; fail=1; }
want "csvrows merge, new header" "$(cat "$tmp/res/boot.csv")" \
	"$(printf '%s\n' date,commit,inputs,row,y '1,c,A,r1,' '3,e,D,r2,5')"
# scripts/survey/aslr.py: results/aslr.csv a row at a time, from a
# perf.csv of benchmarks/run.sh: a row's icount lines only, the other
# rows' kept; a row the run has no line of, or a header of other columns,
# is an error that writes nothing.
h=date,inputs,row,icount,ns_per_op
printf '%s\n' $h '1,A,r1,"shift=0,sleep=off",10' '1,A,r2,"shift=0,sleep=off",20' >"$tmp/aslr.csv"
printf '%s\n' $h '2,C,r2,"shift=0,sleep=off",21' '2,C,r2,off,99' '2,C,r1,"shift=0,sleep=off",11' \
	>"$tmp/work/perf.csv"
as() { python3 scripts/survey/aslr.py "$@"; }
as current "$tmp/aslr.csv" r1 A || { echo "FAIL: aslr.py: r1 on A not current"; fail=1; }
! as current "$tmp/aslr.csv" r1 C || { echo "FAIL: aslr.py: r1 current on C"; fail=1; }
! as current "$tmp/nothing.csv" r1 A || { echo "FAIL: aslr.py: current without a file"; fail=1; }
as merge "$tmp/aslr.csv" "$tmp/work/perf.csv" r2
want "aslr.py merge" "$(cat "$tmp/aslr.csv")" \
	"$(printf '%s\n' $h '1,A,r1,"shift=0,sleep=off",10' '2,C,r2,"shift=0,sleep=off",21')"
cp "$tmp/aslr.csv" "$tmp/aslr.before"
! as merge "$tmp/aslr.csv" "$tmp/work/perf.csv" r3 2>/dev/null ||
	{ echo "FAIL: aslr.py: merged a row the run has no line of"; fail=1; }
printf '%s\n' date,inputs,row,icount,other '2,C,r1,x,1' >"$tmp/work/other.csv"
! as merge "$tmp/aslr.csv" "$tmp/work/other.csv" r1 2>/dev/null ||
	{ echo "FAIL: aslr.py: merged over other columns"; fail=1; }
cmp -s "$tmp/aslr.csv" "$tmp/aslr.before" || { echo "FAIL: aslr.py: a failed merge wrote"; fail=1; }
[ $fail = 0 ] && echo "report: data, targets and both matrix readers"
exit $fail
