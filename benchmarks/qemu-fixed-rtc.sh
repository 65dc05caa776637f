#!/bin/bash
# Stand-in for qemu-system-x86_64, first in PATH while benchmarks/run.sh
# calls scripts/boot.sh.  For -icount runs it makes the guest repeat
# exactly: it adds a fixed, virtual-clock RTC (-rtc base=...,clock=vm;
# otherwise the guest reads the host's wall clock at boot) and puts the
# guest's "-serial stdio" in a file printed at the end (a stdio port wakes
# QEMU's main loop on the host's timing).  Without either, two runs of one
# command end up tens of instructions apart.  Other runs pass through.
# REAL_QEMU names the real binary.
set -eu
real=${REAL_QEMU:?REAL_QEMU not set}
icount=0
for a in "$@"; do
	[ "$a" = -icount ] && icount=1
done
[ $icount = 1 ] || exec "$real" "$@"

out=$(mktemp "${TMPDIR:-/tmp}/guest-serial.XXXXXX")
initrd=$(mktemp "${TMPDIR:-/tmp}/guest-initrd.XXXXXX")
args=() prev=""
for a in "$@"; do
	[ "$prev" = -serial ] && [ "$a" = stdio ] && a=file:$out
	if [ "$prev" = -initrd ]; then
		python3 "$(dirname "$(readlink -f "$0")")/cpio-normalize.py" "$a" "$initrd"
		a=$initrd
	fi
	args+=("$a")
	prev=$a
done
pid=""
finish() { cat "$out"; rm -f "$out" "$initrd"; }
trap '[ -z "$pid" ] || kill "$pid" 2>/dev/null; finish; exit 143' TERM INT
"$real" "${args[@]}" -rtc base=2025-01-01T00:00:00,clock=vm </dev/null &
pid=$!
rc=0
wait "$pid" || rc=$?
pid=""
finish
exit $rc
