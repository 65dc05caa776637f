#!/bin/bash
# The insnprof QEMU plugin (benchmarks/qemu-plugins/insnprof.c), which
# 'make bootprof' uses, counts exactly how often each instruction runs, and
# stop= ends the profile where it should: a static user program run under
# qemu-x86_64 calls one function 1000 times, a marker function once, then
# another function 500 times; its markers' windows hold what ran between
# them.  Skips (exit 2) only when the plugin header cannot be downloaded.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Build the plugins (the header is fetched on first use), find qemu-x86_64.
name=insnprof
. "$top/scripts/tests/lib/qemu-plugins.sh"
so=$plugins/insnprof.so

cat >"$tmp/calls.c" <<'EOF'
__attribute__((noinline)) void before(volatile int *x) { (*x)++; }
__attribute__((noinline)) void mark(void) { __asm__ volatile(""); }
__attribute__((noinline)) void after(volatile int *x) { (*x)++; }

int main(void)
{
	volatile int x = 0;

	for (int i = 0; i < 1000; i++)
		before(&x);
	mark();
	for (int i = 0; i < 500; i++)
		after(&x);
	return 0;
}
EOF
gcc -O2 -static -no-pie -o "$tmp/calls" "$tmp/calls.c" ||
	{ echo "cannot build the static test program (libc6-dev?)"; exit 1; }
addr() { nm "$tmp/calls" | awk -v s="$1" '$3 == s { sub(/^0+/, "", $1); print $1 }'; }
before=$(addr before) mark=$(addr mark) after=$(addr after)
[ -n "$before" ] && [ -n "$mark" ] && [ -n "$after" ] || { echo "nm found no test functions"; exit 1; }

fail=0
# count FILE ADDRESS: executions of the instruction at ADDRESS (0 if none)
count() { awk -v a="$2" '$1 == a { n = $2 } END { print n + 0 }' "$1"; }
want() { # want FILE ADDRESS N WHAT
	local got
	got=$(count "$1" "$2")
	[ "$got" = "$3" ] || { echo "FAIL: ${1##*/}: $4 ran $got times, want $3"; fail=1; }
}

qemu-x86_64 -plugin "$so,out=$tmp/a" "$tmp/calls" && [ -s "$tmp/a" ] ||
	{ echo "qemu-x86_64 with insnprof failed or wrote nothing"; exit 1; }
qemu-x86_64 -plugin "$so,out=$tmp/b" "$tmp/calls"
cmp -s "$tmp/a" "$tmp/b" || { echo "FAIL: two identical runs differ"; fail=1; }
want "$tmp/a" "$before" 1000 "before()'s first instruction"
want "$tmp/a" "$mark" 1 "mark()'s first instruction"
want "$tmp/a" "$after" 500 "after()'s first instruction"
LC_ALL=C sort -c -k1,1 <(awk '{ printf "%016s\n", $1 }' "$tmp/a" | tr ' ' 0) 2>/dev/null ||
	{ echo "FAIL: addresses not in ascending order"; fail=1; }

# stop=: the profile is written when mark() first runs, with before()'s
# counts complete and nothing of after()'s.
qemu-x86_64 -plugin "$so,out=$tmp/s,stop=$mark" "$tmp/calls" && [ -s "$tmp/s" ] ||
	{ echo "FAIL: stop=$mark wrote no profile"; fail=1; }
want "$tmp/s" "$before" 1000 "before() with stop=mark"
want "$tmp/s" "$after" 0 "after() with stop=mark"
# min=: nothing below the given address is counted
qemu-x86_64 -plugin "$so,out=$tmp/m,min=$after" "$tmp/calls"
want "$tmp/m" "$before" 0 "before() below min="
want "$tmp/m" "$after" 500 "after() at min="

# Windows: INSNPROF_START() zeroes the counts and INSNPROF_STOP() writes
# them to out=FILE.N, a file a window; nothing more at exit.
cat >"$tmp/win.c" <<EOF
#include "$top/benchmarks/qemu-plugins/marker.h"
__attribute__((noinline)) void before(volatile int *x) { (*x)++; }
__attribute__((noinline)) void after(volatile int *x) { (*x)++; }

int main(void)
{
	volatile int x = 0;

	for (int i = 0; i < 1000; i++)
		before(&x);
	INSNPROF_START();
	for (int i = 0; i < 300; i++)
		before(&x);
	INSNPROF_STOP();
	INSNPROF_START();
	for (int i = 0; i < 500; i++)
		after(&x);
	INSNPROF_STOP();
	return 0;
}
EOF
gcc -O2 -static -no-pie -o "$tmp/win" "$tmp/win.c" ||
	{ echo "cannot build the static window program"; exit 1; }
wbefore=$(nm "$tmp/win" | awk '$3 == "before" { sub(/^0+/, "", $1); print $1 }')
wafter=$(nm "$tmp/win" | awk '$3 == "after" { sub(/^0+/, "", $1); print $1 }')
qemu-x86_64 -plugin "$so,out=$tmp/w" "$tmp/win"
want "$tmp/w.1" "$wbefore" 300 "before() in window 1"
want "$tmp/w.1" "$wafter" 0 "after() in window 1"
want "$tmp/w.2" "$wbefore" 0 "before() in window 2"
want "$tmp/w.2" "$wafter" 500 "after() in window 2"
[ ! -e "$tmp/w" ] && [ ! -e "$tmp/w.3" ] ||
	{ echo "FAIL: windows wrote more than their two files"; fail=1; }

# A stop address that never runs writes nothing (and says so); a bad option fails.
qemu-x86_64 -plugin "$so,out=$tmp/n,stop=1" "$tmp/calls" 2>"$tmp/n.err" || true
[ ! -e "$tmp/n" ] && grep -q 'never ran' "$tmp/n.err" ||
	{ echo "FAIL: an unreached stop address must write nothing and say so"; fail=1; }
if qemu-x86_64 -plugin "$so,out=$tmp/x,bogus=1" "$tmp/calls" 2>/dev/null; then
	echo "FAIL: an unknown option was accepted"; fail=1
fi

[ $fail = 0 ] && echo "insnprof: exact counts, stop=, min= and windows honoured, identical runs"
exit $fail
