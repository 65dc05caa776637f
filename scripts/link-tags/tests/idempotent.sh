#!/bin/sh
# A second run changes nothing: same bytes, same map, file not rewritten.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
f=$T/vmlinux
"$LINK_TAGS" -q "$f"
cp "$f" "$T/first"
cp "$f.tagmap" "$T/first.tagmap"
inode=$(ls -i "$f" | awk '{ print $1 }')
"$LINK_TAGS" "$f" >"$T/summary"
cmp "$f" "$T/first" || fail "second run changed bytes"
cmp "$f.tagmap" "$T/first.tagmap" || fail "second run changed the map"
grep -q ', 0 updated$' "$T/summary" || fail "$(cat "$T/summary")"
[ "$(ls -i "$f" | awk '{ print $1 }')" = "$inode" ] ||
	fail "an unchanged file was rewritten"
# a fresh build indexed from scratch gives the same bytes again
build_vmlinux "$T/again"
"$LINK_TAGS" -q "$T/again"
cmp "$T/again" "$T/vmlinux" || fail "same input gave different output"
no_leftovers "$T"
