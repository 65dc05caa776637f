#!/bin/sh
# Switch tags off before a measurement: bench.tag_off=SPEC[,SPEC...] on
# the kernel command line (a matrix row's boot arguments), each SPEC
# func:NAME or mod:NAME, through alloctop -S off (the series'
# ALLOCINFO_IOC_SET_FLAGS).  Run once allocbench is loaded: a module's load
# clears the flags of its tags.  Nothing to do without bench.tag_off; exit
# 1, saying why, when a SPEC is malformed or matches nothing.
set -eu
specs=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^bench\.tag_off=//p')
for spec in $(echo "$specs" | tr ',' ' '); do
	case $spec in
	func:?*) opt=-f ;;
	mod:?*) opt=-m ;;
	*) echo "tag-off.sh: '$spec' is neither func:NAME nor mod:NAME" >&2; exit 1 ;;
	esac
	/guest/progs/alloctop -S off "$opt" "${spec#*:}" >/dev/null ||
		{ echo "tag-off.sh: alloctop -S off $opt ${spec#*:} failed" >&2; exit 1; }
done
