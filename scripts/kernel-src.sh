#!/bin/bash
# Fetch Debian's linux-source-7.3 (pinned, sha256-checked) and unpack it into
# two trees: $BUILD/fork, a git repo whose first commit (tag "pristine") is
# the untouched tree with kernel/patches/series applied on top by git am,
# and $BUILD/stock, a worktree of "pristine": the peer, same source.  The
# attribution rows' worktrees (fixes, bootnum, pretag) are made when a
# variant that needs one is built (variant_tree in lib.sh).
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
	rm -rf "$tmp" "$FORK_SRC" "$STOCK_SRC" "$FIXES_SRC" "$BOOTNUM_SRC" "$PRETAG_SRC" && mkdir -p "$tmp" "$FORK_SRC"
	dpkg -x "$deb" "$tmp"
	tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.xz)
	tar -xJf "$tarball" -C "$FORK_SRC" --strip-components=1
	rm -rf "$tmp"
	(
		cd "$FORK_SRC"
		git init -q
		git config user.name "$TREE_NAME"
		git config user.email "$TREE_EMAIL"
		git config gc.auto 0
		# Debian's .gitignore ignores the whole top level: add by force.
		git add -f -A .
		# Dated as the source is (its Makefile's time in the tarball),
		# so that every machine gets the same commit: the cover
		# letters' base-commit: names it.
		stamp="$(date -u -r Makefile '+%s') +0000"
		GIT_AUTHOR_DATE=$stamp GIT_COMMITTER_DATE=$stamp \
			git commit -q -m "Debian $KPKG $KVER (pristine)"
		git tag pristine
	)
	echo "$KVER" >"$FORK_SRC/.git/alloctag-debian-version"
}

stock_tree() {
	[ -f "$STOCK_SRC/Makefile" ] && return
	log "checking out stock $KSERIES (tag pristine) in $STOCK_SRC"
	worktree_at "$STOCK_SRC" pristine
}

# The applied series has the trees kernel/patches/trees records, which the
# measurements take as what their kernels took of it (kernel_inputs).
check_trees() {
	local x got want
	for x in $(postings "$series_dir/series"); do
		want=$(posting_tree_id "$x" "$series_dir")
		got=$(git -C "$FORK_SRC" rev-parse "$(posting_commit "$x")^{tree}")
		[ "$got" = "$want" ] ||
			die "posting $x applies to tree $got, but kernel/patches/trees records $want: export the series from the fork's tree again (make export-patches)"
	done
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
	check_trees
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
log "kernel source: $KPKG $KVER; stock in $STOCK_SRC, fork in $FORK_SRC with $(git -C "$FORK_SRC" rev-list --count pristine..HEAD) patch(es)"
