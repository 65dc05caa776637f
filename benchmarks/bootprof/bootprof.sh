#!/bin/bash
# Where each fork row's boot spends its instructions against its stock
# peer ('make bootprof', part of 'make results').  Boots every row of
# benchmarks/matrix.txt that names a stock peer, and each peer, under QEMU TCG with -icount and the insnprof plugin
# (benchmarks/qemu-plugins/insnprof.c), which counts every kernel instruction
# executed until run_init_process() first runs, i.e. up to /init.  The
# counts, folded into functions with the kernel's symbol table, are kept in
# results/bootprof/ROW.tsv (raw data, with the inputs hash of what it
# measured); 'make report' writes results/bootprof/README.md from them.
# Each row boots twice and the two profiles must be identical.  The rows
# benchmarks/bootprof/workloads.txt names boot twice more and run the
# benchmark's workloads, each between the plugin's markers: their kernel
# instructions, by function, a file a workload in
# results/bootprof/WORKLOAD/ROW.tsv, again identical twice.  A row whose
# profiles were taken on its present inputs (row_inputs,
# benchmarks/lib.sh) is kept; the driver is measure() there.
# Environment: PAIRS ("fork:stock ..." row pairs; default every row of the
# matrix with a peer), ROWS (of those rows, the ones to profile whatever
# results/ holds), FULL=1 (all of them), BOOT_MEM (default 1G), RESULTS,
# MATRIX, NO_BUILD=1.
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../lib.sh"
here=$TOP/benchmarks/bootprof
RESULTS=${RESULTS:-$TOP/results}
BOOT_MEM=${BOOT_MEM:-1G}
PAIRS=${PAIRS:-$(matrix_pairs)}
out=$RESULTS/bootprof
boot_rows=$(for p in $PAIRS; do echo "${p%%:*}"; echo "${p#*:}"; done | awk '!seen[$0]++')
wl_rows=$(awk '!/^#/ && NF { print $1 }' "$here/workloads.txt")
# The windows of bench-guest.sh's perf phase, in order (its micro loop has
# none).
workloads="messaging files spawn stream pagefault forkexit"
in_list() { printf '%s\n' $2 | grep -qx -- "$1"; }
for r in $boot_rows $wl_rows; do
	matrix_field "$r" kernel >/dev/null
done

# The units of measure are the rows.
step_units() { printf '%s\n' $boot_rows $wl_rows | awk '!seen[$0]++'; }
# step_current ROW INPUTS: ROW's profiles were taken on INPUTS.
step_current() {
	local w
	! in_list "$1" "$boot_rows" || grep -qs "^# .* inputs=$2 " "$out/$1.tsv" || return 1
	in_list "$1" "$wl_rows" || return 0
	for w in $workloads; do
		grep -qs "^# .* inputs=$2 " "$out/$w/$1.tsv" || return 1
	done
}
step_setup() {
	log "building the insnprof plugin"
	local rc=0
	"$TOP/benchmarks/qemu-plugins/build.sh" >/dev/null || rc=$?
	[ $rc = 2 ] && die "the QEMU plugin header could not be downloaded; no boot profile"
	[ $rc = 0 ] || die "benchmarks/qemu-plugins/build.sh failed (exit $rc)"
	plugin=$BUILD/qemu-plugins/insnprof.so
	mkdir -p "$out"
}

# boot_profile: the row's boot to /init, twice, into $out/ROW.tsv.
boot_profile() {
	local i stop
	stop=$(awk '$3 == "run_init_process" { print $1 }' "$kb/System.map")
	[ -n "$stop" ] || die "$kb/System.map has no run_init_process"
	for i in 1 2; do
		log "$row: boot $i/2 under insnprof, $BOOT_MEM"
		QEMU_EXTRA="-plugin $plugin,out=$logdir/prof-$i,min=ffffffff80000000,stop=$stop" \
			"$TOP/scripts/boot.sh" -k "$kernel" -m "$BOOT_MEM" -s 1 -a tcg -i -q -t 900 $(row_qemu "$row") \
			-o "$logdir/boot-$i" "${append[@]}" -- true >/dev/null 2>"$logdir/boot-$i.err" ||
			{ cat "$logdir/boot-$i.err" >&2; die "$row: boot $i failed; logs in $logdir/boot-$i"; }
		[ -s "$logdir/prof-$i" ] ||
			{ cat "$logdir/boot-$i.err" >&2; die "$row: insnprof wrote no profile (run_init_process at $stop never ran?)"; }
	done
	cmp -s "$logdir/prof-1" "$logdir/prof-2" ||
		die "$row: the two icount boots ran different instructions ($logdir/prof-1, prof-2)"
	{
		echo "# row=$row kernel_variant=$kernel boot_args=$args mem=$BOOT_MEM"
		echo "# linux=$(cat "$kb/include/config/kernel.release") qemu=$qemu accel=tcg icount=shift=0,sleep=off commit=$commit inputs=$inputs date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
		echo "# kernel instructions executed from reset until run_init_process(), by function: function<TAB>instructions"
		python3 "$here/fold.py" "$kb/System.map" "$logdir/prof-1"
	} >"$out/$row.tsv.tmp"
	mv "$out/$row.tsv.tmp" "$out/$row.tsv"
	log "$row: $(awk -F'\t' '!/^#/ { s += $2 } END { print s }' "$out/$row.tsv") kernel instructions to /init"
}

# workload_profile: the row's workloads (bench-guest.sh's perf phase,
# one repeat), twice, a window each, into $out/WORKLOAD/ROW.tsv.
workload_profile() {
	local i k w ops got ref en
	ref=$(matrix_field "$row" ref) en=$(matrix_field "$row" enabled)
	for i in 1 2; do
		log "$row: workloads $i/2 under insnprof, $BOOT_MEM"
		rm -f "$logdir/wl-$i".*
		QEMU_EXTRA="-plugin $plugin,out=$logdir/wl-$i,min=ffffffff80000000" \
			"$TOP/scripts/boot.sh" -k "$kernel" -m "$BOOT_MEM" -s 1 -a tcg -i -q -t 3600 $(row_qemu "$row") \
			-o "$logdir/wl-boot-$i" "${append[@]}" -e REPS=1 -- \
			/bench/bench-guest.sh "$ref" "$en" perf >/dev/null 2>"$logdir/wl-boot-$i.err" ||
			{ cat "$logdir/wl-boot-$i.err" >&2; tail -20 "$logdir/wl-boot-$i/guest.log" >&2
			  die "$row: workload boot $i failed; logs in $logdir/wl-boot-$i"; }
		got=$(awk '$1 == "@@PERF" && $3 != "micro" { print $3 }' "$logdir/wl-boot-$i/guest.log" | xargs)
		[ "$got" = "$workloads" ] ||
			die "$row: the guest ran workloads '$got', not '$workloads'; logs in $logdir/wl-boot-$i"
		k=0
		for w in $workloads; do
			k=$((k + 1))
			[ -s "$logdir/wl-$i.$k" ] ||
				die "$row: insnprof wrote no window $k ($w) in boot $i; logs in $logdir/wl-boot-$i"
		done
		[ ! -e "$logdir/wl-$i.$((k + 1))" ] ||
			die "$row: insnprof wrote more windows than the $k workloads; logs in $logdir/wl-boot-$i"
	done
	k=0
	for w in $workloads; do
		k=$((k + 1))
		cmp -s "$logdir/wl-1.$k" "$logdir/wl-2.$k" ||
			die "$row: the two icount runs of $w ran different instructions ($logdir/wl-1.$k, wl-2.$k)"
		ops=$(awk -v w="$w" '$1 == "@@PERF" && $3 == w { print $5 }' "$logdir/wl-boot-1/guest.log")
		mkdir -p "$out/$w"
		{
			echo "# row=$row kernel_variant=$kernel boot_args=$args mem=$BOOT_MEM workload=$w ops=$ops"
			echo "# linux=$(cat "$kb/include/config/kernel.release") qemu=$qemu accel=tcg icount=shift=0,sleep=off commit=$commit inputs=$inputs date=$(date -u +%Y-%m-%dT%H:%M:%SZ)"
			echo "# kernel instructions of the workload's timed section ($ops ops), by function: function<TAB>instructions"
			python3 "$here/fold.py" "$kb/System.map" "$logdir/wl-1.$k"
		} >"$out/$w/$row.tsv.tmp"
		mv "$out/$w/$row.tsv.tmp" "$out/$w/$row.tsv"
		log "$row: $w: $(awk -F'\t' '!/^#/ { s += $2 } END { print s }' "$out/$w/$row.tsv") kernel instructions for $ops ops"
	done
}

step_measure() {
	logdir=$BUILD/bootprof/$row
	rm -rf "$logdir" && mkdir -p "$logdir"
	append=(-A nolapic_timer)
	[ "$args" = - ] || append+=(-A "$args")
	! in_list "$row" "$boot_rows" || boot_profile
	! in_list "$row" "$wl_rows" || workload_profile
}

step_finish() { log "wrote $out/*.tsv and $out/WORKLOAD/*.tsv; 'make report' writes $out/README.md"; }

measure bootprof
