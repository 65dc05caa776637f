#!/bin/bash
# A patch that does not apply stops the source step, names the patch, and
# leaves the tree at pristine (never a half-patched tree that builds).
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

src=$tmp/linux series=$tmp/patches
mkdir -p "$src" "$series"
cd "$src"
git init -q && git config user.email t@t && git config user.name t
printf 'one\ntwo\nthree\n' >file
git add file && git commit -qm pristine && git tag pristine
echo "6.12.0-test" >.git/alloctag-debian-version
# A good patch, then one whose context does not exist.
sed -i s/two/TWO/ file && git commit -qam "good change"
git format-patch -q -1 -o "$series" && mv "$series"/0001-*.patch "$series/0001-good.patch"
git reset -q --hard pristine
sed 's/^-two$/-zwei/; s/^ one$/ eins/' "$series/0001-good.patch" >"$series/0002-broken.patch"
printf '0001-good.patch\n0002-broken.patch\n' >"$series/series"

if FORK_SRC=$src STOCK_SRC=$tmp/stock KVER=6.12.0-test SERIES_DIR=$series BUILD=$tmp "$top/scripts/kernel-src.sh" >"$tmp/log" 2>&1; then
	echo "kernel-src.sh succeeded with a broken patch"; exit 1
fi
grep -q 'patch 2 (0002-broken.patch) does not apply' "$tmp/log" ||
	{ cat "$tmp/log"; echo "error does not name the patch"; exit 1; }
[ "$(git -C "$src" rev-parse HEAD)" = "$(git -C "$src" rev-parse pristine)" ] ||
	{ echo "tree not reset to pristine"; exit 1; }
[ ! -f "$src/.git/alloctag-series" ] || { echo "tree marked as patched"; exit 1; }

# With the broken patch gone the same tree applies cleanly.
printf '0001-good.patch\n' >"$series/series"
FORK_SRC=$src STOCK_SRC=$tmp/stock KVER=6.12.0-test SERIES_DIR=$series BUILD=$tmp "$top/scripts/kernel-src.sh" >"$tmp/log" 2>&1 ||
	{ cat "$tmp/log"; exit 1; }
grep -q TWO "$src/file"
