#!/bin/sh
# --check, --dump, --map, --no-map, -q and --missing-ok.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
cp "$T/vmlinux" "$T/orig"

"$LINK_TAGS" --check "$T/vmlinux" >"$T/summary"
cmp "$T/vmlinux" "$T/orig" || fail "--check changed the file"
[ ! -e "$T/vmlinux.tagmap" ] || fail "--check wrote a map"
grep -q 'vmlinux: 7 tags, .*, 7 to update (--check)$' "$T/summary" ||
	fail "--check summary: $(cat "$T/summary")"

"$LINK_TAGS" --dump "$T/vmlinux" >"$T/dump0"
cmp "$T/vmlinux" "$T/orig" || fail "--dump changed the file"
[ "$(grep -v '^#' "$T/dump0" | cut -f1 | tr '\n' ' ')" = "0 0 0 0 0 0 0 " ] ||
	fail "--dump before indexing: $(cat "$T/dump0")"

"$LINK_TAGS" -q --map "$T/other.map" "$T/vmlinux" >"$T/out"
[ ! -s "$T/out" ] || fail "-q printed: $(cat "$T/out")"
[ ! -e "$T/vmlinux.tagmap" ] || fail "--map still wrote the default map"
diff -u "$GOLD/vmlinux.tagmap" "$T/other.map" || fail "--map content"

# what --dump reads back from the file equals the golden map
"$LINK_TAGS" --dump "$T/vmlinux" >"$T/dump1"
diff -u "$GOLD/vmlinux.tagmap" "$T/dump1" || fail "--dump after indexing"

build_vmlinux "$T/nomap"
"$LINK_TAGS" -q --no-map "$T/nomap"
[ ! -e "$T/nomap.tagmap" ] || fail "--no-map wrote a map"
cmp "$T/nomap" "$T/vmlinux" || fail "--no-map gave different bytes"

# a module without tags: an error, unless --missing-ok
(cd "$T" && echo 'int plain(void) { return 1; }' >plain.c && gcc -c plain.c)
expect_fail "$T/plain.o" "no alloc_tags section and no __start_alloc_tags/__stop_alloc_tags symbols"
"$LINK_TAGS" --missing-ok "$T/plain.o" >"$T/summary"
grep -q 'plain.o: no alloc tags, nothing to do' "$T/summary" || fail "--missing-ok: $(cat "$T/summary")"
[ ! -e "$T/plain.o.tagmap" ] || fail "--missing-ok wrote a map"
no_leftovers "$T"
