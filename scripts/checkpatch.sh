#!/bin/bash
# checkpatch --strict on every patch of the series and every kernel-side
# source file of the project (test and benchmark modules).
set -eu
. "$(dirname "$0")/lib.sh"
cp=$KSRC/scripts/checkpatch.pl
# checkpatch runs spdxcheck.py with "python3": use Debian's, which has ply.
export PATH=/usr/bin:$PATH
[ -x "$cp" ] || die "no $cp (run scripts/kernel-src.sh first)"
# $CHECKPATCH_IGNORE (lib.sh) says what is ignored, and why.
fail=0 n=0
for p in $(grep -v '^#' "$TOP/kernel/patches/series" | sed '/^$/d'); do
	n=$((n + 1))
	"$cp" --strict --quiet --no-tree --ignore "$CHECKPATCH_IGNORE" "$TOP/kernel/patches/$p" || { echo "^ $p"; fail=1; }
done
for f in "$TOP"/kernel/modules/*/*.[ch] "$TOP"/benchmarks/modules/*/*.[ch]; do
	[ -f "$f" ] || continue
	n=$((n + 1))
	"$cp" --strict --quiet --no-tree -f "$f" || { echo "^ $f"; fail=1; }
done
# What FILE_PATH_CHANGES would have asked: each file the series adds is
# covered by an F: entry (the file itself or a directory above it).
for f in $(cd "$TOP/kernel/patches" && grep -v '^#' series | sed '/^$/d' |
		xargs awk '/^--- \/dev\/null/ { getline; sub(/^\+\+\+ b\//, ""); print }'); do
	grep -E '^F:' "$KSRC/MAINTAINERS" | awk -v f="$f" '{ p = $2 }
		p == f || (p ~ /\/$/ && index(f, p) == 1) { found = 1 } END { exit !found }' ||
		{ echo "no MAINTAINERS F: entry covers $f, which the series adds"; fail=1; }
done
echo "checkpatch: $n file(s) checked"
exit $fail
