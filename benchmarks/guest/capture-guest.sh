#!/bin/sh
# Guest side of 'make capture' (runs as /bench/capture-guest.sh).  Context
# capture end to end, and what it costs, on a kernel with tracefs:
#   @@CAPCOST SITE MODE N TOTAL_NS   one of allocbench's pairs at SITE (page:
#       an order-0 page at the module call site, kpage: one at
#       skb_page_frag_refill()'s, kmalloc: kmalloc(64) at the module's),
#       MODE none (no flag), flag (capture set, events not enabled), perf
#       (capture set, perf record -g taking both events), nodes (nodes
#       set), other-capture or other-nodes (that flag set on dup_mm()'s
#       tag, which the loops never touch, and none on theirs); under
#       -icount TOTAL_NS counts instructions.
#   @@TAG BYTES CALLS                  the captured tag's line, before and
#                                      after the workload
#   @@EVENTS N BYTES                   alloc_tag_mem_alloced events recorded
#   @@STACK BYTES EVENTS FOLDED        the recorded stacks, folded: the
#       command, then the frames from the outermost in, ';'-separated
#   @@ALLOCTOP VIEW CSV-ROW            alloctop -b -c over a mixed workload
#       (tmpfs writes, a walk of sysfs, forks): VIEW dir (grouped by
#       top-level directory) or site (the sites that changed most), its
#       header row first
# Usage: capture-guest.sh FILE FUNCTION   (the kernel call site captured
# while the workload runs; environment: COST_N, PERF_N, WORK_MIB, TOP_N)
set -eu
file=$1 func=$2
COST_N=${COST_N:-20000}
PERF_N=${PERF_N:-2000}
WORK_MIB=${WORK_MIB:-8}
TOP_N=${TOP_N:-15}
bench=$(cd "$(dirname "$0")" && pwd)
at=/guest/progs/alloctop
run=/sys/kernel/debug/allocbench/run

die() { echo "@@SKIP $*"; exit 3; }
t=/sys/kernel/tracing
mount -t tracefs nodev $t 2>/dev/null || true
[ -d $t/events/alloc_tag ] || die "no alloc_tag events in tracefs"
tar -xf "$bench/perf-root.tar" -C /
echo "@@KERNEL $(uname -r)"
echo "@@PERFVERSION $(perf version | awk '{ print $3 }')"

# --- the flags' cost, at allocbench's three sites -------------------------------
insmod /modules/allocbench.ko
echo 1 >/proc/sys/net/core/high_order_alloc_disable
sites="page:0 kpage:0 kmalloc:64"
cost() { # SITE:ARG MODE N
	echo "${1%:*} ${1#*:} $3" >$run
	set -- "${1%:*}" "$2" $(cat $run)
	echo "@@CAPCOST $1 $2 $5 $7"
}
costs() { # MODE
	for site in $sites; do
		cost "$site" "$1" "$COST_N"
	done
}
# FLAG on the measured sites' tags (-S sets it, -C clears it)
flag() { # -S|-C FLAG
	$at "$1" "$2" -m allocbench >/dev/null &&
		$at "$1" "$2" -f skb_page_frag_refill >/dev/null ||
		die "alloctop $1 $2 on the measured sites failed"
}
# FLAG on a tag of the kernel's that no loop allocates at
other() { # -S|-C FLAG
	$at "$1" "$2" -f dup_mm >/dev/null || die "alloctop $1 $2 -f dup_mm failed"
}
costs none
flag -S capture
for site in $sites; do
	cost "$site" flag "$COST_N"
	perf record -q -e alloc_tag:alloc_tag_mem_alloced -e alloc_tag:alloc_tag_mem_freed \
		-g -a -o /tmp/cost.data -- sh -c "echo ${site%:*} ${site#*:} $PERF_N >$run" 2>/dev/null
	set -- $(cat $run)
	echo "@@CAPCOST ${site%:*} perf $3 $5"
done
flag -C capture
flag -S nodes
costs nodes
flag -C nodes
for f in capture nodes; do
	other -S $f
	costs other-$f
	other -C $f
done
echo 0 >/proc/sys/net/core/high_order_alloc_disable
rmmod allocbench

# --- one kernel call site captured while a workload runs ------------------------
n=$($at -S capture -F "$file" -f "$func" 2>&1) || die "no call site $file $func ($n)"
line() { awk -v f="$file:" -v fn="func:$func" 'index($3, f) == 1 && $0 ~ fn " " { b += $1; c += $2 }
	END { printf "%d %d\n", b, c }' /proc/allocinfo; }
echo "@@TAG $(line)"
mkdir -p /tmp/cap
perf record -q -e alloc_tag:alloc_tag_mem_alloced -g -a -o /tmp/cap.data -- sh -c "
	dd if=/dev/zero of=/tmp/cap/a bs=64k count=$((WORK_MIB * 16)) 2>/dev/null
	cp /tmp/cap/a /tmp/cap/b
	cat /tmp/cap/a >/tmp/cap/c
	head -c $((WORK_MIB * 262144)) /tmp/cap/a >/tmp/cap/d" 2>/dev/null
echo "@@TAG $(line)"
$at -C capture -F "$file" -f "$func" >/dev/null
# Fold: a sample's header line (command, event, the event's fields), then
# its frames innermost first, one a line (address, symbol), then a blank
# line; frames perf cannot name (user space without symbols) are left out.
perf script -i /tmp/cap.data -F comm,event,trace,ip,sym 2>/dev/null | awk '
	function flush() {
		if (head == "") return
		n++; total += bytes
		w[stack] += bytes; e[stack]++
		head = ""
	}
	/alloc_tag_mem_alloced/ {
		flush()
		head = $1; stack = $1; bytes = 0
		for (i = 1; i <= NF; i++) if ($i ~ /^bytes=/) bytes = substr($i, 7)
		frames = ""
		next
	}
	NF == 0 { if (head != "") { stack = head frames; flush() } next }
	head != "" && $NF != "[unknown]" { frames = ";" $NF frames }
	END {
		if (head != "") { stack = head frames; flush() }
		printf "@@EVENTS %d %d\n", n, total
		for (s in w) printf "@@STACK %d %d %s\n", w[s], e[s], s
	}'

# --- alloctop -b: a snapshot of a workload, by category ------------------------
# The workload runs until both snapshots are taken, and keeps some of what it
# allocates: files written to tmpfs (four kept, the oldest replaced), sysfs
# walked (its inodes and dentries stay cached), processes forked.  Each
# snapshot's second iteration shows the change over it.
mkdir -p /tmp/top
(
	i=0
	while :; do
		i=$((i + 1))
		dd if=/dev/zero of=/tmp/top/f$((i % 4)) bs=64k count=32 2>/dev/null
		find /sys -maxdepth 4 >/dev/null 2>&1 || true
		for _ in 1 2 3 4; do sh -c :; done
	done
) &
work=$!
snapshot() { # VIEW ALLOCTOP-ARGS...
	v=$1
	shift
	$at -b -c -n 2 -d 1 "$@" >/tmp/top.csv || die "alloctop -b -c $* failed"
	awk -v v="$v" 'NR == 1 || $1 ~ /^2,/ { print "@@ALLOCTOP " v " " $0 }' /tmp/top.csv
}
sleep 1
snapshot dir -g dir -l 0
snapshot site -s delta -l "$TOP_N"
kill $work
wait $work 2>/dev/null || true
