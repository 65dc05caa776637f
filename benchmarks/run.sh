#!/bin/bash
# The benchmarks behind results/ ('make bench'): build the kernels the
# matrix names, boot each row of benchmarks/matrix.txt in QEMU, run the
# in-kernel microbenchmark, the perf stat workloads and the boot
# measurements, and write raw CSVs (one line a run), each line with the
# inputs of the row it measured (row_inputs, benchmarks/lib.sh).  A row
# whose figures in results/ were measured on its present inputs is kept;
# the others are measured, and each is merged into results/ as soon as it
# is done (benchmarks/csvrows.py), so a run cut short keeps what it
# finished; the measuring driver is measure() in benchmarks/lib.sh.
# 'make report' (python3 -m benchmarks.report) renders the tables and
# plots from them.
#
# Per matrix row, at 1 GiB: two icount runs (perf, then micro, and where
# the kernel has memory cgroups the charged slab cases last; they must
# agree exactly), TRAJS - 1 more icount runs of the perf workloads alone,
# each on another trajectory (bench-guest.sh's TRAJ: a start offset; the
# perf workloads come first in every boot, so that the trajectories start
# from the same state and differ in their offset alone), one
# plain-TCG run with REPS repeats (wall time) and two icount
# runs under the cachesim plugin (memory traffic; identical CSVs).  Per row
# and guest memory size: two icount boots and TCG_BOOTS plain boots.
#
# Environment: QUICK=1 (small loops, 2 repeats, 1 GiB only, output in
# $BUILD/bench/quick unless RESULTS is set), RESULTS (output directory),
# MEMS, REPS, TRAJS (workload trajectories a row, default 3), TCG_BOOTS, MICRO_N, WS_N, CACHE_N, PF_ROUNDS, FORKS, HB_LOOPS,
# FILES_N, SPAWNS, STREAM_MIB,
# NO_BUILD=1, NO_CACHESIM=1 (skip the plugin runs), ROWS (the rows to
# measure, whatever results/ holds), FULL=1 (every row),
# MATRIX (another matrix file), HARNESS_ARGS (kernel arguments for every
# boot of every row; default nolapic_timer, see below), TCG_ARGS (more of
# them for plain-TCG boots; default: the host TSC rate, see below).
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/lib.sh"
bdir=$TOP/benchmarks

QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then
	: "${MEMS:=1G}" "${REPS:=2}" "${TCG_BOOTS:=1}" "${MICRO_N:=20000}"
	: "${WS_N:=16384}" "${CACHE_N:=2000}"
	: "${PF_ROUNDS:=10}" "${FORKS:=200}" "${HB_LOOPS:=5}"
	: "${FILES_N:=500}" "${SPAWNS:=50}" "${STREAM_MIB:=16}"
	: "${RESULTS:=$BUILD/bench/quick}"
else
	: "${MEMS:=1G 4G 16G}" "${REPS:=5}" "${TCG_BOOTS:=3}" "${MICRO_N:=100000}"
	: "${WS_N:=65536}" "${CACHE_N:=10000}"
	: "${PF_ROUNDS:=40}" "${FORKS:=1000}" "${HB_LOOPS:=20}"
	: "${FILES_N:=2000}" "${SPAWNS:=200}" "${STREAM_MIB:=64}"
	: "${RESULTS:=$TOP/results}"
fi
TRAJS=${TRAJS:-3}
case $TRAJS in [1-9]) ;; *) die "TRAJS=$TRAJS: give 1 to 9 trajectories" ;; esac
# Every boot, every row: without a local APIC timer the kernel skips the
# APIC timer calibration, a pause-instruction spin that takes over a minute
# of host time under -icount (TCG leaves its translated code on each pause).
HARNESS_ARGS=${HARNESS_ARGS-nolapic_timer}
work=$BUILD/bench/run
logs=$BUILD/bench/logs
t0=$(date +%s)

# The units of measure are the matrix's rows.
step_units() { matrix_rows | awk '{ print $1 }'; }
step_current() { python3 "$bdir/csvrows.py" current "$RESULTS" "$1" "$2"; }

step_setup() {
	mkdir -p "$BUILD/bench"
	perf_host_version=$("$perf" version | awk '{ print $3 }')
	# Plain-TCG boots: the guest gets the host's TSC and, with no HPET or
	# PM timer in the tiny config, cannot calibrate it and falls back to
	# jiffies (4 ms resolution).  Give it the host TSC rate instead (see
	# tsckhz.c).
	gcc -std=c11 -O2 -Wall -Wextra -Werror -o "$BUILD/bench/tsckhz" "$bdir/progs/tsckhz.c"
	TCG_ARGS=${TCG_ARGS-tsc_early_khz=$("$BUILD/bench/tsckhz") tsc=reliable}
	# The cache model (benchmarks/qemu-plugins): L1d 32 KiB 8-way, L2 1 MiB
	# 16-way, 64-byte lines, emptied at each window's start.
	CACHE_GEOM="l1=32768:8,l2=1048576:16,line=64,flush=on"
	cachesim=""
	if [ "${NO_CACHESIM:-0}" != 1 ]; then
		local rc=0
		cachesim=$("$bdir/qemu-plugins/build.sh" | tail -1) || rc=$?
		if [ $rc = 2 ]; then
			log "cachesim: plugin header not available; memory-traffic runs left out"
			cachesim=""
		elif [ $rc != 0 ]; then
			die "benchmarks/qemu-plugins/build.sh failed (exit $rc)"
		fi
	fi
	# scripts/boot.sh -i makes the icount runs repeat exactly (fixed
	# initramfs, RTC and serial files; see there).
	command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 missing"
	debver=$(cat "$KSRC/.git/alloctag-debian-version")

	rm -rf "$work" "$logs" && mkdir -p "$work" "$logs" "$RESULTS"
	meta_hdr=date,commit,inputs,kernel,debian_source,qemu,accel,icount,mem_mib,vcpus,harness_args,row,kernel_variant,boot_args,run
	echo "$meta_hdr,rep,bench,arg,n,kind,total_ns,ns_per_op" >"$work/micro.csv"
	echo "$meta_hdr,perf,rep,workload,events,ops,elapsed_ns,ns_per_op,task_clock_ns,page_faults,context_switches" >"$work/perf.csv"
	echo "$meta_hdr,init_ns,memtotal_kb,memfree_kb,memavail_kb,page_ext_bytes,percpu_kb,slab_kb,kernel_kb,reserved_kb" >"$work/boot.csv"
	echo "date,commit,inputs,kernel_variant,row,boot_args,reason" >"$work/skipped.csv"
	echo "$meta_hdr,cache_model,bench,arg,n,kind,ops,accesses,lines,l1_miss,l2_miss,op_lines" >"$work/cachesim.csv"
	# The boots, for progress.
	per_row=$((2 + TRAJS + $(echo $MEMS | wc -w) * (2 + TCG_BOOTS)))
	[ -z "$cachesim" ] || per_row=$((per_row + 2))
	nboots=$((total * per_row)) boots=0
}

mib() { case $1 in *G) echo $(( ${1%G} * 1024 )) ;; *M) echo "${1%M}" ;; *) echo "$1" ;; esac; }

progress() { # ROW WHAT
	boots=$((boots + 1))
	printf '[bench] %d/%d  %-17s %s  (%ss elapsed)\n' "$boots" "$nboots" "$1" "$2" \
		"$(( $(date +%s) - t0 ))" >&2
}

# boot_run ROW KERNEL ARGS MEM ICOUNT RUN REF ENABLED PHASES: one guest boot.
# Appends its rows to the CSVs; returns 3 if the row must be skipped.
boot_run() {
	local row=$1 kernel=$2 args=$3 mem=$4 icount=$5 run=$6 ref=$7 en=$8 phases=$9
	local out=$logs/$row-$mem-$run rc=0 iflag="" imode=off date meta timeout=3600
	local qextra=${QEMU_EXTRA:-}
	rm -f "$out.data"
	[ "$icount" = 1 ] && iflag=-i imode=shift=0,sleep=off
	local append=() hargs=$HARNESS_ARGS
	[ "$icount" = 1 ] || hargs="$hargs $TCG_ARGS"
	hargs=$(echo $hargs)
	[ -n "$hargs" ] && append=(-A "$hargs")
	[ "$args" != - ] && append+=(-A "$args")
	scripts_env=(-e "REPS=$REPS" -e "MICRO_N=$MICRO_N" -e "PF_ROUNDS=$PF_ROUNDS"
		-e "FORKS=$FORKS" -e "HB_LOOPS=$HB_LOOPS" -e "WS_N=$WS_N" -e "CACHE_N=$CACHE_N"
		-e "FILES_N=$FILES_N" -e "SPAWNS=$SPAWNS" -e "STREAM_MIB=$STREAM_MIB"
		-e "TRAJ=${TRAJ:-1}")
	[ "$phases" = boot ] && scripts_env+=(-e REPS=1)
	if [ "$phases" = cache ]; then
		rm -f "$out.cache.csv"
		qextra="$qextra -plugin $cachesim,out=$out.cache.csv,$CACHE_GEOM"
	fi
	date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	QEMU_EXTRA=$qextra "$TOP/scripts/boot.sh" -k "$kernel" -m "$mem" -s 1 -a tcg $iflag -q -t "$timeout" $(row_qemu "$row") \
		-o "$out" ${append[@]+"${append[@]}"} "${scripts_env[@]}" -- \
		/bench/bench-guest.sh "$ref" "$en" "$phases" >/dev/null 2>"$out.err" || rc=$?
	if [ $rc = 3 ] && grep -q '^@@SKIP' "$out/guest.log"; then
		reason=$(sed -n 's/^@@SKIP //p' "$out/guest.log" | head -1)
		echo "$date,$commit,$inputs,$kernel,$row,\"$args\",\"$reason\"" >>"$work/skipped.csv"
		return 3
	fi
	if [ $rc != 0 ]; then
		cat "$out.err" >&2
		tail -20 "$out/guest.log" >&2
		die "$row ($run, $mem): guest run failed with status $rc; logs in $out"
	fi
	local kver
	kver=$(sed -n 's/^@@KERNEL //p' "$out/guest.log")
	meta="$date,$commit,$inputs,$kver,$debver,$qemu,$(cat "$out/accel"),\"$imode\",$(mib "$mem"),1,\"${hargs:--}\",$row,$kernel,\"$args\",$run"
	local pver
	pver=$(sed -n 's/^@@PERFVERSION \([^ ]*\).*/\1/p' "$out/guest.log")
	awk -v m="$meta" -v pv="${pver:-$perf_host_version}" -v dir="$work" '
		function pct(x) { return sprintf("%d.%02d", int(x / 100), x % 100) }
		$1 == "@@MICRO" { printf "%s,%s,%s,%s,%s,%s,%s,%s\n", m, $2, $3, $4, $5, $6, $7,
			pct($8) >> (dir "/micro.csv") }
		$1 == "@@PERF" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", m, pv, $2, $3, $4,
			$5, $6, pct($7), $8, $9, $10 >> (dir "/perf.csv") }
		$1 == "@@BOOT" { printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", m, $2, $3, $4, $5, $6,
			$7, $8, $9, $10 >> (dir "/boot.csv") }
	' "$out/guest.log"
	if [ "$phases" = cache ]; then
		# The plugin's windows, in order, are the guest's @@CACHE lines.
		[ -s "$out.cache.csv" ] || die "$row ($run): the cachesim plugin wrote no $out.cache.csv"
		local nwin ncache
		nwin=$(($(wc -l <"$out.cache.csv") - 1))
		ncache=$(grep -c '^@@CACHE' "$out/guest.log" || true)
		[ "$nwin" = "$ncache" ] ||
			die "$row ($run): $nwin cachesim windows for $ncache @@CACHE lines; logs in $out"
		grep '^@@CACHE' "$out/guest.log" | paste -d' ' - <(tail -n +2 "$out.cache.csv" | tr , ' ') |
			awk -v m="$meta" -v g="\"$CACHE_GEOM\"" '$20 != "stop" { bad = 1; exit }
				{ printf "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", m, g, $2, $3, $4, $5,
					$9, $10, $11, $12, $13, $18 }
				END { exit bad }' >>"$work/cachesim.csv" ||
			die "$row ($run): a cachesim window did not end at its STOP marker"
		cat "$out.cache.csv" >>"$out.data"
	fi
	grep '^@@[A-Z]' "$out/guest.log" | grep -v '^@@SKIP' >>"$out.data" || true
}

# same_data ROW WHAT A B: the two icount runs must agree exactly.
same_data() {
	if ! cmp -s "$3.data" "$4.data"; then
		diff "$3.data" "$4.data" >&2 || true
		die "$1: the two icount runs of '$2' differ (icount runs must repeat exactly); logs: $3 $4"
	fi
}

step_measure() {
	local ref en base i mem skip
	ref=$(matrix_field "$row" ref)
	en=$(matrix_field "$row" enabled)
	base=$boots
	skip=0
	for i in 1 2; do
		progress "$row" "perf + micro, icount run $i/2, 1G"
		boot_run "$row" "$kernel" "$args" 1G 1 "icount-$i" "$ref" "$en" "perf micro charged" || {
			[ $? = 3 ] && skip=1 && break; exit 1; }
	done
	if [ $skip = 1 ]; then
		log "$row: skipped: $(sed -n 's/^@@SKIP //p' "$logs/$row-1G-icount-1/guest.log")"
		boots=$((base + per_row))
		python3 "$bdir/csvrows.py" merge "$RESULTS" "$work" "$row"
		return
	fi
	same_data "$row" "perf + micro" "$logs/$row-1G-icount-1" "$logs/$row-1G-icount-2"
	for i in $(seq 2 "$TRAJS"); do
		progress "$row" "perf, icount, trajectory $i/$TRAJS, 1G"
		TRAJ=$i boot_run "$row" "$kernel" "$args" 1G 1 "icount-t$i" "$ref" "$en" perf
	done
	progress "$row" "perf + micro, tcg wall time, $REPS repeats, 1G"
	boot_run "$row" "$kernel" "$args" 1G 0 tcg-1 "$ref" "$en" "perf micro charged"
	if [ -n "$cachesim" ]; then
		for i in 1 2; do
			progress "$row" "memory traffic (cachesim), icount run $i/2, 1G"
			boot_run "$row" "$kernel" "$args" 1G 1 "cache-$i" "$ref" "$en" cache
		done
		same_data "$row" "cachesim" "$logs/$row-1G-cache-1" "$logs/$row-1G-cache-2"
	fi
	for mem in $MEMS; do
		for i in 1 2; do
			progress "$row" "boot, icount run $i/2, $mem"
			boot_run "$row" "$kernel" "$args" "$mem" 1 "icount-$i" "$ref" "$en" boot
		done
		same_data "$row" "boot $mem" "$logs/$row-$mem-icount-1" "$logs/$row-$mem-icount-2"
		for i in $(seq "$TCG_BOOTS"); do
			progress "$row" "boot, tcg run $i/$TCG_BOOTS, $mem"
			boot_run "$row" "$kernel" "$args" "$mem" 0 "tcg-$i" "$ref" "$en" boot
		done
	done
	python3 "$bdir/csvrows.py" merge "$RESULTS" "$work" "$row"
	log "$row: merged into $RESULTS"
}

# The link-tags timing (benchmarks/link-tags, owned there).
step_finish() {
	if [ -x "$bdir/link-tags/bench.sh" ]; then
		log "link-tags benchmark"
		local lt_reps=11
		[ "$QUICK" = 1 ] && lt_reps=3
		REPEATS=$lt_reps "$bdir/link-tags/bench.sh" "$work/link-tags.tsv" ||
			log "link-tags benchmark failed; left out"
	fi

	[ -f "$work/link-tags.tsv" ] && cp "$work/link-tags.tsv" "$RESULTS/link-tags.tsv.tmp" &&
		mv "$RESULTS/link-tags.tsv.tmp" "$RESULTS/link-tags.tsv"
	log "done in $(( $(date +%s) - t0 ))s: $RESULTS/*.csv; tables: python3 -m benchmarks.report $RESULTS (make report)"
}

measure bench
