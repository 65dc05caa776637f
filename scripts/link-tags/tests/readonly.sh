#!/bin/sh
# A file without the owner's write bit is refused before anything is done,
# even for root (for whom access(W_OK) always succeeds).  A rewrite keeps
# the file's mode; the map gets the umask's mode.
set -eu
. "$TESTS_DIR/lib/common.sh"

build_vmlinux "$T/vmlinux"
chmod 444 "$T/vmlinux"
expect_fail "$T/vmlinux" "not writable (mode 0444); refusing to change it"
chmod 555 "$T/vmlinux"
expect_fail "$T/vmlinux" "not writable (mode 0555)"

chmod 640 "$T/vmlinux"
(umask 027 && "$LINK_TAGS" -q "$T/vmlinux")
[ "$(stat -c %a "$T/vmlinux")" = 640 ] || fail "mode became $(stat -c %a "$T/vmlinux")"
[ "$(stat -c %a "$T/vmlinux.tagmap")" = 640 ] ||
	fail "map mode is $(stat -c %a "$T/vmlinux.tagmap")"

# a symbolic link would be replaced by a plain file: refused
ln -s vmlinux "$T/link"
expect_fail "$T/link" "is a symbolic link"

# --check only reads: it opens the file read-only, so it works on a file
# that its user may not write (tried as nobody when run as root, with a
# copy of the tool beside the file, as the tree may be out of its reach).
cp "$T/vmlinux" "$T/ro" && chmod 444 "$T/ro" && chmod 755 "$T"
cp "$LINK_TAGS" "$T/link-tags" && chmod 755 "$T/link-tags"
as_reader() {
	if [ "$(id -u)" != 0 ]; then "$@"
	elif command -v setpriv >/dev/null; then
		setpriv --reuid=65534 --regid=65534 --clear-groups "$@"
	else skip "setpriv is not installed"
	fi
}
as_reader test -r "$T/ro" -a -x "$T/link-tags" 2>/dev/null ||
	skip "$T is out of an unprivileged user's reach (TMPDIR?)"
as_reader "$T/link-tags" --check "$T/ro" >"$T/ro.out" 2>&1 ||
	fail "--check on a file its user cannot write: $(cat "$T/ro.out")"
grep -q 'to update (--check)$' "$T/ro.out" || fail "--check said: $(cat "$T/ro.out")"
