#!/bin/sh
# vmlinux-shaped ET_EXEC: indices 2.. in section order, golden map,
# exact summary line, and nothing but the index fields changes.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
cp "$T/vmlinux" "$T/vmlinux.orig"
(cd "$T" && "$LINK_TAGS" --module-reserve 100 vmlinux) >"$T/summary"
want="link-tags: vmlinux: 7 tags, indices 2..8, 4 bits needed, 16 bits available, module reserve 100, headroom 65427, 7 updated"
[ "$(cat "$T/summary")" = "$want" ] || fail "summary: $(cat "$T/summary")"

diff -u "$GOLD/vmlinux.tagmap" "$T/vmlinux.tagmap" || fail "map differs from golden"

at=$(tags_at "$T/vmlinux")
[ "$at" -gt $(($(sec_field "$T/vmlinux" .data offset))) ] ||
	fail "fixture: tags should not start .data"
got=$(indices "$T/vmlinux" "$at" 7)
[ "$got" = "2 3 4 5 6 7 8" ] || fail "indices read back: $got"
[ "$(indices "$T/vmlinux.orig" "$at" 7)" = "0 0 0 0 0 0 0" ] ||
	fail "fixture has nonzero index fields"

only_index_bytes "$T/vmlinux.orig" "$T/vmlinux" "$at" 7
[ "$(cmp -l "$T/vmlinux.orig" "$T/vmlinux" | wc -l)" -eq 7 ] ||
	fail "expected exactly 7 changed bytes"
no_leftovers "$T"
