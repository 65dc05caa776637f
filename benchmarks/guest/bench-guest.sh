#!/bin/sh
# Guest side of the benchmarks (runs as /bench/bench-guest.sh under busybox
# sh).  Prints machine-readable "@@" lines for benchmarks/run.sh:
#   @@REF REF ENABLED                    representation found in this boot
#   @@SKIP REASON                        the row's representation is missing
#   @@BOOT INIT_NS MEMTOTAL_KB MEMFREE_KB MEMAVAIL_KB PAGE_EXT_BYTES
#          PERCPU_KB SLAB_KB KERNEL_KB RESERVED_KB
#          (KERNEL: code, rwdata, rodata and bss of the boot's "Memory:"
#          line; RESERVED: its reserved memory)
#   @@MICRO REP MODE ARG N KIND TOTAL_NS NS_PER_OP_X100
#          (phase charged: MODE_cg, its MODE run in a memory cgroup)
#   @@CACHE MODE ARG N KIND TOTAL_NS NS_PER_OP_X100   one cachesim window
#   @@PERF REP WORKLOAD EVENTS OPS ELAPSED_NS NS_PER_OP_X100 TASK_CLOCK_NS FAULTS CSW
# Usage: bench-guest.sh REF ENABLED PHASE...
#   (phases: boot micro perf cache charged; charged last, see there)
#   REF      none (profiling compiled out), pointer, flags, page_ext
#   ENABLED  expected /proc/sys/vm/mem_profiling (0 or 1; "-" for none)
# Environment: REPS (repeats of micro, perf and charged, default 1),
# MICRO_N (operations for the order-0 page and slab loops, default 100000),
# WS_N (pages of the working-set runs, default 65536: 256 MiB of pages,
# 4 MiB of struct page), CACHE_N (operations of a hot cachesim window),
# PF_ROUNDS, FORKS, HB_LOOPS, FILES_N, SPAWNS, STREAM_MIB (workload sizes),
# TRAJ (the perf phase's trajectory, default 1: trajectory K > 1 pauses
# (K - 1) * 1733 us before each workload, which starts it at another phase
# of the timer tick and so takes another path through the scheduler; the
# kernel and the work are the same).
# Every workload but micro is timed in the guest with CLOCK_MONOTONIC
# (bench/workload and the other programs of benchmarks/progs), which
# under -icount counts its instructions exactly.
set -eu
want_ref=$1 want_enabled=$2
shift 2
REPS=${REPS:-1}
MICRO_N=${MICRO_N:-100000}
WS_N=${WS_N:-65536}
CACHE_N=${CACHE_N:-10000}
PF_ROUNDS=${PF_ROUNDS:-40}
FORKS=${FORKS:-1000}
HB_LOOPS=${HB_LOOPS:-20}
FILES_N=${FILES_N:-2000}
SPAWNS=${SPAWNS:-200}
STREAM_MIB=${STREAM_MIB:-64}
TRAJ=${TRAJ:-1}
bench=$(cd "$(dirname "$0")" && pwd)

# Meminfo first: as close to "right after boot" as the guest gets.
meminfo() { awk -v k="$1:" '$1 == k { print $2 }' /proc/meminfo; }
memtotal=$(meminfo MemTotal) memfree=$(meminfo MemFree)
memavail=$(meminfo MemAvailable) percpu=$(meminfo Percpu) slab=$(meminfo Slab)

# Which representation is this boot running?
ref=none enabled=-
if [ -f /proc/sys/vm/mem_profiling ]; then
	enabled=$(cat /proc/sys/vm/mem_profiling)
	ref=missing
	if [ -f /proc/sys/vm/mem_profiling_ref ]; then
		ref=$(cat /proc/sys/vm/mem_profiling_ref)
	elif [ -f /proc/sys/vm/mem_profiling_compressed ]; then
		# Stock 7.3: pointers, or its compressed form in page flags.
		ref=pointer
		[ "$(cat /proc/sys/vm/mem_profiling_compressed)" = 0 ] || ref=flags
	fi
fi
echo "@@KERNEL $(uname -r)"
echo "@@REF $ref $enabled"
if [ "$ref" != "$want_ref" ]; then
	if [ "$ref" = missing ]; then
		echo "@@SKIP representation not in this kernel (no /proc/sys/vm/mem_profiling_ref)"
	else
		echo "@@SKIP representation not in this kernel (asked for $want_ref, running $ref)"
	fi
	exit 3
fi
if [ "$want_enabled" != "$enabled" ]; then
	echo "@@SKIP profiling state is '$enabled', the row wants '$want_enabled'"
	exit 3
fi

phase_boot() {
	# printk time of "Run /init" in ns, from "[  S.UUUUUU] Run /init ...".
	init_ns=$(dmesg | awk '/Run \/init as init process/ {
		s = $0; sub(/\].*/, "", s); sub(/.*\[ */, "", s); split(s, t, ".")
		sub(/^0+/, "", t[1]); sub(/^0+/, "", t[2])  # busybox: no octal
		printf "%.0f\n", t[1] * 1000000000 + t[2] * 1000; exit }')
	page_ext=$(dmesg | awk '/allocated [0-9]+ bytes of page_ext/ {
		for (i = 1; i <= NF; i++) if ($i == "allocated") b += $(i + 1) }
		END { printf "%d\n", b }')
	# "Memory: 989436K/1048056K available (14336K kernel code, 2345K
	# rwdata, 4567K rodata, 1234K init, 890K bss, 58620K reserved, ...)"
	set -- $(dmesg | awk '/Memory: [0-9]+K\/[0-9]+K available/ {
		for (i = 1; i <= NF; i++) {
			v = $i; sub(/K$/, "", v); sub(/^\(/, "", v)
			w = $(i + 1); sub(/,$/, "", w)
			if ((w == "kernel" || w == "rwdata" || w == "rodata" ||
			     w == "bss") && v ~ /^[0-9]+$/) k += v
			if (w == "reserved" && v ~ /^[0-9]+$/) r = v
		}
		printf "%d %d\n", k, r; exit }')
	echo "@@BOOT ${init_ns:-0} $memtotal $memfree $memavail $page_ext" \
		"${percpu:-0} ${slab:-0} ${1:-0} ${2:-0}"
}

micro_one() { # REP MODE ARG N [batch]
	rep=$1
	shift
	echo "$*" >/sys/kernel/debug/allocbench/run
	echo "@@MICRO $rep $(cat /sys/kernel/debug/allocbench/run)"
}

# kpage: order-0 frag pages, so that skb_page_frag_refill() is one
# alloc_page() at its kernel call site (net/core/sock.c).  A kernel
# without networking (no such sysctl; no benchmark kernel) has no kpage
# case: kpage_one runs nothing there.
kpage_ctl=/proc/sys/net/core/high_order_alloc_disable
kpage_on() {
	[ ! -f $kpage_ctl ] || echo "$1" >$kpage_ctl
}
kpage_one() { # REP ARG N [KIND]
	rep=$1
	shift
	[ ! -f $kpage_ctl ] || micro_one "$rep" kpage "$@"
}

# The vmstat worker's periodic folding of per-cpu counters (every
# vm.stat_interval seconds) lands inside some timed loops and not others,
# adding a few instructions an operation to the loops it lands in: the
# loops of micro, charged and cache run with it put off, and the
# workloads with the kernel's default.
vmstat_quiet() { # on|off
	f=/proc/sys/vm/stat_interval
	[ -f $f ] || return 0
	if [ "$1" = on ]; then
		stat_interval=$(cat $f)
		echo 100000 >$f
	else
		echo "$stat_interval" >$f
	fi
}

# allocbench, and the flags the row sets on tags (tag-flags.sh).
insmod_bench() {
	insmod /modules/allocbench.ko "$@"
	"$bench/tag-flags.sh" || { echo "@@SKIP a bench.tag_ flag could not be set"; exit 3; }
}

phase_micro() {
	insmod_bench
	kpage_on 1
	vmstat_quiet on
	n=$MICRO_N
	r=1
	while [ "$r" -le "$REPS" ]; do
		micro_one "$r" page 0 "$n"
		kpage_one "$r" 0 "$n"
		micro_one "$r" page 1 $((n / 2))
		micro_one "$r" page 2 $((n / 4))
		micro_one "$r" page 3 $((n / 4))
		micro_one "$r" page 0 "$n" batch
		micro_one "$r" bulk 16 "$n"
		micro_one "$r" vmalloc 16 "$n"
		for size in 8 64 96 192 256 1024 4096; do
			micro_one "$r" kmalloc "$size" "$n"
		done
		micro_one "$r" kmalloc 64 "$n" batch
		micro_one "$r" cache 64 "$n"
		micro_one "$r" cache 64 "$n" batch
		# The kernel's own objects' paths: dentry's 192 bytes and its
		# list_lru, accounted caches and kmalloc, a node's cache.
		micro_one "$r" cache 192 "$n"
		micro_one "$r" acache 192 "$n"
		micro_one "$r" kmalloc_acct 64 "$n"
		micro_one "$r" lru 192 "$n"
		micro_one "$r" node 192 "$n"
		micro_one "$r" page 0 "$WS_N" ws
		kpage_one "$r" 0 "$WS_N" ws
		r=$((r + 1))
	done
	vmstat_quiet off
	kpage_on 0
	rmmod allocbench
}

# charged_one REP MODE ARG N: MODE's hot loop, recorded as MODE_cg.
charged_one() {
	echo "$2 $3 $4" >/sys/kernel/debug/allocbench/run
	set -- "$1" $(cat /sys/kernel/debug/allocbench/run)
	rep=$1 mode=$2
	shift 2
	echo "@@MICRO $rep ${mode}_cg $*"
}

# The accounted slab cases again, charged: the shell moves into a child
# memory cgroup, where each object's obj_cgroup is charged on its
# allocation and uncharged on its free, on the same caches as micro's
# (which, as every other phase, runs in the root cgroup, where nothing
# is charged).  The first child cgroup turns memcg_kmem_online() on for
# the rest of the boot, root cgroup included, so this phase comes after
# every other one.  A kernel without the memory controller (no cgroup2
# with "memory" in cgroup.controllers) has none of these cases: nothing
# is run, nothing printed.
phase_charged() {
	cg=/sys/fs/cgroup
	grep -qw cgroup2 /proc/filesystems && [ -d $cg ] || return 0
	grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
	grep -qw memory $cg/cgroup.controllers || return 0
	echo +memory >$cg/cgroup.subtree_control
	mkdir $cg/bench
	insmod_bench
	echo $$ >$cg/bench/cgroup.procs
	vmstat_quiet on
	r=1
	while [ "$r" -le "$REPS" ]; do
		charged_one "$r" acache 192 "$MICRO_N"
		charged_one "$r" kmalloc_acct 64 "$MICRO_N"
		charged_one "$r" lru 192 "$MICRO_N"
		r=$((r + 1))
	done
	vmstat_quiet off
	echo $$ >$cg/cgroup.procs
	rmmod allocbench
	rmdir $cg/bench
}

# Under the cachesim plugin: one marked window a command, in this order
# (benchmarks/run.sh pairs the plugin's records with these lines).
phase_cache() {
	insmod_bench cachesim=1
	kpage_on 1
	vmstat_quiet on
	for cmd in "page 0 $CACHE_N" "kpage 0 $CACHE_N" \
		"page 0 $WS_N ws" "kpage 0 $WS_N ws"; do
		echo "$cmd" >/sys/kernel/debug/allocbench/run
		echo "@@CACHE $(cat /sys/kernel/debug/allocbench/run)"
	done
	vmstat_quiet off
	kpage_on 0
	rmmod allocbench
}

# perf stat -x, output: VALUE,UNIT,EVENT,...; print one event's value.
perf_value() { awk -F, -v e="$2" '$3 == e { print $1; exit }' "$1"; }

phase_perf() {
	if ! command -v perf >/dev/null 2>&1; then
		tar -xf "$bench/perf-root.tar" -C /
	fi
	# Hardware counters where they work, software events otherwise.
	perf stat -x, -e instructions -o /tmp/hw.txt true 2>/dev/null || true
	if grep -q '^[0-9]' /tmp/hw.txt 2>/dev/null; then
		kind=hw events=task-clock,page-faults,context-switches,instructions,cycles
	else
		kind=sw events=task-clock,page-faults,context-switches
	fi
	echo "@@PERFVERSION $(perf version 2>&1 | awk '{ print $3 }') $kind"
	# The file workload's own tmpfs, whatever the root file system is.
	wdir=/tmp/workload
	mkdir -p "$wdir"
	mount -t tmpfs none "$wdir"
	insmod_bench
	r=1
	while [ "$r" -le "$REPS" ]; do
		for w in micro messaging files spawn stream pagefault forkexit; do
			[ "$TRAJ" = 1 ] || "$bench/workload" pause $(((TRAJ - 1) * 1733))
			case $w in
			micro)
				ops=$MICRO_N
				perf stat -x, -e "$events" -o /tmp/ps.txt \
					sh -c "echo page 0 $ops >/sys/kernel/debug/allocbench/run"
				set -- $(cat /sys/kernel/debug/allocbench/run)
				elapsed=$5 per=$6 ;;
			messaging)
				# 2 groups of 20 senders and 20 receivers: 800 messages a loop.
				perf stat -x, -e "$events" -o /tmp/ps.txt \
					"$bench/workload" timed $((HB_LOOPS * 2 * 20 * 20)) \
					perf bench sched messaging -g 2 -l "$HB_LOOPS" >/tmp/out.txt
				set -- $(tail -1 /tmp/out.txt)
				ops=$2 elapsed=$3 per=$4 ;;
			files | spawn | stream)
				case $w in
				files) args="files $wdir $FILES_N" ;;
				spawn) args="spawn $SPAWNS" ;;
				stream) args="stream $STREAM_MIB" ;;
				esac
				# shellcheck disable=SC2086
				perf stat -x, -e "$events" -o /tmp/ps.txt \
					"$bench/workload" $args >/tmp/out.txt
				set -- $(cat /tmp/out.txt)
				ops=$2 elapsed=$3 per=$4 ;;
			pagefault)
				perf stat -x, -e "$events" -o /tmp/ps.txt \
					"$bench/pagefault" "$PF_ROUNDS" 1024 >/tmp/out.txt
				set -- $(cat /tmp/out.txt)
				ops=$(($2 * $3)) elapsed=$4 per=$5 ;;
			forkexit)
				perf stat -x, -e "$events" -o /tmp/ps.txt \
					"$bench/forkexit" "$FORKS" >/tmp/out.txt
				set -- $(cat /tmp/out.txt)
				ops=$2 elapsed=$3 per=$4 ;;
			esac
			tc=$(perf_value /tmp/ps.txt task-clock)
			tc=$(awk -v v="$tc" 'BEGIN { printf "%d\n", v * 1000000 + 0.5 }')
			pf=$(perf_value /tmp/ps.txt page-faults)
			cs=$(perf_value /tmp/ps.txt context-switches)
			echo "@@PERF $r $w $kind $ops $elapsed $per $tc $pf $cs"
		done
		r=$((r + 1))
	done
	rmmod allocbench
	umount "$wdir"
}

for p in "$@"; do
	[ "${charged:-}" != done ] ||
		{ echo "bench-guest.sh: phase $p after charged, which comes last" >&2; exit 1; }
	"phase_$p"
	[ "$p" != charged ] || charged=done
done
