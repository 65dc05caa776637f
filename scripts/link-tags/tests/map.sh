#!/bin/sh
# --map, -q, --check, and a warning for indices from another run.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
"$LINK_TAGS" -q --map "$T/other.map" "$T/vmlinux" >"$T/out" 2>&1
[ ! -s "$T/out" ] || fail "-q printed: $(cat "$T/out")"
[ ! -e "$T/vmlinux.tagmap" ] || fail "--map still wrote the default map"
diff -u "$GOLD/vmlinux.tagmap" "$T/other.map" || fail "--map content"

# a stale index (an edited or half-indexed file): warned about, replaced
build_vmlinux "$T/old"
"$LINK_TAGS" -q "$T/old"
printf '\011' | dd of="$T/old" bs=1 seek=$(($(tags_at "$T/old") + 2)) conv=notrunc 2>/dev/null
"$LINK_TAGS" -q "$T/old" 2>"$T/err"
grep -qF "link-tags: warning: $T/old: tag 0 already had index 9; a different layout or an old run?" "$T/err" ||
	fail "no warning: $(cat "$T/err")"
cmp "$T/old" "$T/vmlinux" || fail "the stale index was not replaced"
no_leftovers "$T"

# --check: reports what it would change, writes nothing (not even a map),
# and reads a file it could not replace
build_vmlinux "$T/checked"
cp "$T/checked" "$T/checked.orig"
chmod 444 "$T/checked"
"$LINK_TAGS" --check "$T/checked" >"$T/summary"
grep -q 'checked: 7 tags, indices 2..8, .*, 7 to update (--check)$' "$T/summary" ||
	fail "--check summary: $(cat "$T/summary")"
cmp "$T/checked" "$T/checked.orig" || fail "--check changed the file"
[ ! -e "$T/checked.tagmap" ] || fail "--check wrote a map"
expect_fail "$T/checked" "tags take 280 bytes, not a multiple of the tag size 48" --check --tag-size 48
no_leftovers "$T"
