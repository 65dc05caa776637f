#!/bin/sh
# Set per-tag flags before a measurement: bench.tag_FLAG=SPEC[,SPEC...] on
# the kernel command line (a matrix row's boot arguments), FLAG off, nodes
# or fail, each SPEC func:NAME or mod:NAME, through alloctop -S FLAG (the
# series' ALLOCINFO_IOC_SET_FLAGS), or for fail alloctop -X always (the
# allocations of the tag fail, with no limit).  Run once allocbench is
# loaded: a module's load clears the flags of its tags.  bench.failslab=
# FUNCTION points failslab's stack trace filter at FUNCTION's text (every
# slab allocation then walks its stack, and fails if FUNCTION is on it).
# Nothing to do without a bench.tag_ or bench.failslab argument; exit 1,
# saying why, when a SPEC is malformed or matches nothing, nodes is asked
# of a boot with fewer than two nodes with memory, or failslab of a kernel
# without it.
set -eu
fn=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^bench\.failslab=//p')
if [ -n "$fn" ]; then
	d=/sys/kernel/debug/failslab
	[ -f $d/require-start ] ||
		{ echo "tag-flags.sh: bench.failslab: no $d/require-start" >&2; exit 1; }
	# FUNCTION's text: from its symbol to the next one above it
	set -- $(sort /proc/kallsyms | awk -v f="$fn" 's != "" && $1 > s { print $1; exit }
		s == "" && $3 == f { s = $1; print $1 }')
	[ $# = 2 ] || { echo "tag-flags.sh: bench.failslab: no $fn in /proc/kallsyms" >&2; exit 1; }
	# Every allocation passes the filter's other tests, then walks its stack
	echo 0x$1 >$d/require-start
	echo 0x$2 >$d/require-end
	echo N >$d/ignore-gfp-wait
	echo 1 >$d/interval
	echo -1 >$d/times
	echo 100 >$d/probability
fi
for flag in off nodes fail; do
	specs=$(tr ' ' '\n' </proc/cmdline | sed -n "s/^bench\.tag_$flag=//p")
	[ -n "$specs" ] || continue
	if [ $flag = nodes ]; then
		n=0
		[ ! -f /sys/devices/system/node/has_memory ] ||
			n=$(tr ',' '\n' </sys/devices/system/node/has_memory |
				awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n + 0 }')
		[ "$n" -ge 2 ] ||
			{ echo "tag-flags.sh: bench.tag_nodes on $n node(s) with memory" >&2; exit 1; }
	fi
	for spec in $(echo "$specs" | tr ',' ' '); do
		case $spec in
		func:?*) opt=-f ;;
		mod:?*) opt=-m ;;
		*) echo "tag-flags.sh: '$spec' is neither func:NAME nor mod:NAME" >&2; exit 1 ;;
		esac
		set=-S$flag
		[ $flag != fail ] || set=-Xalways
		/guest/progs/alloctop $set "$opt" "${spec#*:}" >/dev/null ||
			{ echo "tag-flags.sh: alloctop $set $opt ${spec#*:} failed" >&2; exit 1; }
	done
done
