#!/bin/sh
# On a copy of a real kernel build, when one is around (skip otherwise):
# every tag between the symbols gets its index, only index bytes change,
# no symbol moves, a second run changes nothing.  The layout comes from
# the build's include/generated/alloc_tag_layout.h.
# LINK_TAGS_KBUILD names the build directory (default: kernel-fork in the
# project's build directory, $BUILD or ~/.cache/alloctag-fork/build).
set -eu
. "$TESTS_DIR/lib/common.sh"
need nm

kb=${LINK_TAGS_KBUILD:-${BUILD:-${XDG_CACHE_HOME:-$HOME/.cache}/alloctag-fork/build}/kernel-fork}
[ -f "$kb/vmlinux" ] || skip "no kernel build at $kb"
hdr=$kb/include/generated/alloc_tag_layout.h
[ -f "$hdr" ] || skip "$kb has no alloc_tag_layout.h (profiling off?)"
cp "$kb/vmlinux" "$T/vmlinux"
cp "$T/vmlinux" "$T/vmlinux.orig"
nm "$T/vmlinux" >"$T/nm.before"
grep -q ' __start_alloc_tags$' "$T/nm.before" || skip "$kb/vmlinux has no allocation tags"

def() { awk -v n="$1" '$1 == "#define" && $2 == n { print $3 }' "$hdr"; }
size=$(def ALLOC_TAG_SIZE) off=$(def ALLOC_TAG_IDX_OFFSET) width=$(def ALLOC_TAG_IDX_BYTES)
layout="--tag-size $size --index-offset $off --index-width $width"
layout="$layout --fields $(def ALLOC_TAG_LINENO_OFFSET),$(def ALLOC_TAG_MODNAME_OFFSET),$(def ALLOC_TAG_FUNCTION_OFFSET),$(def ALLOC_TAG_FILENAME_OFFSET)"
n=$(( ($(sym_value "$T/vmlinux" __stop_alloc_tags) - $(sym_value "$T/vmlinux" __start_alloc_tags)) / size ))
# shellcheck disable=SC2086
"$LINK_TAGS" $layout --module-reserve 4096 "$T/vmlinux" >"$T/summary"
grep -q "vmlinux: $n tags, indices 2..$((n + 1)), " "$T/summary" ||
	fail "summary: $(cat "$T/summary")"
[ "$(grep -vc '^#' "$T/vmlinux.tagmap")" -eq "$n" ] || fail "map lines"
at=$(tags_at "$T/vmlinux")
only_index_bytes "$T/vmlinux.orig" "$T/vmlinux" "$at" "$n" "$size" "$off" "$width"
nm "$T/vmlinux" | cmp -s - "$T/nm.before" || fail "symbols changed"
got=$(indices "$T/vmlinux" "$at" "$n" "$size" "$off" "$width" |
	tr ' ' '\n' | awk '$1 != NR + 1 { bad++ } END { print bad + 0 }')
[ "$got" -eq 0 ] || fail "$got tags read back a wrong index"
cp "$T/vmlinux" "$T/vmlinux.once"
# shellcheck disable=SC2086
"$LINK_TAGS" -q $layout "$T/vmlinux"
cmp "$T/vmlinux" "$T/vmlinux.once" || fail "second run changed vmlinux"
cat "$T/summary"
