#!/bin/bash
# The cachesim QEMU plugin (benchmarks/qemu-plugins/) counts exactly what a
# known access pattern must touch, and does so identically twice: a static
# user program run under qemu-x86_64 walks N distinct cache lines K times
# between markers.  Skips (exit 2) only when the plugin header cannot be
# downloaded.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Build the plugins (the header is fetched on first use), find qemu-x86_64.
name=cachesim
. "$top/scripts/tests/lib/qemu-plugins.sh"
so=$plugins/cachesim.so

# The pattern.  Every load between the markers is one of the walks (the
# compiler keeps the loop in registers at -O2; buffers are line aligned):
#   window 0: 256 lines (16 KiB, fits L1) twice: only the first pass misses
#   window 1: the same again: misses with flush=on, none with flush=off
#   window 2: 1024 lines (64 KiB, twice L1, fits L2) twice: every load
#             misses L1 (LRU, cyclic), only the first pass misses L2
#   window 3: one 8-byte store straddling two lines: 1 access, 2 lines
cat >"$tmp/pattern.c" <<'EOF'
#include <stdint.h>
#include "marker.h"
#define LINE 64
static char small[256 * LINE] __attribute__((aligned(4096)));
static char big[1024 * LINE] __attribute__((aligned(4096)));
static char edge[2 * LINE] __attribute__((aligned(LINE)));

static inline __attribute__((always_inline))
unsigned long walk(volatile char *b, int n, int k)
{
	unsigned long s = 0;

	for (int p = 0; p < k; p++) {
		for (int i = 0; i < n; i++)
			s += b[i * LINE];
		CACHESIM_OP();
	}
	return s;
}

int main(void)
{
	unsigned long s = 0;

	CACHESIM_START(); s += walk(small, 256, 2); CACHESIM_STOP();
	CACHESIM_START(); s += walk(small, 256, 2); CACHESIM_STOP();
	CACHESIM_START(); s += walk(big, 1024, 2); CACHESIM_STOP();
	CACHESIM_START();
	*(volatile uint64_t *)(edge + LINE - 4) = s;
	CACHESIM_OP();
	CACHESIM_STOP();
	return 0;
}
EOF
gcc -O2 -static -I"$top/benchmarks/qemu-plugins" -o "$tmp/pattern" "$tmp/pattern.c" ||
	{ echo "cannot build the static pattern program (libc6-dev?)"; exit 1; }

run() { # run OUT [PLUGIN-OPTIONS]
	qemu-x86_64 -plugin "$so,out=$1${2:+,$2}" "$tmp/pattern" ||
		{ echo "qemu-x86_64 with the plugin failed"; exit 1; }
	[ -s "$1" ] || { echo "plugin wrote no $1"; exit 1; }
}
run "$tmp/a.csv"
run "$tmp/b.csv"
run "$tmp/noflush.csv" flush=off
cat "$tmp/a.csv"

fail=0
# (a) deterministic
cmp -s "$tmp/a.csv" "$tmp/b.csv" || {
	echo "FAIL: two identical runs differ"; diff "$tmp/a.csv" "$tmp/b.csv" || true; fail=1; }

# check FILE WINDOW COLUMN WANT WHAT
check() {
	local got
	got=$(awk -F, -v w="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == w { print $col[c] }' "$1")
	if [ "$got" != "$4" ]; then
		echo "FAIL: ${1##*/} window $2: $3 = ${got:-none}, want $4 ($5)"
		fail=1
	fi
}
# (b) exact counts
for w in 0 1; do
	check "$tmp/a.csv" $w ops 2 "two OP markers"
	check "$tmp/a.csv" $w accesses 512 "256 lines x 2 passes"
	check "$tmp/a.csv" $w lines 256 "distinct lines of the 16 KiB walk"
done
check "$tmp/a.csv" 2 accesses 2048 "1024 lines x 2 passes"
check "$tmp/a.csv" 2 lines 1024 "distinct lines of the 64 KiB walk"
check "$tmp/a.csv" 3 accesses 1 "one store"
check "$tmp/a.csv" 3 lines 2 "a store straddling a line boundary touches both"
# op_lines counts each operation's own distinct lines: every pass is one
check "$tmp/a.csv" 0 op_lines 512 "two passes of 256 lines, one OP each"
check "$tmp/a.csv" 2 op_lines 2048 "two passes of 1024 lines"
check "$tmp/a.csv" 3 op_lines 2 "one op touching two lines"
# (c) misses: a walk that fits L1 misses only on its first pass, one twice
# the size of L1 misses on every load; flush=off keeps window 0's lines.
check "$tmp/a.csv" 0 l1_miss 256 "second pass over 16 KiB must hit L1"
check "$tmp/a.csv" 0 l2_miss 256 "cold L2"
check "$tmp/a.csv" 1 l1_miss 256 "flush=on empties the caches at START"
check "$tmp/a.csv" 2 l1_miss 2048 "64 KiB cycled through a 32 KiB LRU L1 always misses"
check "$tmp/a.csv" 2 l2_miss 1024 "64 KiB fits the 1 MiB L2 on the second pass"
check "$tmp/a.csv" 3 l1_miss 2 "two cold lines"
check "$tmp/noflush.csv" 0 l1_miss 256 "cold start"
check "$tmp/noflush.csv" 1 l1_miss 0 "flush=off: window 0 left the lines in L1"
check "$tmp/noflush.csv" 1 l2_miss 0 "flush=off: window 0 left the lines in L2"
[ "$(wc -l <"$tmp/a.csv")" = 5 ] || { echo "FAIL: want a header and 4 windows"; fail=1; }

[ $fail = 0 ] && echo "cachesim: exact counts, identical runs"
exit $fail
