#!/bin/bash
# Write the kernel tree's commits since "pristine" back into kernel/patches/
# as the series: the series is edited as git commits in build/linux.
set -eu
. "$(dirname "$0")/lib.sh"
gitdir=$(git -C "$KSRC" rev-parse --absolute-git-dir 2>/dev/null) ||
	die "no kernel tree at $KSRC"
dir=$TOP/kernel/patches
n=$(git -C "$KSRC" rev-list --count pristine..HEAD)
tmp=$(mktemp -d "$dir/.export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
git -C "$KSRC" format-patch -q --no-signature --zero-commit --no-numbered \
	-o "$tmp" pristine..HEAD
head -3 "$dir/series" >"$tmp/series"
(cd "$tmp" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') >>"$tmp/series"
rm -f "$dir"/*.patch
mv "$tmp"/*.patch "$dir"/ 2>/dev/null || true
mv "$tmp/series" "$dir/series"
# The tree now matches the series: no need to re-apply.
series_hash "$dir" >"$gitdir/alloctag-series"
log "exported $n patch(es) to kernel/patches/"
