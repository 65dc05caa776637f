#!/bin/bash
# make rfc posts as whoever runs it: without RFC_AUTHOR or git config's
# user.name and user.email it refuses before it writes anything, and so it
# does for the kernel tree's placeholder identity or a malformed author.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
before=$(cd "$top" && find results/rfc -type f -exec sha256sum {} + 2>/dev/null | sort)
# refuses AUTHOR-VALUE EXPECTED-TEXT
refuses() {
	local rc=0
	env -u RFC_AUTHOR HOME="$tmp" GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null \
		${1:+RFC_AUTHOR="$1"} BUILD="$tmp/build" "$top/scripts/rfc/make-rfc.sh" >"$tmp/log" 2>&1 || rc=$?
	[ "$rc" != 0 ] || { cat "$tmp/log"; echo "make-rfc.sh posted as '${1:-nobody}'"; exit 1; }
	grep -q "$2" "$tmp/log" || { cat "$tmp/log"; echo "no '$2' in its error"; exit 1; }
}
if git -C "$top" config --local user.name >/dev/null; then
	echo "the checkout has its own user.name: the no-identity case cannot be tried"
else
	refuses "" "no author to post as"
fi
refuses "Alloctag Fork <alloctag-fork@example.org>" "no author to post as"
refuses "Somebody" "not \"Name <address>\""
after=$(cd "$top" && find results/rfc -type f -exec sha256sum {} + 2>/dev/null | sort)
[ "$before" = "$after" ] || { echo "results/rfc changed"; exit 1; }
[ ! -e "$tmp/build" ] || { echo "it started building in $tmp/build"; exit 1; }
