#!/bin/sh
# Set per-tag flags before a measurement: bench.tag_FLAG=SPEC[,SPEC...] on
# the kernel command line (a matrix row's boot arguments), FLAG off or
# nodes, each SPEC func:NAME or mod:NAME, through alloctop -S FLAG (the
# series' ALLOCINFO_IOC_SET_FLAGS).  Run once allocbench is loaded: a
# module's load clears the flags of its tags.  Nothing to do without a
# bench.tag_ argument; exit 1, saying why, when a SPEC is malformed or
# matches nothing, or nodes is asked of a boot with fewer than two nodes
# with memory.
set -eu
for flag in off nodes; do
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
		/guest/progs/alloctop -S $flag "$opt" "${spec#*:}" >/dev/null ||
			{ echo "tag-flags.sh: alloctop -S $flag $opt ${spec#*:} failed" >&2; exit 1; }
	done
done
