#!/bin/sh
# The layout comes from the command line: a 48-byte tag with a 32-bit index
# at offset 44 and the fields reordered gives the same map as the default.
set -eu
. "$TESTS_DIR/lib/common.sh"

ALT="--tag-size 48 --index-offset 44 --index-width 4 --index-bits 20 --fields 16,24,8,0"
build_vmlinux "$T/vmlinux" -DALT_LAYOUT
cp "$T/vmlinux" "$T/vmlinux.orig"

# the default layout does not fit this file
expect_fail "$T/vmlinux" "tags take 336 bytes, not a multiple of the tag size 40"

"$LINK_TAGS" $ALT "$T/vmlinux" >"$T/summary"
grep -q 'vmlinux: 7 tags, indices 2..8, 4 bits needed, 20 bits available, module reserve 0, headroom 1048567, 7 updated$' "$T/summary" ||
	fail "summary: $(cat "$T/summary")"
diff -u "$GOLD/vmlinux.tagmap" "$T/vmlinux.tagmap" || fail "vmlinux map"
at=$(tags_at "$T/vmlinux")
got=$(indices "$T/vmlinux" "$at" 7 48 44 4)
[ "$got" = "2 3 4 5 6 7 8" ] || fail "indices: $got"
only_index_bytes "$T/vmlinux.orig" "$T/vmlinux" "$at" 7 48 44 4
