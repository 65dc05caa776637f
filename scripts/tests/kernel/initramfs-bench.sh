#!/bin/bash
# A measured boot's initramfs (INITRAMFS_BENCH=1, set by benchmarks/) holds
# no guest tests, so that editing them changes no row's inputs
# (measure_files in benchmarks/lib.sh leaves them out), and none of the
# programs and modules that differ between trees (the selftests, the
# guest programs, the test modules), so that every row unpacks the same
# files; a test boot's holds them.  Both hold /init, the benchmark scripts,
# alloctop and allocbench.
# Usage: scripts/tests/kernel/initramfs-bench.sh VARIANT   (a built x86_64 variant)
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

v=${1:?usage: initramfs-bench.sh VARIANT}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
list() { cpio -it --quiet <"$1" | sed 's,^\./,,' | LC_ALL=C sort; }
INITRAMFS_BENCH=0 "$TOP/scripts/mkinitramfs.sh" "$v" "$tmp/test.cpio"
INITRAMFS_BENCH=1 "$TOP/scripts/mkinitramfs.sh" "$v" "$tmp/bench.cpio"
list "$tmp/test.cpio" >"$tmp/test.lst"
list "$tmp/bench.cpio" >"$tmp/bench.lst"
fail=0
for f in init bench/bench-guest.sh guest/progs/alloctop modules/allocbench.ko; do
	grep -qx "$f" "$tmp/test.lst" || { echo "FAIL: the test initramfs has no $f"; fail=1; }
	grep -qx "$f" "$tmp/bench.lst" || { echo "FAIL: the measured initramfs has no $f"; fail=1; }
done
for f in guest/run-tests guest/ktap.sh guest/tests/10-allocinfo.sh guest/fleet-node \
	guest/progs/memfill guest/progs/allocinfo_ioctl_test modules/alloctest.ko; do
	grep -qx "$f" "$tmp/test.lst" || { echo "FAIL: the test initramfs has no $f"; fail=1; }
	! grep -q "^$f" "$tmp/bench.lst" || { echo "FAIL: the measured initramfs has $f"; fail=1; }
done
# The measured one holds nothing the test one lacks, and of guest/progs
# and modules/ only alloctop and the benchmarks' modules.
extra=$(comm -13 "$tmp/test.lst" "$tmp/bench.lst")
[ -z "$extra" ] || { echo "FAIL: only the measured initramfs has: $extra"; fail=1; }
other=$(grep -e '^guest/progs/.' -e '^modules/.' "$tmp/bench.lst" |
	grep -v -x -e guest/progs/alloctop -e modules/allocbench.ko || true)
[ -z "$other" ] || { echo "FAIL: the measured initramfs has: $other"; fail=1; }
# Two guests booting side by side (make trace) build theirs at once, from
# one export of the UAPI headers: both get it whole.  In a build directory
# of their own (the kernel's build and the benchmark programs linked in),
# where both export the headers from scratch.
export FORK_SRC STOCK_SRC FIXES_SRC BOOTNUM_SRC PRETAG_SRC KSRC
mkdir -p "$tmp/build"
ln -s "$BUILD/kernel-$v" "$tmp/build/kernel-$v"
[ ! -d "$BUILD/bench-bin" ] || ln -s "$BUILD/bench-bin" "$tmp/build/bench-bin"
beside() { BUILD=$tmp/build INITRAMFS_BENCH=1 "$TOP/scripts/mkinitramfs.sh" "$v" "$tmp/$1.cpio" 2>"$tmp/$1.err"; }
rc_a=0 rc_b=0
beside a & pa=$!
beside b || rc_b=$?
wait $pa || rc_a=$?
side_by_side() { # NAME EXIT-STATUS
	if [ "$2" != 0 ]; then
		cat "$tmp/$1.err"
		echo "FAIL: one of two measured initramfs built at once failed ($2)"
		fail=1
	elif ! cmp -s <(list "$tmp/$1.cpio") "$tmp/bench.lst"; then
		echo "FAIL: a measured initramfs built beside another holds other files"
		fail=1
	fi
}
side_by_side a $rc_a
side_by_side b $rc_b
[ $fail = 0 ] && echo "measured initramfs: $(wc -l <"$tmp/bench.lst") entries, test initramfs $(wc -l <"$tmp/test.lst")"
exit $fail
