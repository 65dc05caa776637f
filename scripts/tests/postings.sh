#!/bin/bash
# kernel/patches/series names its postings ("# posting X: TITLE" before
# the first patch of each): export-patches.sh keeps each line before its
# patch as the series is written back, posting_end counts the patches up
# to a posting's end, and an export that would lose a posting's first
# patch fails and leaves kernel/patches/ as it was.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/linux series=$tmp/patches
mkdir -p "$src" "$series"
cd "$src"
git init -q && git config user.email t@t && git config user.name t
echo base >file && git add file && git commit -qm pristine && git tag pristine
for s in one two three; do echo $s >$s && git add $s && git commit -qm "$s"; done
printf '# the top comment\n' >"$series/series"
export SERIES_DIR=$series KSRC=$src BUILD=$tmp
"$top/scripts/export-patches.sh" >/dev/null
# The postings, written by hand once
sed -i 's/^0001-/# posting A: first\n&/; s/^0002-/# posting B: the rest\n&/' "$series/series"
"$top/scripts/export-patches.sh" >/dev/null
want='# the top comment
# posting A: first
0001-one.patch
# posting B: the rest
0002-two.patch
0003-three.patch'
[ "$(cat "$series/series")" = "$want" ] || { cat "$series/series"; echo "posting lines moved"; exit 1; }
ends=$(bash -c '. "$1/scripts/lib.sh"; posting_end A; posting_end B; posting_end C || echo none' _ "$top")
[ "$(echo $ends)" = "1 3 none" ] || { echo "posting_end: $ends"; exit 1; }

# A new patch in posting A keeps B's line before B's first patch.
c() { git log --format=%H --grep="^$1\$" pristine..; }
one=$(c one) two=$(c two) three=$(c three)
git checkout -q --detach "$one"
echo one-b >one-b && git add one-b && git commit -qm "one b"
git cherry-pick "$two" "$three" >/dev/null
"$top/scripts/export-patches.sh" >/dev/null
grep -A1 '^# posting B' "$series/series" | grep -q '^0003-two.patch$' ||
	{ cat "$series/series"; echo "B's line is not before its first patch"; exit 1; }

# Dropping B's first patch: the export fails and writes nothing.
cp -a "$series" "$tmp/before"
git rebase -q --onto "$(c two)~1" "$(c two)"
if "$top/scripts/export-patches.sh" >"$tmp/log" 2>&1; then
	echo "the export lost posting B's line and succeeded"; exit 1
fi
grep -q "posting B: the rest" "$tmp/log" || { cat "$tmp/log"; echo "the error does not name the posting"; exit 1; }
diff -r "$tmp/before" "$series" >/dev/null || { echo "kernel/patches changed"; exit 1; }
