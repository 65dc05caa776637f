#!/bin/sh
# The file vanishes or changes while link-tags runs: it must not put its
# copy in place.  LINK_TAGS_TEST_BARRIER makes the tool wait, after
# writing its temporary files and before renaming, until that file exists.
set -eu
. "$TESTS_DIR/lib/common.sh"

# race FILE ACTION: run link-tags on FILE, do ACTION while it waits
race() {
	f=$1 action=$2
	rm -f "$T/go"
	LINK_TAGS_TEST_BARRIER=$T/go "$LINK_TAGS" "$f" >"$T/out" 2>"$T/err" &
	pid=$!
	i=0
	until [ -n "$(find "$T" -maxdepth 1 -name ".${f##*/}.tagmap.link-tags.*")" ]; do
		i=$((i + 1))
		[ $i -lt 1000 ] || { kill $pid; fail "no temporary map appeared"; }
		sleep 0.01
	done
	eval "$action"
	touch "$T/go"
	if wait $pid; then fail "$f: succeeded after: $action"; fi
	no_leftovers "$T"
	[ ! -e "$f.tagmap" ] || fail "$f: map written"
	cat "$T/err"
}

build_vmlinux "$T/vmlinux"
race "$T/vmlinux" 'rm "$T/vmlinux"'
grep -qF "link-tags: error: $T/vmlinux: vanished while link-tags ran" "$T/err" ||
	fail "vanish: $(cat "$T/err")"
[ ! -e "$T/vmlinux" ] || fail "a vanished file came back"

build_vmlinux "$T/vmlinux"
build_vmlinux "$T/other" -DMODULE
cp "$T/other" "$T/other.saved"
race "$T/vmlinux" 'mv "$T/other" "$T/vmlinux"'
grep -qF "changed while link-tags ran; not replacing it" "$T/err" ||
	fail "replace: $(cat "$T/err")"
cmp "$T/vmlinux" "$T/other.saved" || fail "the replacing file was overwritten"

build_vmlinux "$T/vmlinux"
race "$T/vmlinux" 'echo >>"$T/vmlinux"'
grep -qF "changed while link-tags ran" "$T/err" || fail "append: $(cat "$T/err")"
