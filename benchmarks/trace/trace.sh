#!/bin/bash
# Where the instructions of one alloc+free go, function by function,
# for each row of benchmarks/matrix.txt and each case ('make trace').
# Boots the row's kernel under QEMU TCG with -icount and a gdbstub, starts
# one of allocbench's hot loops, single-steps one iteration with gdb, and
# keeps the addresses (raw data: each once, with the times it ran, in the
# order it first ran) with the symbol of each in
# results/trace/ROW.txt (case page-0) or results/trace/CASE/ROW.txt, with
# the inputs hash of what it measured (benchmarks/lib.sh); 'make report'
# writes results/trace/README.md.
# The cases, and the rows each is traced on, are benchmarks/trace/cases.txt's.
# A trace taken on its row's present inputs (row_inputs, benchmarks/lib.sh)
# is kept: the units of measure (measure(), benchmarks/lib.sh) are
# CASE/ROW.
# The traces of the row benchmarks/trace/limit.txt names also say, for each
# instruction, each function it was inlined through and its source line
# there: read from the DWARF of the kernel limit.txt names (that row's
# kernel built with -g), once its text is found byte for byte the same as
# the traced kernel's.
# Environment: ROWS (of cases.txt's rows, those traced whatever results/
# holds), FULL=1 (trace them all), CASES (of cases.txt's cases, the ones
# to trace), TRACE_JOBS (guests at once, default 2), RESULTS, MATRIX,
# NO_BUILD=1.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../lib.sh"
tdir=$TOP/benchmarks/trace
RESULTS=${RESULTS:-$TOP/results}
out=$RESULTS/trace
command -v gdb >/dev/null || die "gdb missing (apt-get install gdb)"
cases_txt=$tdir/cases.txt
# case_rows CASE: the rows cases.txt traces CASE on.
case_rows() {
	local r
	awk -v c="$1" '$1 == c { for (i = 2; i <= NF; i++) print $i }' "$cases_txt" |
		while read -r r; do
			if [ "$r" = "*" ]; then matrix_rows | awk '{ print $1 }'; else echo "$r"; fi
		done | awk '!seen[$0]++'
}
all_cases=$(awk '!/^#/ && NF { print $1 }' "$cases_txt")
cases=${CASES:-$all_cases}
for c in $cases; do
	echo "$all_cases" | grep -qx -- "$c" || die "CASES: '$c' is not a case of $cases_txt"
	case $c in
	page-[0-9]|kpage-0|bulk-[1-9]|bulk-[1-9][0-9]|vmalloc-[1-9]|vmalloc-[1-9][0-9]) ;;
	page-[0-9]-batch|kmalloc-[1-9]*[0-9]-batch|cache-[1-9]*[0-9]-batch) ;;
	kmalloc-[1-9]|kmalloc-[1-9][0-9]|kmalloc-[1-9][0-9][0-9]|kmalloc-[1-9][0-9][0-9][0-9]) ;;
	cache-[1-9]|cache-[1-9][0-9]|cache-[1-9][0-9][0-9]|cache-[1-9][0-9][0-9][0-9]) ;;
	kmalloc_acct-[1-9]|kmalloc_acct-[1-9][0-9]|kmalloc_acct-[1-9][0-9][0-9]|kmalloc_acct-[1-9][0-9][0-9][0-9]) ;;
	acache-[1-9]|acache-[1-9][0-9]|acache-[1-9][0-9][0-9]|acache-[1-9][0-9][0-9][0-9]) ;;
	lru-[1-9]|lru-[1-9][0-9]|lru-[1-9][0-9][0-9]|lru-[1-9][0-9][0-9][0-9]) ;;
	node-[1-9]|node-[1-9][0-9]|node-[1-9][0-9][0-9]|node-[1-9][0-9][0-9][0-9]) ;;
	*) die "$cases_txt: '$c' is none of page-ORDER, kpage-0, bulk-PAGES, vmalloc-PAGES, kmalloc-BYTES, cache-BYTES, kmalloc_acct-BYTES, acache-BYTES, lru-BYTES, node-BYTES, or a page, kmalloc or cache case with -batch" ;;
	esac
	for r in $(case_rows "$c"); do matrix_field "$r" kernel >/dev/null; done
done
# Where a case's traces go: page-0's at the top of results/trace.
case_dir() { if [ "$1" = page-0 ]; then echo "$out"; else echo "$out/$1"; fi; }
limit_row=$(awk '$1 == "row" { print $2 }' "$tdir/limit.txt")
limit_kernel=$(awk '$1 == "kernel" { print $2 }' "$tdir/limit.txt")
[ -n "$limit_row" ] && [ -n "$limit_kernel" ] || die "$tdir/limit.txt: no 'row' or no 'kernel' line"
# Each case of CASES on each of its rows.
step_units() {
	local c r
	for c in $cases; do
		for r in $(case_rows "$c"); do echo "$c/$r"; done
	done
}
# step_current CASE/ROW INPUTS: the trace was taken on INPUTS (and names
# the inlined functions, for the limit row).
step_current() {
	local f
	f=$(case_dir "${1%/*}")/${1##*/}.txt
	grep -qs "^# .* inputs=$2 " "$f" || return 1
	[ "${1##*/}" != "$limit_row" ] || grep -q "$(printf '\t')" "$f"
}
# The limit row's traces name inlined functions from another kernel's
# DWARF.
step_kernels() {
	! printf '%s\n' $todo | grep -q "/$limit_row\$" || echo "$limit_kernel"
}
# same_text KERNEL KERNEL: the two kernels' vmlinux have the same .text.
same_text() {
	local a=$BUILD/trace/text-$1 b=$BUILD/trace/text-$2
	mkdir -p "$BUILD/trace"
	objcopy -O binary --only-section=.text "$BUILD/kernel-$1/vmlinux" "$a" &&
		objcopy -O binary --only-section=.text "$BUILD/kernel-$2/vmlinux" "$b" &&
		cmp -s "$a" "$b"
}
step_setup() {
	local limit_of
	if printf '%s\n' $todo | grep -q "/$limit_row\$"; then
		limit_of=$(matrix_field "$limit_row" kernel)
		same_text "$limit_of" "$limit_kernel" ||
			die "$limit_kernel's text is not $limit_of's: its DWARF cannot name the inlined functions of $limit_row's traces"
	fi
	mkdir -p "$out"
}
# Each guest has its gdbstub on a port of its own.
step_start() {
	port=$(free_port)
	while [ "$port" = "${last_port:-}" ]; do port=$(free_port); done
	last_port=$port
}
STEP_JOBS=${TRACE_JOBS:-2}

case_what() {
	case $1 in
	*-batch) echo "one round of allocbench's batch loop of case ${1%-batch}, its objects allocated, then freed" ;;
	page-*) echo "one order-${1#page-} alloc_pages()+__free_pages() iteration of allocbench" ;;
	kpage-*) echo "one order-0 page of skb_page_frag_refill() and its __free_pages(), an iteration of allocbench" ;;
	cache-*) echo "one kmem_cache_alloc()+kmem_cache_free() iteration of allocbench on a private cache of ${1#cache-}-byte objects" ;;
	bulk-*) echo "one alloc_pages_bulk() of ${1#bulk-} pages and their __free_page() calls, an iteration of allocbench" ;;
	vmalloc-*) echo "one vmalloc() of ${1#vmalloc-} pages and its vfree(), an iteration of allocbench" ;;
	kmalloc-*) echo "one kmalloc(${1#kmalloc-})+kfree() iteration of allocbench" ;;
	kmalloc_acct-*) echo "one kmalloc(${1#kmalloc_acct-}, GFP_KERNEL_ACCOUNT)+kfree() iteration of allocbench" ;;
	acache-*) echo "one kmem_cache_alloc()+kmem_cache_free() iteration of allocbench on a private SLAB_ACCOUNT cache of ${1#acache-}-byte objects" ;;
	lru-*) echo "one kmem_cache_alloc_lru()+kmem_cache_free() iteration of allocbench on a private SLAB_ACCOUNT|SLAB_RECLAIM_ACCOUNT cache of ${1#lru-}-byte objects with a memcg-aware list_lru" ;;
	node-*) echo "one kmem_cache_alloc_node()+kmem_cache_free() iteration of allocbench on a private cache of ${1#node-}-byte objects, on the CPU's node" ;;
	esac
}

# step_measure CASE/ROW: one trace, with QEMU's gdbstub on $port.
step_measure() {
	local c=${1%/*} mode arg kind sym sysctl guest cdir logdir boot calls rc append
	mode=${c%%-*} arg=${c#*-} kind=""
	case $arg in *-batch) arg=${arg%-batch} kind=batch ;; esac
	sysctl=0
	case $mode in
	page) sym=__alloc_frozen_pages_noprof ;;
	kpage) sym=__alloc_frozen_pages_noprof sysctl=1 ;;
	cache | acache) sym=kmem_cache_alloc_noprof ;;
	lru) sym=kmem_cache_alloc_lru_noprof ;;
	node) sym=kmem_cache_alloc_node_noprof ;;
	bulk) sym=alloc_pages_bulk_noprof ;;
	vmalloc) sym=__vmalloc_node_range_noprof ;;
	kmalloc | kmalloc_acct) sym=__kmalloc_noprof ;;
	esac
	# The guest loads allocbench, says so with the objects of a batch
	# round, and runs a loop that outlasts any wait for gdb to attach (a
	# short one may end first: a kmalloc() pair is a few hundred
	# instructions).  Once gdb has its iteration, it ends QEMU.  kpage's
	# frag pages are order 0 only with high-order frags disabled.
	guest="insmod /modules/allocbench.ko && /bench/tag-flags.sh &&
echo $sysctl >/proc/sys/net/core/high_order_alloc_disable &&
echo @@START \$(cat /sys/module/allocbench/parameters/batch) &&
echo '$mode $arg 4000000000 $kind' >/sys/kernel/debug/allocbench/run"
	cdir=$(case_dir "$c")
	mkdir -p "$cdir"
	logdir=$BUILD/trace/$c/$row
	rm -rf "$logdir" && mkdir -p "$logdir"
	append=(-A nolapic_timer)
	[ "$args" = - ] || append+=(-A "$args")
	QEMU_EXTRA="-gdb tcp:127.0.0.1:$port" "$TOP/scripts/boot.sh" -k "$kernel" -i -q $(row_qemu "$row") \
		-t 900 -o "$logdir" "${append[@]}" -- "$guest" >/dev/null 2>"$logdir/boot.err" &
	boot=$!
	until grep -q '^@@START' "$logdir/guest.log" 2>/dev/null; do
		kill -0 $boot 2>/dev/null || { cat "$logdir/boot.err" >&2; die "$row: guest ended before the loop started"; }
		sleep 0.5
	done
	# A batch iteration is a round: as many calls as the round's objects.
	calls=1
	[ -z "$kind" ] || calls=$(sed -n 's/^@@START \([0-9][0-9]*\)$/\1/p' "$logdir/guest.log")
	[ -n "$calls" ] || die "$row: the guest said no batch size (@@START line: $(grep '^@@START' "$logdir/guest.log"))"
	rc=0
	TRACE_CALLS=$calls TRACE_SYM=$sym TRACE_PORT=$port TRACE_OUT=$logdir/pcs timeout 900 gdb -q -batch -nx \
		-ex "file $kb/vmlinux" -x "$tdir/gdb-step.py" >"$logdir/gdb.log" 2>&1 || rc=$?
	# gdb kills QEMU when it is done; if it failed, the loop would run on.
	pkill -f -- "-gdb tcp:127.0.0.1:$port" 2>/dev/null || true
	wait $boot 2>/dev/null || true
	[ $rc = 0 ] && [ -s "$logdir/pcs" ] || {
		tail "$logdir/gdb.log" "$logdir/boot.err" >&2
		die "$row: gdb failed ($rc); logs in $logdir"
	}
	{
		echo "# row=$row kernel_variant=$kernel boot_args=$args"
		echo "# linux=$(cat "$kb/include/config/kernel.release") qemu=$qemu accel=tcg icount=shift=0,sleep=off commit=$commit inputs=$inputs pairs=$calls counted=yes date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		if [ "$row" = "$limit_row" ]; then
			echo "# case=$c $(case_what "$c"): address, times executed, symbol, tab, FUNCTION@FILE:LINE of each function it was inlined through, innermost first (from $limit_kernel's DWARF); '# src' lines: those source lines"
			python3 "$tdir/symbolize.py" "$kb/System.map" "$logdir/pcs" "$BUILD/kernel-$limit_kernel/vmlinux" "$KSRC"
		else
			echo "# case=$c $(case_what "$c"): address, times executed, symbol"
			python3 "$tdir/symbolize.py" "$kb/System.map" "$logdir/pcs"
		fi
	} >"$cdir/$row.txt.tmp"
	mv "$cdir/$row.txt.tmp" "$cdir/$row.txt"
	# The boot's initramfs and serial files are gigabytes over a whole run.
	rm -f "$logdir"/*.cpio "$logdir"/pcs
	log "$c, $row: $(awk '!/^#/ { n += $2 } END { print n + 0 }' "$cdir/$row.txt") instructions"
}

# Traces of rows the matrix no longer has would only mislead.
step_finish() {
	local f
	for f in "$out"/*.txt "$out"/*/*.txt; do
		[ -f "$f" ] || continue
		matrix_has "$(basename "$f" .txt)" || rm -f "$f"
	done
	log "wrote $out/*.txt; 'make report' writes $out/README.md"
}

measure trace
