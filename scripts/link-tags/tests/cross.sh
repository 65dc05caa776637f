#!/bin/sh
# Other architectures, each from its cross compiler (skipped one by one
# when it is missing; the test skips when all are): ELF32 (i386),
# big-endian (s390x) and an ET_DYN vmlinux whose pointers live only in
# RELATIVE relocations (arm64).  Each gives the golden map, reads back
# its indices in its byte order, changes only the index bytes, and is
# left byte-identical when it is cut short.
set -eu
. "$TESTS_DIR/lib/common.sh"

ran=""
for arch in i386 s390x arm64; do
	if ! (build_cross "$arch" "$T/$arch") >"$T/build.log" 2>&1; then
		grep -q "is not installed" "$T/build.log" ||
			{ cat "$T/build.log"; fail "$arch: fixture does not build"; }
		echo "$arch: $(tail -n 1 "$T/build.log")"
		continue
	fi
	v=$T/$arch/vmlinux
	size=40 layout="" be=0
	case $arch in
	i386)	size=32 layout=$LAYOUT_i386 ;;
	s390x)	be=1 ;;
	esac
	cp "$v" "$v.orig"
	if [ $arch = arm64 ]; then
		# the point of this fixture: function pointers are zero in the file
		[ "$(indices "$v" "$(tags_at "$v")" 7 40 16 8)" = "0 0 0 0 0 0 0" ] ||
			fail "arm64: the linker applied the relocations"
	fi
	# shellcheck disable=SC2086
	"$LINK_TAGS" $layout "$v" >"$T/summary"
	grep -q 'vmlinux: 7 tags, indices 2..8, .*, 7 updated$' "$T/summary" ||
		fail "$arch: $(cat "$T/summary")"
	diff -u "$GOLD/vmlinux.tagmap" "$v.tagmap" || fail "$arch: map differs from golden"
	at=$(tags_at "$v")
	got=$(BIG_ENDIAN=$be indices "$v" "$at" 7 "$size")
	[ "$got" = "2 3 4 5 6 7 8" ] || fail "$arch: indices read back: $got"
	only_index_bytes "$v.orig" "$v" "$at" 7 "$size"
	# shellcheck disable=SC2086
	"$LINK_TAGS" $layout "$v" | grep -q ', 0 updated$' || fail "$arch: second run"

	# the same file cut short, and cut inside its section headers
	head -c 50 "$v.orig" >"$T/$arch/short"
	expect_fail "$T/$arch/short" "truncated"
	head -c $(($(wc -c <"$v.orig") - 8)) "$v.orig" >"$T/$arch/cut"
	expect_fail "$T/$arch/cut" "truncated"
	ran="$ran $arch"
done
[ -n "$ran" ] || skip "no cross compiler (scripts/deps.sh cross)"
echo "ran:$ran"
