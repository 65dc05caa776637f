#!/bin/bash
# 'make rfc': write the RFC posting of the series into results/rfc/:
#
#   0000-cover-letter.patch
#                        git format-patch --cover-letter pristine..HEAD of the
#                        kernel tree; the cover letter is filled in from
#                        results/ (see scripts/rfc/cover-letter.py)
#   checkpatch.txt       scripts/checkpatch.pl --strict on every patch
#   get_maintainer.txt   scripts/get_maintainer.pl on the series
#   build-each.txt       scripts/rfc/build-each.sh: each patch builds alone
#
# An empty series is not an error: the cover letter then says so in its
# subject and first paragraph, and this script ends with a warning.  A patch
# that checkpatch complains about or that does not build on its own makes
# the script fail (after writing everything, so the reasons are on disk).
#
# Environment: RFC_BUILD=0 skips build-each.sh (the cover letter then says
# the per-patch builds were not checked); RFC_BUILD_EACH=FILE takes
# build-each.sh's output from FILE, run earlier on the same series head
# (or a full run on an earlier head followed by an RFC_FROM run on this one,
# the series having only grown at its end: the patches before are the same
# commits, which make-rfc checks);
# RFC_VARIANT (default fork) is the guest config build-each.sh builds; RFC_HEAD=REF posts pristine..REF of the
# kernel tree instead of pristine..HEAD (e.g. a branch not yet exported;
# nothing is checked out for it).
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
res=$TOP/results
# The kernel tree as the pipeline leaves it (a no-op when it is current).
"$TOP/scripts/kernel-src.sh"
[ -x "$KSRC/scripts/checkpatch.pl" ] || die "no $KSRC/scripts/checkpatch.pl"
# checkpatch runs spdxcheck.py with "python3": use Debian's, which has ply.
export PATH=/usr/bin:$PATH
git -C "$KSRC" rev-parse -q --verify pristine >/dev/null || die "$KSRC has no 'pristine' tag"
rhead=${RFC_HEAD:-HEAD}
git -C "$KSRC" rev-parse -q --verify "$rhead^{commit}" >/dev/null || die "no commit '$rhead' in $KSRC"
n=$(git -C "$KSRC" rev-list --count "pristine..$rhead")
kver=$(make -s -C "$KSRC" kernelversion)
debver=$(cat "$KSRC/.git/alloctag-debian-version")
project_commit=$(git -C "$TOP" rev-parse --short=12 HEAD)
git -C "$TOP" diff --quiet HEAD -- scripts/rfc kernel/patches kernel/configs ||
	project_commit="$project_commit-dirty"
today=$(date -u +%Y-%m-%d)

tmp=$(mktemp -d "$BUILD/.rfc.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
log "series: $n patch(es) on top of pristine ($KPKG $debver)"
if [ "$n" -gt 0 ]; then
	git -C "$KSRC" format-patch -q --cover-letter --subject-prefix="RFC PATCH" \
		--no-signature --zero-commit -o "$tmp" "pristine..$rhead"
else
	# format-patch writes nothing for an empty range: start the cover
	# letter from the same header it would write.
	{
		echo "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"
		echo "From: $(git -C "$KSRC" config user.name) <$(git -C "$KSRC" config user.email)>"
		echo "Date: $(date -u -R)"
		echo "Subject: [RFC PATCH 0/0] *** SUBJECT HERE ***"
		echo
		echo "*** BLURB HERE ***"
		echo
	} >"$tmp/0000-cover-letter.patch"
fi
patches=$(cd "$tmp" && ls -1 | grep -v '^0000-cover-letter' | grep '\.patch$' || true)
# From: and Signed-off-by: of the kernel tree's placeholder become the poster's
for p in $patches 0000-cover-letter.patch; do
	sed -i -e "s|^From: $placeholder\$|From: $author|" \
		-e "s|^Signed-off-by: $placeholder\$|Signed-off-by: $author|" "$tmp/$p"
	! grep -qF "$placeholder" "$tmp/$p" || die "$p still names $placeholder"
done

# checkpatch --strict on every patch.
log "checkpatch --strict on $n patch(es)"
cpfail=0
{
	echo "# scripts/checkpatch.pl --strict, $kver, $today, project commit $project_commit"
	for p in $patches; do
		echo "== $p"
		"$KSRC/scripts/checkpatch.pl" --strict --ignore "$CHECKPATCH_IGNORE" --root="$KSRC" \
			--showfile "$tmp/$p" || true
	done
	[ -n "$patches" ] || echo "(no patches)"
} 2>&1 | sed "s|$tmp/||g" >"$tmp/checkpatch.txt" || true
# Clean means one "total: 0 errors, 0 warnings, 0 checks" line per patch.
[ "$(grep -c '^total: 0 errors, 0 warnings, 0 checks,' "$tmp/checkpatch.txt")" = "$n" ] || cpfail=1

# get_maintainer on the whole series.
log "get_maintainer.pl on the series"
if [ -n "$patches" ]; then
	(cd "$KSRC" && ./scripts/get_maintainer.pl --no-git --no-git-fallback \
		--no-rolestats $(for p in $patches; do echo "$tmp/$p"; done)) \
		>"$tmp/get_maintainer.txt" 2>"$tmp/get_maintainer.err" ||
		{ cat "$tmp/get_maintainer.err" >&2; die "get_maintainer.pl failed"; }
else
	echo "(no patches)" >"$tmp/get_maintainer.txt"
fi

# Each patch builds on its own.
bfail=0
if [ -n "${RFC_BUILD_EACH:-}" ]; then
	# A build-each.sh output of this very series head, taken earlier.
	grep -q "series head $(git -C "$KSRC" rev-parse --short=12 "$rhead")," "$RFC_BUILD_EACH" ||
		die "$RFC_BUILD_EACH: not build-each.sh's output for $rhead"
	cp "$RFC_BUILD_EACH" "$tmp/build-each.txt"
	grep -q '^FAILED' "$tmp/build-each.txt" && bfail=1
	grep -q '^build-each: base .* patches build on their own$' "$tmp/build-each.txt" ||
		die "$RFC_BUILD_EACH: incomplete"
	# A run from patch N: each earlier run's series must share the
	# patches before N with this one, commit for commit.
	from=$(sed -n 's/^# build-each: .*, from patch \([0-9]*\)$/\1/p' "$tmp/build-each.txt" | tail -1)
	if [ -n "$from" ]; then
		mine=$(git -C "$KSRC" rev-list --reverse "pristine..$rhead" | head -n $((from - 1)))
		for h in $(sed -n 's/^# build-each: .*, series head \([0-9a-f]*\),.*/\1/p' "$tmp/build-each.txt" | sed '$d'); do
			[ "$(git -C "$KSRC" rev-list --reverse "pristine..$h" 2>/dev/null | head -n $((from - 1)))" = "$mine" ] ||
				die "$RFC_BUILD_EACH: the run at series head $h does not share patches 1 to $((from - 1)) with $rhead"
		done
	fi
elif [ "${RFC_BUILD:-1}" != 0 ]; then
	RFC_HEAD=$rhead "$TOP/scripts/rfc/build-each.sh" >"$tmp/build-each.txt" || bfail=1
else
	echo "not checked (RFC_BUILD=0)" >"$tmp/build-each.txt"
fi

RFC_N=$n RFC_KVER=$kver RFC_DEBVER=$debver RFC_SERIES=$KSERIES \
RFC_COMMIT=$project_commit RFC_DATE=$today \
RFC_SOURCE=$(git -C "$KSRC" rev-parse --short=12 "$rhead") \
	python3 "$TOP/scripts/rfc/cover-letter.py" "$res" "$tmp" ||
	die "could not fill in the cover letter"

rm -rf "$out" && mkdir -p "$out"
# The patches themselves are kernel/patches/: only the cover letter here.
cp "$tmp"/0000-cover-letter.patch "$tmp"/checkpatch.txt "$tmp"/get_maintainer.txt "$tmp"/build-each.txt "$out"/
log "wrote $out: $(ls "$out" | wc -l) file(s)"
[ "$cpfail" = 0 ] || die "checkpatch --strict is not clean: see $out/checkpatch.txt"
[ "$bfail" = 0 ] || die "a patch does not build on its own: see $out/build-each.txt"
[ "$n" -gt 0 ] || log "warning: the series is empty: $out holds a cover letter only"
