#!/bin/bash
# Fetch Debian's linux-source-6.12, unpack it under $KSRC as a git repo whose
# first commit (tag "pristine") is the untouched tree, and apply
# kernel/patches/series on top with git am.  Re-applies when the series
# changes; never leaves a partly patched tree looking finished.
set -eu
. "$(dirname "$0")/lib.sh"

series_dir=${SERIES_DIR:-$TOP/kernel/patches}
stamp=$KSRC/.git/alloctag-series

fetch() {
	mkdir -p "$CACHE"
	local deb
	deb=$(ls "$CACHE"/${KPKG}_*.deb 2>/dev/null | sort -V | tail -1 || true)
	if [ -z "$deb" ]; then
		log "downloading $KPKG into $CACHE"
		(cd "$CACHE" && apt-get download "$KPKG" >/dev/null) ||
			die "apt-get download $KPKG failed (run 'apt-get update'?)"
		deb=$(ls "$CACHE"/${KPKG}_*.deb | sort -V | tail -1)
	fi
	echo "$deb"
}

unpack() {
	local deb=$1 ver tmp tarball
	ver=$(dpkg-deb -f "$deb" Version)
	log "unpacking $KPKG $ver into $KSRC"
	tmp=$BUILD/.unpack.$$
	rm -rf "$tmp" "$KSRC" && mkdir -p "$tmp"
	dpkg -x "$deb" "$tmp"
	tarball=$(ls "$tmp"/usr/src/linux-source-*.tar.xz)
	mkdir -p "$KSRC"
	tar -xJf "$tarball" -C "$KSRC" --strip-components=1
	rm -rf "$tmp"
	(
		cd "$KSRC"
		git init -q
		git config user.name "alloctag-fork"
		git config user.email "alloctag-fork@localhost"
		git config gc.auto 0
		# Debian's .gitignore ignores the whole top level: add by force.
		git add -f -A .
		git commit -q -m "Debian $KPKG $ver (pristine)"
		git tag pristine
	)
	echo "$ver" >"$KSRC/.git/alloctag-debian-version"
}

apply_series() {
	cd "$KSRC"
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
			die "patch $n ($p) does not apply; the tree is reset to pristine"
		fi
	done
	log "applied $n patch(es) from kernel/patches/series"
	series_hash "$series_dir" >"$stamp"
}

mkdir -p "$BUILD"
[ -f "$series_dir/series" ] || die "kernel/patches/series is missing"
if [ ! -f "$KSRC/.git/alloctag-debian-version" ]; then
	unpack "$(fetch)"
fi
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$(series_hash "$series_dir")" ]; then
	apply_series
fi
log "kernel source: $KPKG $(cat "$KSRC/.git/alloctag-debian-version"), $(git -C "$KSRC" rev-list --count pristine..HEAD) patch(es) applied"
