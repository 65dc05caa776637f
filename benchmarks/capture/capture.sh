#!/bin/bash
# Context capture end to end ('make capture'), in two units, each booting
# a benchmark kernel with tracefs under QEMU TCG with -icount, in the
# page-flags form:
#   capture  the whole series (fork-bench-tracing), running
#            benchmarks/guest/capture-guest.sh: the per-tag flags' cost on
#            allocbench's page and kmalloc(64) pairs (no flag, capture set,
#            perf record -g taking its events, nodes set, either flag set on
#            another tag only), then one kernel call site captured with
#            perf record -g while files are written to tmpfs, its stacks
#            folded in the guest.  Writes the raw data to results/capture/:
#            cost.csv and stacks.csv (one row a folded stack, with the bytes
#            and events it took), each row with the run's metadata;
#            alloctop-dir.csv and alloctop-site.csv, alloctop -b -c's rows
#            over a mixed workload (by top-level directory; the sites that
#            changed most), the same metadata before them.
#   bpf      the series up to its per-tag control posting, with BPF
#            (posting-E-bench-tracing), running benchmarks/guest/bpf-guest.sh:
#            the kmalloc(64) pair with no flag, the capture flag on its tag
#            or another, and bpfpair's BPF programs on the kmem tracepoints
#            following its call site or another instead.  Writes
#            results/capture/bpf.csv, the same metadata first.
# 'make report' renders the tables and the flame graph.
# A unit is kept when its CSV was measured on the present inputs
# (capture_inputs, benchmarks/lib.sh).
# Environment: RESULTS, NO_BUILD=1, FULL=1 (capture again), CAPTURE_FILE and CAPTURE_FUNC (the call
# site; default mm/shmem.c shmem_alloc_folio, the tmpfs page tag), COST_N,
# PERF_N, WORK_MIB, TOP_N (see capture-guest.sh).
set -eu
. "$(dirname "$0")/../../scripts/lib.sh"
. "$(dirname "$0")/../lib.sh"
RESULTS=${RESULTS:-$TOP/results}
out=$RESULTS/capture
file=${CAPTURE_FILE:-mm/shmem.c}
func=${CAPTURE_FUNC:-shmem_alloc_folio}

step_units() { echo capture bpf; }
unit_kernel() { capture_kernel "$1"; }
unit_args() { echo "sysctl.vm.mem_profiling=1,compressed"; }
unit_inputs() { capture_inputs "$1"; }
unit_csv() { case $1 in capture) echo "$out/cost.csv" ;; bpf) echo "$out/bpf.csv" ;; esac; }
step_current() { [ "$(awk -F, 'NR == 2 { print $3 }' "$(unit_csv "$1")" 2>/dev/null)" = "$2" ]; }

# boot_unit UNIT GUEST-COMMAND...: boot UNIT's kernel with -icount, logs in
# $logdir; sets meta and hdr, the metadata every CSV row starts with
boot_unit() {
	local date rc kver pver debver unit=$1
	shift
	debver=$(cat "$KSRC/.git/alloctag-debian-version")
	logdir=$BUILD/capture/$unit
	rm -rf "$logdir"
	mkdir -p "$BUILD/capture" "$out"
	date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
	rc=0
	"$TOP/scripts/boot.sh" -k "$kernel" -m 1G -s 1 -a tcg -i -q -t 3600 -o "$logdir" \
		-A "nolapic_timer $args" \
		${COST_N:+-e COST_N="$COST_N"} ${PERF_N:+-e PERF_N="$PERF_N"} \
		${WORK_MIB:+-e WORK_MIB="$WORK_MIB"} ${TOP_N:+-e TOP_N="$TOP_N"} -- \
		"$@" >/dev/null || rc=$?
	if [ $rc != 0 ]; then
		tail -20 "$logdir/guest.log" >&2
		die "the $unit run failed with status $rc; logs in $logdir"
	fi
	g=$logdir/guest.log
	kver=$(sed -n 's/^@@KERNEL //p' "$g")
	pver=$(sed -n 's/^@@PERFVERSION //p' "$g")
	meta="$date,$commit,$inputs,$kver,$debver,$qemu,$(cat "$logdir/accel"),\"shift=0,sleep=off\",1024,1,$kernel,\"$args\",$pver"
	hdr=date,commit,inputs,kernel,debian_source,qemu,accel,icount,mem_mib,vcpus,kernel_variant,boot_args,perf
}

# cost_csv FILE: the guest's @@CAPCOST lines as FILE
cost_csv() {
	{
		echo "$hdr,site,mode,n,total_ns"
		awk -v m="$meta" '$1 == "@@CAPCOST" { printf "%s,%s,%s,%s,%s\n", m, $2, $3, $4, $5 }' "$g"
	} >"$1.tmp"
	[ "$(wc -l <"$1.tmp")" -gt 1 ] || die "no cost figure in $g"
}

step_measure() {
	case $1 in
	capture) measure_capture ;;
	bpf) measure_bpf ;;
	esac
}

measure_bpf() {
	log "$kernel: booting with -icount ($args); the kmalloc pair under the capture flag and BPF"
	boot_unit bpf /bench/bpf-guest.sh
	cost_csv "$out/bpf.csv"
	mv "$out/bpf.csv.tmp" "$out/bpf.csv"
	log "wrote $out/bpf.csv"
}

measure_capture() {
	local v f
	log "$kernel: booting with -icount ($args); capturing $file $func"
	boot_unit capture /bench/capture-guest.sh "$file" "$func"
	cost_csv "$out/cost.csv"
	{
		echo "$hdr,file,function,tag_bytes_before,tag_calls_before,tag_bytes_after,tag_calls_after,events,event_bytes,bytes,stack_events,stack"
		awk -v m="$meta" -v f="$file" -v fn="$func" '
			$1 == "@@TAG" { tag = tag "," $2 "," $3 }
			$1 == "@@EVENTS" { ev = $2 "," $3 }
			$1 == "@@STACK" { s = $4; for (i = 5; i <= NF; i++) s = s " " $i
				printf "%s,%s,%s%s,%s,%s,%s,\"%s\"\n", m, f, fn, tag, ev, $2, $3, s }' "$g"
	} >"$out/stacks.csv.tmp"
	for v in dir site; do
		awk -v m="$meta" -v h="$hdr" -v v="$v" '$1 == "@@ALLOCTOP" && $2 == v {
			sub(/^@@ALLOCTOP [a-z]+ /, "")
			print (n++ ? m : h) "," $0 }' "$g" >"$out/alloctop-$v.csv.tmp"
	done
	[ "$(wc -l <"$out/stacks.csv.tmp")" -gt 1 ] || die "no stack recorded in $g"
	for v in dir site; do
		[ "$(wc -l <"$out/alloctop-$v.csv.tmp")" -gt 1 ] || die "no alloctop $v snapshot in $g"
	done
	for f in cost stacks alloctop-dir alloctop-site; do
		mv "$out/$f.csv.tmp" "$out/$f.csv"
	done
	log "wrote $out/cost.csv, stacks.csv ($(($(wc -l <"$out/stacks.csv") - 1)) stacks), alloctop-dir.csv and alloctop-site.csv"
}

measure capture
