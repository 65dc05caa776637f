#!/bin/bash
# scripts/rfc/churn.py on a tiny series of two postings: in A, a later
# patch removes two lines an earlier one added (and a brace and a blank
# line, which do not count), so A's churn is 2; B removes a line A added
# and re-indents a line it found in the tree, neither of which is churn of
# B's.  A patch cut short, or a series naming a missing patch, fails with
# the file named.  kernel/patches has no churn in any posting.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
churn=$top/scripts/rfc/churn.py

# patch FILE PATH HUNK-HEADER LINE...: a one-hunk patch of PATH.
patch() {
	local out=$1 path=$2 hunk=$3
	shift 3
	{
		printf 'From 0 Mon Sep 17 00:00:00 2001\nSubject: [PATCH] x\n\n---\n'
		printf 'diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n%s\n' "$path" "$path" "$path" "$path" "$hunk"
		printf '%s\n' "$@"
		printf -- '-- \n2.39.5\n'
	} >"$tmp/$out"
}
patch 0001-a.patch mm/x.c '@@ -1,1 +1,7 @@' \
	' int x;' '+int a(void)' '+{' '+	return one();' '+}' '+' '+int b;'
patch 0002-a.patch mm/x.c '@@ -1,7 +1,5 @@' \
	' int x;' ' int a(void)' '-{' '-	return one();' '-}' '+	return two();' ' ' '-int b;' '+int c;'
patch 0003-b.patch mm/x.c '@@ -1,3 +1,2 @@' \
	' int x;' '-int a(void)' '+int d(void)' '-	return two();'
patch 0004-b.patch mm/y.c '@@ -1,2 +1,3 @@' \
	'-int y;' '+	int y;' '+/* a comment */' ' int z;'
printf '# posting A: one\n0001-a.patch\n0002-a.patch\n# posting B: two\n0003-b.patch\n0004-b.patch\n' >"$tmp/series"
out=$(python3 "$churn" "$tmp" | tr '\n' ' ')
[ "$out" = "A 2 B 0 " ] || { python3 "$churn" -v "$tmp"; echo "churn: '$out', not 'A 2 B 0'"; exit 1; }
verbose=$(python3 "$churn" -v "$tmp")
printf "%s\n" "$verbose" | grep -q "^  A 2 mm/x.c$" || { echo "$verbose"; echo "no per-file count"; exit 1; }

# A hunk cut short and a missing patch fail, naming the file.
head -n -4 "$tmp/0002-a.patch" >"$tmp/cut" && mv "$tmp/cut" "$tmp/0002-a.patch"
! python3 "$churn" "$tmp" >/dev/null 2>"$tmp/err" && grep -q '0002-a.patch' "$tmp/err" ||
	{ cat "$tmp/err"; echo "a cut patch did not fail naming it"; exit 1; }
rm "$tmp/0002-a.patch"
! python3 "$churn" "$tmp" >/dev/null 2>"$tmp/err" && grep -q '0002-a.patch' "$tmp/err" ||
	{ cat "$tmp/err"; echo "a missing patch did not fail naming it"; exit 1; }
# The series itself: every posting introduces its code once.
real=$(python3 "$churn" -v "$top/kernel/patches")
if printf '%s\n' "$real" | grep -qv ' 0$\|^  '; then
	printf '%s\n' "$real"
	echo "kernel/patches: a posting removes lines it added (above); fold the later patch into the one it changes"
	exit 1
fi
echo "rfc-churn: lines a later patch of the posting removes counted per posting ($(python3 "$churn" | tr '\n' ' ' | sed 's/ $//') for kernel/patches)"
