#!/bin/sh
# Failures after the checks: the map cannot be written, or cannot be put
# in place.  The file stays byte-identical, no temporary file is left.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
cp "$T/vmlinux" "$T/saved"
mkdir "$T/mapdir"
for map in "$T/no/such/dir/map" "$T/mapdir"; do
	if "$LINK_TAGS" --map "$map" "$T/vmlinux" 2>"$T/err"; then
		fail "--map $map: succeeded"
	fi
	case $map in
	*/map)	want="link-tags: error: $map: cannot create a temporary file" ;;
	*)	want="link-tags: error: $map: cannot replace" ;;
	esac
	grep -qF "$want" "$T/err" || fail "--map $map: $(cat "$T/err")"
	cmp -s "$T/vmlinux" "$T/saved" || fail "--map $map: the file changed"
	no_leftovers "$T"
	echo "ok: $(cat "$T/err")"
done
[ -d "$T/mapdir" ] || fail "the directory in the map's place is gone"
