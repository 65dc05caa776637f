#!/bin/bash
# 'make rfc': write each posting of the series (kernel/patches/series, a
# "# posting X: TITLE" line before its first patch) into results/rfc/X/:
#
#   0000-cover-letter.patch  scripts/rfc/letters/X.txt filled in from
#                            results/ and the checks below (cover-letter.py),
#                            ending, as git format-patch --base writes it,
#                            with the base-commit: of the kernel tree's
#                            untouched tree (tag "pristine") and a
#                            prerequisite-patch-id: for every patch of the
#                            postings before X, which X applies on top of
#   NNNN-*.patch             the posting's patches, numbered from 1
#   checkpatch.txt           scripts/checkpatch.pl --strict on each patch
#   get_maintainer.txt       scripts/get_maintainer.pl on the posting
#   build-each.txt           each patch built alone (build-each.sh)
#   heads.txt                the posting's last patch built on every other
#                            configuration (heads.sh)
#
# A cover letter longer than 200 lines, a checkpatch complaint or a build
# that fails makes the script fail, after everything is written, so that
# the reasons are on disk.
#
# Environment: RFC_BUILD_EACH=FILE and RFC_HEADS=FILE take build-each.sh's
# and heads.sh's output from a run on the same series head instead of
# building again.
#
# The patches are written with the author and sign-off of whoever posts
# them: RFC_AUTHOR="Name <address>", or else user.name and user.email from
# git config.  Without one, nothing is written: the series' own commits
# carry the kernel tree's placeholder identity, which certifies nothing.
set -eu
. "$(dirname "$0")/../lib.sh"

placeholder="$TREE_NAME <$TREE_EMAIL>"
author=${RFC_AUTHOR:-}
if [ -z "$author" ] && name=$(git -C "$TOP" config user.name) && email=$(git -C "$TOP" config user.email); then
	author="$name <$email>"
fi
case $author in
"" | "$placeholder" | *"<>"*) die "no author to post as: set RFC_AUTHOR=\"Name <address>\" or git config user.name and user.email (the sign-off certifies the DCO)" ;;
*" <"*@*">") ;;
*) die "RFC_AUTHOR='$author': not \"Name <address>\"" ;;
esac
log "posting as $author"

out=$TOP/results/rfc
"$TOP/scripts/kernel-src.sh"
[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no $KSRC/scripts/checkpatch.pl"
# checkpatch runs spdxcheck.py with "python3": use Debian's, which has ply.
export PATH=/usr/bin:$PATH
head=$(git -C "$KSRC" rev-parse HEAD)
mapfile -t commits < <(git -C "$KSRC" rev-list --reverse pristine..HEAD)
postings=$(postings)
[ -n "$postings" ] || die "kernel/patches/series names no posting"
export RFC_KVER RFC_DEBVER RFC_SERIES=$KSERIES
RFC_KVER=$(make -s -C "$KSRC" kernelversion)
RFC_DEBVER=$(cat "$KSRC/.git/alloctag-debian-version")

tmp=$(mktemp -d "$BUILD/.rfc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# check NAME SCRIPT ENVVAR: the output of a build check, run now or taken
# from the file ENVVAR names (which must be of this series head).
check() {
	local f=${!3:-}
	if [ -n "$f" ]; then
		grep -q "series head ${head:0:12}," "$f" || die "$f: not $1's output for ${head:0:12}"
		tail -1 "$f" | grep -q "^$1: " || die "$f: incomplete"
		cp "$f" "$tmp/$1.txt"
	else
		log "$1: building (see scripts/rfc/$2)"
		"$TOP/scripts/rfc/$2" >"$tmp/$1.txt" || true
	fi
}
check build-each build-each.sh RFC_BUILD_EACH
check heads heads.sh RFC_HEADS

fail=0
first=1
for p in $postings; do
	last=$(posting_end "$p")
	d=$tmp/out/$p
	mkdir -p "$d"
	base=pristine
	[ "$first" = 1 ] || base=${commits[first - 2]}
	prefix="RFC PATCH"
	[ "$p" != "$FIXES_POSTING" ] || prefix=PATCH
	log "posting $p: patches $first to $last"
	git -C "$KSRC" format-patch -q --cover-letter --subject-prefix="$prefix" \
		--no-signature --zero-commit --base=pristine -o "$d" "$base..${commits[last - 1]}"
	grep -q "^base-commit: $(git -C "$KSRC" rev-parse pristine)\$" "$d/0000-cover-letter.patch" ||
		die "posting $p: the cover letter names no base-commit"
	[ "$(grep -c '^prerequisite-patch-id: ' "$d/0000-cover-letter.patch")" = "$((first - 1))" ] ||
		die "posting $p: the cover letter does not name the $((first - 1)) patches it applies on top of"
	for f in "$d"/*.patch; do
		sed -i -e "s|^From: $placeholder\$|From: $author|" \
			-e "s|^Signed-off-by: $placeholder\$|Signed-off-by: $author|" "$f"
		! grep -qF "$placeholder" "$f" || die "${f##*/} still names $placeholder"
	done
	patches=$(cd "$d" && ls -1 [0-9]*.patch | grep -v '^0000-')
	{
		echo "# scripts/checkpatch.pl --strict, $RFC_KVER, posting $p"
		for f in $patches; do
			echo "== $f"
			"$KSRC/scripts/checkpatch.pl" --strict --ignore "$CHECKPATCH_IGNORE" \
				--root="$KSRC" --showfile "$d/$f" 2>&1 | sed "s|$d/||g" || true
		done
	} >"$d/checkpatch.txt"
	[ "$(grep -c '^total: 0 errors, 0 warnings, 0 checks,' "$d/checkpatch.txt")" = "$((last - first + 1))" ] ||
		{ log "posting $p: checkpatch --strict is not clean"; fail=1; }
	(cd "$KSRC" && ./scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		$(for f in $patches; do echo "$d/$f"; done)) >"$d/get_maintainer.txt" ||
		die "get_maintainer.pl failed on posting $p"
	# The check outputs, cut to this posting's patches and head.
	awk -v a="$first" -v b="$last" '/^#/ || ($3 ~ /^[0-9]+$/ && $3 + 0 >= a && $3 + 0 <= b)' \
		"$tmp/build-each.txt" >"$d/build-each.txt"
	awk -v p="$p" '/^#/ || $3 == p' "$tmp/heads.txt" >"$d/heads.txt"
	! grep -q '^FAILED' "$d/build-each.txt" "$d/heads.txt" ||
		{ log "posting $p: a build failed (see its build-each.txt, heads.txt)"; fail=1; }
	python3 "$TOP/scripts/rfc/cover-letter.py" "$TOP/results" "$TOP/scripts/rfc/letters/$p.txt" \
		"$d/0000-cover-letter.patch" "$d" "$p" "$first" "$last" ||
		die "posting $p: could not fill in the cover letter"
	n=$(wc -l <"$d/0000-cover-letter.patch")
	[ "$n" -le 200 ] || { log "posting $p: the cover letter has $n lines, over 200"; fail=1; }
	first=$((last + 1))
done
[ "$((first - 1))" = "${#commits[@]}" ] ||
	die "the postings hold $((first - 1)) patches, the series ${#commits[@]}"

rm -rf "$out"
mkdir -p "$(dirname "$out")"
mv "$tmp/out" "$out"
log "wrote $out: postings $(echo $postings | tr -d ' ')"
[ "$fail" = 0 ] || die "not ready to post: see the messages above"
