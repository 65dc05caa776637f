#!/bin/sh
# Command line: --help, usage errors and layouts that cannot work.
set -eu
. "$TESTS_DIR/lib/common.sh"

"$LINK_TAGS" --help >"$T/help"
for opt in --tag-size --index-offset --index-width --index-bits --fields \
	   --module-reserve --map --check --quiet; do
	grep -q -- "$opt" "$T/help" || fail "--help does not mention $opt"
done

# usage_fail MESSAGE ARGS...: exit 1 with MESSAGE on stderr
usage_fail() {
	msg=$1; shift
	if "$LINK_TAGS" "$@" >"$T/out" 2>"$T/err"; then rc=0; else rc=$?; fi
	[ "$rc" -eq 1 ] || fail "'$*': exit $rc"
	grep -qF -- "$msg" "$T/err" || fail "'$*': wanted '$msg', got: $(cat "$T/err")"
}
build_vmlinux "$T/vmlinux"
cp "$T/vmlinux" "$T/saved"
usage_fail "usage: link-tags"
usage_fail "usage: link-tags" "$T/vmlinux" "$T/vmlinux"
usage_fail "usage: link-tags" --bogus "$T/vmlinux"
usage_fail "bad number 'x' for tag-size" --tag-size x "$T/vmlinux"
usage_fail "bad number '-1' for index-bits" --index-bits -1 "$T/vmlinux"
usage_fail "--index-bits 17 out of range 1..16" --index-bits 17 "$T/vmlinux"
usage_fail "--index-bits 9 out of range 1..8" --index-width 1 --index-bits 9 "$T/vmlinux"
usage_fail "--index-width must be 1, 2 or 4" --index-width 3 "$T/vmlinux"
usage_fail "the index field at offset 39 does not fit a 40-byte tag" --index-offset 39 "$T/vmlinux"
usage_fail "the index field at offset 2 overlaps the lineno field at 0" --fields 0,8,16,24 "$T/vmlinux"
usage_fail "the index field at offset 10 overlaps the modname field at 8" --index-offset 10 "$T/vmlinux"
usage_fail "--fields wants four offsets L,M,F,P" --fields 4,8,16 "$T/vmlinux"
usage_fail "--module-reserve 65535 exceeds the 65534 indices of 16 bits" --module-reserve 65535 "$T/vmlinux"
usage_fail "usage: link-tags" --dump "$T/vmlinux"
cmp "$T/vmlinux" "$T/saved" || fail "a usage error changed the file"
[ ! -e "$T/vmlinux.tagmap" ] || fail "a usage error wrote a map"

# pointers are as wide as the ELF class: fine for ELF32, not for this file
expect_fail "$T/vmlinux" "the filename field at offset 24 does not fit a 28-byte tag" \
	--tag-size 28 --fields 4,8,16,24
expect_fail "$T/vmlinux" "the modname field at offset 8 overlaps the function field at 12" \
	--fields 4,8,12,24
