#!/bin/bash
# Where the instructions of one order-0 alloc_pages()+__free_pages() pair
# go, function by function, for each row of benchmarks/matrix.txt
# ('make trace').  Boots the row's kernel under QEMU TCG with -icount and a
# gdbstub, starts allocbench's hot page loop, single-steps one iteration
# with gdb, and keeps the addresses (raw data) with the symbol of each in
# results/trace/ROW.txt, with the inputs hash of what it measured
# (benchmarks/lib.sh); 'make report' writes results/trace/README.md.
# Environment: ROWS (names from the matrix; default the rows over off, not
# the distro rows, whose baseline is another config), TRACE_SYM (where an iteration starts; default
# __alloc_frozen_pages_noprof, which every 7.3 page allocation enters), RESULTS, MATRIX,
# NO_BUILD=1.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../lib.sh"
tdir=$TOP/benchmarks/trace
RESULTS=${RESULTS:-$TOP/results}
out=$RESULTS/trace
command -v gdb >/dev/null || die "gdb missing (apt-get install gdb)"

# The distro-budget rows are left out by default: their baseline is another
# config (ROWS=... traces them too).
rows=${ROWS:-$(matrix_group off)}
if [ "${NO_BUILD:-0}" != 1 ]; then
	"$TOP/scripts/kernel-src.sh"
	for k in $(for r in $rows; do matrix_field "$r" kernel; done | sort -u); do
		"$TOP/scripts/build-kernel.sh" "$k"
	done
fi
run_stamp
mkdir -p "$out"

free_port() {
	python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# The guest loads allocbench, says so, and runs a loop long enough for gdb
# to attach and step (the stepping holds the guest still meanwhile).
guest='insmod /modules/allocbench.ko && echo @@START &&
echo "page 0 3000000" >/sys/kernel/debug/allocbench/run'

n=0
for row in $rows; do
	n=$((n + 1))
	kernel=$(matrix_field "$row" kernel)
	args=$(matrix_field "$row" args)
	log "[$n/$(echo $rows | wc -w)] $row: kernel $kernel, ${args/#-/no extra arguments}"
	kb=$BUILD/kernel-$kernel
	logdir=$BUILD/trace/$row
	rm -rf "$logdir" && mkdir -p "$logdir"
	port=$(free_port)
	append=(-A nolapic_timer)
	[ "$args" = - ] || append+=(-A "$args")
	QEMU_EXTRA="-gdb tcp:127.0.0.1:$port" "$TOP/scripts/boot.sh" -k "$kernel" -i -q \
		-t 900 -o "$logdir" "${append[@]}" -- "$guest" >/dev/null 2>"$logdir/boot.err" &
	boot=$!
	until grep -q '^@@START' "$logdir/guest.log" 2>/dev/null; do
		kill -0 $boot 2>/dev/null || { cat "$logdir/boot.err" >&2; die "$row: guest ended before the loop started"; }
		sleep 0.5
	done
	rc=0
	TRACE_PORT=$port TRACE_OUT=$logdir/pcs timeout 900 gdb -q -batch -nx \
		-ex "file $kb/vmlinux" -x "$tdir/gdb-step.py" >"$logdir/gdb.log" 2>&1 || rc=$?
	wait $boot || { cat "$logdir/boot.err" >&2; die "$row: guest failed; logs in $logdir"; }
	[ $rc = 0 ] && [ -s "$logdir/pcs" ] || { tail "$logdir/gdb.log" >&2; die "$row: gdb failed ($rc)"; }
	{
		echo "# row=$row kernel_variant=$kernel boot_args=$args"
		echo "# linux=$(cat "$kb/include/config/kernel.release") qemu=$qemu accel=tcg icount=shift=0,sleep=off commit=$commit inputs=$inputs date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "# one order-0 alloc_pages()+__free_pages() iteration of allocbench: address symbol"
		python3 "$tdir/symbolize.py" "$kb/System.map" "$logdir/pcs"
	} >"$out/$row.txt.tmp"
	mv "$out/$row.txt.tmp" "$out/$row.txt"
	log "$row: $(grep -vc '^#' "$out/$row.txt") instructions"
done
# Traces of rows the matrix no longer has would only mislead.
for f in "$out"/*.txt; do
	r=$(basename "$f" .txt)
	matrix_rows | awk -v r="$r" '$1 == r { found = 1 } END { exit !found }' || rm -f "$f"
done
log "wrote $out/*.txt; 'make report' writes $out/README.md"
