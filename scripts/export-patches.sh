#!/bin/bash
# Write the kernel tree's commits since "pristine" back into kernel/patches/
# as the series: the series is edited as git commits in the fork's tree.
# kernel/patches/series keeps its comments: the lines at its top, and each
# "# posting X: TITLE" line before the patch it stood before (matched by
# the file name without its number).  A posting whose first patch is gone
# stops the export, with nothing written.
set -eu
. "$(dirname "$0")/lib.sh"
gitdir=$(git -C "$KSRC" rev-parse --absolute-git-dir 2>/dev/null) ||
	die "no kernel tree at $KSRC"
dir=${SERIES_DIR:-$TOP/kernel/patches}
n=$(git -C "$KSRC" rev-list --count pristine..HEAD)
tmp=$(mktemp -d "$dir/.export.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# The index lines' hashes at one length, however many objects the tree
# has gathered (git lengthens them where 7 digits would be ambiguous).
git -C "$KSRC" -c core.abbrev=7 format-patch -q --no-signature --zero-commit \
	--no-numbered -o "$tmp" pristine..HEAD
(cd "$tmp" && ls -1 ./*.patch 2>/dev/null | sed 's|^\./||') >"$tmp/new"
awk -v new="$tmp/new" '
	function slug(f) { sub(/^[0-9]+-/, "", f); return f }
	# the comment lines at the top, then each posting line by its patch
	!started && /^#/ && !/^# posting / { print; next }
	{ started = 1 }
	/^# posting / { pending = pending $0 "\n"; next }
	/^#/ || /^[[:space:]]*$/ { next }
	pending != "" { before[slug($0)] = pending; pending = "" }
	END {
		while ((getline f < new) > 0) {
			if (slug(f) in before) { printf "%s", before[slug(f)]; delete before[slug(f)] }
			print f
		}
		for (s in before) {
			printf "export-patches: %sstood before %s, which the series no longer has\n",
				before[s], s > "/dev/stderr"
			bad = 1
		}
		exit bad
	}' "$dir/series" >"$tmp/series" ||
	die "kernel/patches/series: move the posting line(s) above to their new first patch and export again"
rm -f "$dir"/*.patch
mv "$tmp"/*.patch "$dir"/ 2>/dev/null || true
mv "$tmp/series" "$dir/series"
# The tree now matches the series: no need to re-apply.
series_hash "$dir" >"$gitdir/alloctag-series"
log "exported $n patch(es) to kernel/patches/"
