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
