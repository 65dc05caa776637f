#!/bin/bash
# A measured boot's initramfs (INITRAMFS_BENCH=1, set by benchmarks/) holds
# no guest tests, so that editing them changes no row's inputs
# (measure_files in benchmarks/lib.sh leaves them out); a test boot's holds
# them.  Both hold /init and the benchmark scripts.
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
for f in init bench/bench-guest.sh guest/progs/alloctop; do
	grep -qx "$f" "$tmp/test.lst" || { echo "FAIL: the test initramfs has no $f"; fail=1; }
	grep -qx "$f" "$tmp/bench.lst" || { echo "FAIL: the measured initramfs has no $f"; fail=1; }
done
for f in guest/run-tests guest/ktap.sh guest/tests/10-allocinfo.sh; do
	grep -qx "$f" "$tmp/test.lst" || { echo "FAIL: the test initramfs has no $f"; fail=1; }
	! grep -q "^$f" "$tmp/bench.lst" || { echo "FAIL: the measured initramfs has $f"; fail=1; }
done
# Nothing else differs.
diff <(grep -v -e '^guest/tests' -e '^guest/run-tests$' -e '^guest/ktap.sh$' "$tmp/test.lst") \
	"$tmp/bench.lst" || { echo "FAIL: the two differ by more than the tests"; fail=1; }
[ $fail = 0 ] && echo "measured initramfs: $(wc -l <"$tmp/bench.lst") entries, test initramfs $(wc -l <"$tmp/test.lst")"
exit $fail
