#!/bin/bash
# Fetch Debian's linux-source-7.3 (pinned, sha256-checked) and unpack it into
# three trees: $BUILD/fork, a git repo whose first commit (tag "pristine") is
# the untouched tree with kernel/patches/series applied on top by git am;
# $BUILD/stock, a worktree of "pristine": the peer, same source; and
# $BUILD/fixes, a worktree of the fork's last leading patch with a Fixes:
# tag (stock with the series' upstream fixes, no more); and $BUILD/bootnum,
# a worktree of the series with benchmarks/kernel/number-tags-at-boot.patch
# on top (never posted: it measures what numbering at link time buys).
# Re-applies when the series changes; never leaves a partly patched tree
# looking finished.
set -eu
. "$(dirname "$0")/lib.sh"

series_dir=${SERIES_DIR:-$TOP/kernel/patches}
stamp=$FORK_SRC/.git/alloctag-series

unpack() {
	local deb=$1 tmp tarball
	log "unpacking $KPKG $KVER into $FORK_SRC"
	tmp=$BUILD/.unpack.$$
	rm -rf "$tmp" "$FORK_SRC" "$STOCK_SRC" "$FIXES_SRC" "$BOOTNUM_SRC" && mkdir -p "$tmp" "$FORK_SRC"
	dpkg -x "$deb" "$tmp"
	tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.xz)
	tar -xJf "$tarball" -C "$FORK_SRC" --strip-components=1
	rm -rf "$tmp"
	(
		cd "$FORK_SRC"
		git init -q
		git config user.name "Alloctag Fork"
		git config user.email "alloctag-fork@example.org"
		git config gc.auto 0
		# Debian's .gitignore ignores the whole top level: add by force.
		git add -f -A .
		git commit -q -m "Debian $KPKG $KVER (pristine)"
		git tag pristine
	)
	echo "$KVER" >"$FORK_SRC/.git/alloctag-debian-version"
}

stock_tree() {
	[ -f "$STOCK_SRC/Makefile" ] && return
	log "checking out stock $KSERIES (tag pristine) in $STOCK_SRC"
	rm -rf "$STOCK_SRC"
	git -C "$FORK_SRC" worktree prune
	git -C "$FORK_SRC" worktree add -q --detach "$STOCK_SRC" pristine
}

# The commit after the series' leading Fixes: patches (pristine if none).
fixes_commit() {
	local c last=pristine
	for c in $(git -C "$FORK_SRC" rev-list --reverse pristine..HEAD); do
		git -C "$FORK_SRC" log -1 --format=%B "$c" | grep -q '^Fixes: ' || break
		last=$c
	done
	git -C "$FORK_SRC" rev-parse "$last"
}

fixes_tree() {
	local want
	want=$(fixes_commit)
	if [ ! -f "$FIXES_SRC/Makefile" ]; then
		log "checking out stock with the series' fixes in $FIXES_SRC"
		rm -rf "$FIXES_SRC"
		git -C "$FORK_SRC" worktree prune
		git -C "$FORK_SRC" worktree add -q --detach "$FIXES_SRC" "$want"
	elif [ "$(git -C "$FIXES_SRC" rev-parse HEAD)" != "$want" ]; then
		git -C "$FIXES_SRC" checkout -q --detach "$want"
	fi
}

# The series with a benchmark's own patch on top, in a worktree: rebuilt
# when the series or the patch changes.
bootnum_tree() {
	local patch=$TOP/benchmarks/kernel/number-tags-at-boot.patch want head
	head=$(git -C "$FORK_SRC" rev-parse HEAD)
	want="$head $(sha256sum <"$patch" | cut -c1-16)"
	[ "$(cat "$BOOTNUM_SRC/.alloctag-tree" 2>/dev/null)" = "$want" ] && return
	log "checking out the series with ${patch##*/} in $BOOTNUM_SRC"
	if [ ! -f "$BOOTNUM_SRC/Makefile" ]; then
		rm -rf "$BOOTNUM_SRC"
		git -C "$FORK_SRC" worktree prune
		git -C "$FORK_SRC" worktree add -q --detach "$BOOTNUM_SRC" "$head"
	else
		git -C "$BOOTNUM_SRC" am --abort >/dev/null 2>&1 || true
		git -C "$BOOTNUM_SRC" reset -q --hard "$head"
	fi
	rm -f "$BOOTNUM_SRC/.alloctag-tree"
	if ! git -C "$BOOTNUM_SRC" am -q "$patch" >"$BUILD/git-am.log" 2>&1; then
		cat "$BUILD/git-am.log" >&2
		git -C "$BOOTNUM_SRC" am --abort >/dev/null 2>&1 || true
		die "${patch#"$TOP"/} does not apply on top of the series; refresh it"
	fi
	echo "$want" >"$BOOTNUM_SRC/.alloctag-tree"
}

apply_series() {
	cd "$FORK_SRC"
	git am --abort >/dev/null 2>&1 || true
	git reset -q --hard pristine
	git clean -qfdx -e .git
	rm -f "$stamp"
	local p n=0
	for p in $(grep -v '^#' "$series_dir/series" | sed '/^$/d'); do
		n=$((n + 1))
		[ -f "$series_dir/$p" ] || die "series names $p, which is not in kernel/patches/"
		if ! git am -q --keep-cr "$series_dir/$p" >"$BUILD/git-am.log" 2>&1; then
			cat "$BUILD/git-am.log" >&2
			git am --abort >/dev/null 2>&1 || true
			git reset -q --hard pristine
			die "patch $n ($p) does not apply to $KPKG $KVER; the tree is reset to pristine"
		fi
	done
	log "applied $n patch(es) from kernel/patches/series"
	series_hash "$series_dir" >"$stamp"
}

mkdir -p "$BUILD"
[ -f "$series_dir/series" ] || die "kernel/patches/series is missing"
if [ "$(cat "$FORK_SRC/.git/alloctag-debian-version" 2>/dev/null)" != "$KVER" ]; then
	unpack "$("$TOP/scripts/apt-private.sh" "$KPKG" "$KVER" "$KSRC_SHA256")"
fi
stock_tree
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(series_hash "$series_dir")" ]; then
	apply_series
fi
fixes_tree
bootnum_tree
log "kernel source: $KPKG $KVER; stock in $STOCK_SRC, fork in $FORK_SRC with $(git -C "$FORK_SRC" rev-list --count pristine..HEAD) patch(es), fixes in $FIXES_SRC with $(git -C "$FIXES_SRC" rev-list --count pristine..HEAD)"
