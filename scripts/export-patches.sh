#!/bin/bash
# Write the kernel tree's commits since "pristine" back into kernel/patches/
# as the series: the series is edited as git commits in the fork's tree.
# kernel/patches/series keeps its comments: the lines at its top, and each
# "# posting X: TITLE" line before the patch it stood before (matched by
# the file name without its number).  A posting whose first patch is gone
# stops the export, with nothing written.  kernel/patches/trees records
# the tree at the head of each posting.
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
# The tree at the head of each posting: what a measured kernel takes of
# the series (posting_tree_id), checked by kernel-src.sh when it applies.
{
	echo "# The fork's git tree at the head of each posting, written by"
	echo "# scripts/export-patches.sh and checked by scripts/kernel-src.sh."
	for x in $(postings "$tmp/series"); do
		c=$(git -C "$KSRC" rev-list --reverse pristine..HEAD |
			sed -n "$(posting_end "$x" "$tmp/series")p")
		echo "$x $(git -C "$KSRC" rev-parse "$c^{tree}")"
	done
} >"$tmp/trees"
rm -f "$dir"/*.patch
mv "$tmp"/*.patch "$dir"/ 2>/dev/null || true
mv "$tmp/series" "$dir/series"
mv "$tmp/trees" "$dir/trees"
# The tree now matches the series: no need to re-apply.
series_hash "$dir" >"$gitdir/alloctag-series"
log "exported $n patch(es) to kernel/patches/"
