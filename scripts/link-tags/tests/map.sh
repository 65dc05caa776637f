#!/bin/sh
# --map, -q, and a warning for indices from another run.
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
