#!/bin/sh
# The layout comes from the command line: a 48-byte tag with a 32-bit index
# at offset 44 and the fields reordered gives the same maps as the default.
set -eu
. "$TESTS_DIR/lib/common.sh"

ALT="--tag-size 48 --index-offset 44 --index-width 4 --index-bits 20 --fields 16,24,8,0"
mkdir "$T/ko"
build_vmlinux "$T/vmlinux" -DALT_LAYOUT
build_ko "$T/ko/fixmod.ko" -DALT_LAYOUT
cp "$T/vmlinux" "$T/vmlinux.orig"

# the default layout does not fit these files
expect_fail "$T/vmlinux" "tags take 336 bytes, not a multiple of the tag size 40"

"$LINK_TAGS" $ALT "$T/vmlinux" >"$T/summary"
grep -q 'vmlinux: 7 tags, indices 2..8, 4 bits needed, 20 bits available, module reserve 0, headroom 1048567, 7 updated$' "$T/summary" ||
	fail "summary: $(cat "$T/summary")"
diff -u "$GOLD/vmlinux.tagmap" "$T/vmlinux.tagmap" || fail "vmlinux map"
start=$(($(sym_value "$T/vmlinux" __start_alloc_tags) - $(sec_field "$T/vmlinux" .data addr)))
got=$(indices "$T/vmlinux" .data "$start" 7 48 44 4)
[ "$got" = "2 3 4 5 6 7 8" ] || fail "indices: $got"
only_index_bytes "$T/vmlinux.orig" "$T/vmlinux" \
	"$(($(sec_field "$T/vmlinux" .data offset) + start))" 7 48 44 4

"$LINK_TAGS" -q $ALT "$T/ko/fixmod.ko"
diff -u "$GOLD/fixmod.ko.tagmap" "$T/ko/fixmod.ko.tagmap" || fail "module map"
got=$(indices "$T/ko/fixmod.ko" .data "$(sym_value "$T/ko/fixmod.ko" __start_alloc_tags)" 7 48 44 4)
[ "$got" = "0 1 2 3 4 5 6" ] || fail "module indices: $got"
