#!/bin/bash
# The series runs link-tags on vmlinux in the kernel build (modules are
# numbered by the loader): its tag map must cover exactly the tags between
# the start and stop symbols of System.map.
# Usage: scripts/tests/kernel/tagmap.sh VARIANT   (reads $BUILD/kernel-VARIANT)
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

kb=$BUILD/kernel-${1:?usage: tagmap.sh VARIANT}
# link-vmlinux.sh links (and indexes) vmlinux.unstripped, then strips it
map=$kb/vmlinux.unstripped.tagmap
size=$(awk '$2 == "ALLOC_TAG_SIZE" { print $3 }' "$kb/include/generated/alloc_tag_layout.h")
start=$(awk '$3 == "__start_alloc_tags" { print $1 }' "$kb/System.map")
stop=$(awk '$3 == "__stop_alloc_tags" { print $1 }' "$kb/System.map")
n=$(( (0x$stop - 0x$start) / size ))
echo "System.map: $n tags of $size bytes"
# Tag ids start at 2 (line 2, after the header) and run to n + 1.
[ "$n" -gt 100 ] && [ "$(grep -vc "^#" "$map")" = "$n" ] &&
	[ "$(sed -n 2p "$map" | cut -f1)" = 2 ] &&
	[ "$(tail -1 "$map" | cut -f1)" = $((n + 1)) ]
