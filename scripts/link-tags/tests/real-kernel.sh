#!/bin/sh
# On a copy of a real kernel build, when one is around (skip otherwise):
# every tag between the symbols gets its index, only index bytes change,
# no symbol moves, a second run changes nothing; the same for its modules.
# LINK_TAGS_KBUILD names the build directory (default: build/kernel-fork).
set -eu
. "$TESTS_DIR/lib/common.sh"
need nm

kb=${LINK_TAGS_KBUILD:-$SRC_DIR/../../build/kernel-fork}
[ -f "$kb/vmlinux" ] || skip "no kernel build at $kb"
cp "$kb/vmlinux" "$T/vmlinux"
cp "$T/vmlinux" "$T/vmlinux.orig"
nm "$T/vmlinux" >"$T/nm.before"
grep -q ' __start_alloc_tags$' "$T/nm.before" || skip "$kb/vmlinux has no allocation tags"

data=$(sec_field "$T/vmlinux" .data addr)
start=$(($(sym_value "$T/vmlinux" __start_alloc_tags) - data))
stop=$(($(sym_value "$T/vmlinux" __stop_alloc_tags) - data))
n=$(((stop - start) / 40))
"$LINK_TAGS" --module-reserve 4096 "$T/vmlinux" >"$T/summary"
grep -q "vmlinux: $n tags, indices 2..$((n + 1)), " "$T/summary" ||
	fail "summary: $(cat "$T/summary")"
[ "$(grep -vc '^#' "$T/vmlinux.tagmap")" -eq "$n" ] || fail "map lines"
only_index_bytes "$T/vmlinux.orig" "$T/vmlinux" \
	"$(($(sec_field "$T/vmlinux" .data offset) + start))" "$n"
nm "$T/vmlinux" | cmp -s - "$T/nm.before" || fail "symbols changed"
got=$(indices "$T/vmlinux" .data "$start" "$n" | tr ' ' '\n' | awk '$1 != NR + 1 { bad++ } END { print bad + 0 }')
[ "$got" -eq 0 ] || fail "$got tags read back a wrong index"
cp "$T/vmlinux" "$T/vmlinux.once"
"$LINK_TAGS" -q "$T/vmlinux"
cmp "$T/vmlinux" "$T/vmlinux.once" || fail "second run changed vmlinux"

find "$kb" -name '*.ko' | head -n 20 >"$T/modules"
while read -r ko; do
	cp "$ko" "$T/m.ko"
	"$LINK_TAGS" --missing-ok "$T/m.ko" >"$T/summary" || fail "$ko: $(cat "$T/summary")"
	cp "$T/m.ko" "$T/m.once"
	"$LINK_TAGS" -q --missing-ok "$T/m.ko"
	cmp "$T/m.ko" "$T/m.once" || fail "$ko: second run changed it"
	echo "$ko: $(cat "$T/summary")"
done <"$T/modules"
cat "$T/summary"
