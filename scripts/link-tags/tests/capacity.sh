#!/bin/sh
# Index width and module reserve.
set -eu
. "$TESTS_DIR/lib/common.sh"

gen_tags 20 >"$T/gen.c"
(cd "$T" && gcc -O2 -fno-pic -mcmodel=kernel -c gen.c)
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/vmlinux" "$T/gen.o"

expect_fail "$T/vmlinux" "too many tags: 2 reserved + 20 tags + 0 module reserve = 22, capacity of 4 bits is 16" --index-bits 4
expect_fail "$T/vmlinux" "2 reserved + 20 tags + 11 module reserve = 33, capacity of 5 bits is 32" --index-bits 5 --module-reserve 11
"$LINK_TAGS" --index-bits 5 --module-reserve 10 "$T/vmlinux" >"$T/summary"
grep -q 'vmlinux: 20 tags, indices 2..21, 5 bits needed, 5 bits available, module reserve 10, headroom 0, 20 updated$' "$T/summary" ||
	fail "full house: $(cat "$T/summary")"

# 8-bit fields: 1-byte index, 8 bits
gen_tags 3 >"$T/small.c"
(cd "$T" && gcc -O2 -fno-pic -mcmodel=kernel -c small.c)
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/small" "$T/small.o"
"$LINK_TAGS" -q --index-width 1 --index-bits 8 "$T/small"
got=$(indices "$T/small" "$(tags_at "$T/small")" 3 40 2 2)
[ "$got" = "2 3 4" ] || fail "1-byte index: $got"

# --fit (the kernel build's): never an error.  The module reserve gives
# way to the tags, with a warning; tags that do not fit the index at all
# leave the file as it was, with a warning.
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/fit" "$T/gen.o"
"$LINK_TAGS" -q --fit --index-bits 5 --module-reserve 11 "$T/fit" 2>"$T/fit.err" ||
	fail "--fit with too large a reserve: exit $?"
grep -q 'warning: .*fit: 20 tags leave 10 of the 11 indices asked for modules, of 5 bits$' "$T/fit.err" ||
	fail "--fit with too large a reserve: $(cat "$T/fit.err")"
got=$(indices "$T/fit" "$(tags_at "$T/fit")" 20 40 2 2)
[ "$got" = "$(seq -s ' ' 2 21)" ] || fail "--fit with too large a reserve: indices $got"
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/nofit" "$T/gen.o"
cp "$T/nofit" "$T/nofit.orig"
"$LINK_TAGS" -q --fit --index-bits 4 "$T/nofit" 2>"$T/nofit.err" ||
	fail "--fit with too many tags: exit $?"
grep -q 'warning: .*nofit: 20 tags do not fit 4-bit indices (14): nothing written' "$T/nofit.err" ||
	fail "--fit with too many tags: $(cat "$T/nofit.err")"
cmp -s "$T/nofit" "$T/nofit.orig" || fail "--fit with too many tags changed the file"
[ ! -e "$T/nofit.tagmap" ] || fail "--fit with too many tags wrote a map"
