#!/bin/sh
# Modules: tags in an alloc_tags section (gcc -c) and tags in .data between
# __start/__stop symbols (a .ko partial link) both get local indices 0..n-1
# and the same golden map; pointers come from RELA relocations.
set -eu
. "$TESTS_DIR/lib/common.sh"

mkdir "$T/obj" "$T/ko"
build_object "$T/obj/fixmod.ko"
build_ko "$T/ko/fixmod.ko"
want="link-tags: fixmod.ko: 7 tags, local indices 0..6 (loader rebases; count = 280 bytes / 40), 3 bits needed, 16 bits available, module limit 65534, headroom 65527, 6 updated"

for d in obj ko; do
	f=$T/$d/fixmod.ko
	cp "$f" "$f.orig"
	(cd "$T/$d" && "$LINK_TAGS" fixmod.ko) >"$T/summary"
	[ "$(cat "$T/summary")" = "$want" ] || fail "$d summary: $(cat "$T/summary")"
	diff -u "$GOLD/fixmod.ko.tagmap" "$f.tagmap" || fail "$d: map differs from golden"
	no_leftovers "$T/$d"
done

got=$(indices "$T/obj/fixmod.ko" alloc_tags 0 7)
[ "$got" = "0 1 2 3 4 5 6" ] || fail "obj indices: $got"
only_index_bytes "$T/obj/fixmod.ko.orig" "$T/obj/fixmod.ko" \
	"$(sec_field "$T/obj/fixmod.ko" alloc_tags offset)" 7

start=$(sym_value "$T/ko/fixmod.ko" __start_alloc_tags)
got=$(indices "$T/ko/fixmod.ko" .data "$start" 7)
[ "$got" = "0 1 2 3 4 5 6" ] || fail "ko indices: $got"
only_index_bytes "$T/ko/fixmod.ko.orig" "$T/ko/fixmod.ko" \
	"$(($(sec_field "$T/ko/fixmod.ko" .data offset) + start))" 7
