#!/bin/sh
# Guest side of 'make capture's bpf unit (runs as /bench/bpf-guest.sh): the
# capture flag beside a BPF tool that follows one kmalloc() call site's
# objects through the kmem tracepoints, on allocbench's kmalloc(64) pair:
#   @@CAPCOST kmalloc MODE N TOTAL_NS   MODE none (no flag), flag (capture
#       set, events not enabled), perf (capture set, perf record -g taking
#       both events), other-capture (capture set on dup_mm()'s tag, which
#       the loop never touches, and none on its), bpf (no flag; bpfpair's
#       programs following the objects allocated in allocbench's text,
#       its last function left out) or
#       other-bpf (following those of dup_mm()'s text, or of the
#       function it is inlined in); under -icount
#       TOTAL_NS counts instructions.
#   @@BPF MODE STACKS LIVE              what bpfpair's maps held after it:
#       distinct stacks recorded, objects not seen freed
# Environment: COST_N, PERF_N.
set -eu
COST_N=${COST_N:-20000}
PERF_N=${PERF_N:-2000}
bench=$(cd "$(dirname "$0")" && pwd)
at=/guest/progs/alloctop
run=/sys/kernel/debug/allocbench/run

die() { echo "@@SKIP $*"; exit 3; }
mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
[ -d /sys/kernel/tracing/events/kmem/kmalloc ] || die "no kmem events in tracefs"
tar -xf "$bench/perf-root.tar" -C /
echo "@@KERNEL $(uname -r)"
echo "@@PERFVERSION $(perf version | awk '{ print $3 }')"
insmod /modules/allocbench.ko

cost() { # MODE
	echo "kmalloc 64 $COST_N" >$run
	set -- "$1" $(cat $run)
	echo "@@CAPCOST kmalloc $1 $4 $6"
}
capture() { # -S|-C FILTER...
	$at "$@" >/dev/null || die "alloctop $* failed"
}
cost none
capture -S capture -m allocbench
cost flag
perf record -q -e alloc_tag:alloc_tag_mem_alloced -e alloc_tag:alloc_tag_mem_freed \
	-g -a -o /tmp/cost.data -- sh -c "echo kmalloc 64 $PERF_N >$run" 2>/dev/null
set -- $(cat $run)
echo "@@CAPCOST kmalloc perf $3 $5"
capture -C capture -m allocbench
capture -S capture -f dup_mm
cost other-capture
capture -C capture -f dup_mm

bpf() { # MODE LO HI
	m=$1
	set -- $(/bench/bpfpair "$2" "$3" sh -c "echo kmalloc 64 $COST_N >$run")
	[ $# = 4 ] && [ "$1" = @@BPF ] && [ "$4" = 0 ] || die "bpfpair: $*"
	[ $m = other-bpf ] || [ "$2" -gt 0 ] || die "bpfpair recorded no stack at allocbench's kmalloc()"
	echo "@@BPF $m $2 $3"
	set -- $(cat $run)
	echo "@@CAPCOST kmalloc $m $3 $5"
}
# The first symbol's address above ADDR (addresses compare as strings of
# one length)
above() { sort /proc/kallsyms | awk -v a="$1" '$1 > a { print $1; exit }'; }
# allocbench's text from its first function to its last one (its exit
# function, which allocates nothing): no symbol need follow a module's
set -- $(awk '$4 == "[allocbench]" && ($2 == "t" || $2 == "T") { print $1 }' /proc/kallsyms |
	sort | sed -n '1p;$p')
[ $# = 2 ] && [ "$1" != "$2" ] || die "no text symbols of allocbench in /proc/kallsyms"
bpf bpf "$1" "$2"
# The text of dup_mm(), or of the function it is inlined in
set -- $(awk '$3 == "dup_mm" { f[1] = $1 } $3 == "copy_mm" { f[2] = $1 }
	$3 == "copy_process" { f[3] = $1 }
	END { for (i = 1; i <= 3; i++) if (i in f) { print f[i]; exit } }' /proc/kallsyms)
[ $# = 1 ] || die "no dup_mm, copy_mm or copy_process in /proc/kallsyms"
bpf other-bpf "$1" "$(above "$1")"
rmmod allocbench
