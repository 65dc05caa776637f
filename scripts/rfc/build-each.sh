#!/bin/bash
# Check that every patch of the series builds on its own: in a separate git
# worktree of the kernel tree ($BUILD/rfc-tree, so $KSRC's own checkout is
# never touched), check out pristine and then each commit of
# pristine..HEAD in turn, and build the guest config (tinyconfig + the
# fragments of RFC_VARIANT.config, as build-kernel.sh, configured and
# checked at the series head) in $BUILD/rfc-out incrementally after each.
#
# Prints one line per commit ("ok"/"FAILED", seconds, subject) and a
# closing "build-each: N of M patches build" line; exit status 1 when one
# fails (its build log is kept in $BUILD/rfc-out/build-NNNN.log).
# Usage: scripts/rfc/build-each.sh   (RFC_HEAD=REF: pristine..REF instead
# of pristine..HEAD; RFC_VARIANT=fork: the variant fragment; RFC_FROM=N:
# build patches N and on only, on patch N-1 as the base: for a series that
# grew at its end since a full run, whose output goes before this one's)
set -eu
. "$(dirname "$0")/../lib.sh"

variant=${RFC_VARIANT:-fork}
tree=$BUILD/rfc-tree
bout=$BUILD/rfc-out
frag=$TOP/kernel/configs/$variant.config
[ -f "$frag" ] || die "no $frag"
git -C "$KSRC" rev-parse -q --verify pristine >/dev/null || die "$KSRC has no 'pristine' tag"
head=$(git -C "$KSRC" rev-parse "${RFC_HEAD:-HEAD}^{commit}") || die "no commit '${RFC_HEAD:-HEAD}'"
commits=$(git -C "$KSRC" rev-list --reverse "pristine..$head")
total=$(echo "$commits" | sed '/^$/d' | wc -l)
from=${RFC_FROM:-1}
case $from in
[1-9]|[1-9][0-9]|[1-9][0-9][0-9]) [ "$from" -le "$total" ] ||
	die "RFC_FROM=$from: the series has $total patch(es)" ;;
*) die "RFC_FROM=$from: not a patch number" ;;
esac
base=pristine base_what="pristine (the base the series applies to)"
if [ "$from" -gt 1 ]; then
	base=$(echo "$commits" | sed -n "$((from - 1))p")
	base_what="patch $((from - 1)), $(git -C "$KSRC" log -1 --format=%s "$base")"
fi

if [ ! -e "$tree/.git" ]; then
	git -C "$KSRC" worktree prune
	log "creating worktree $tree at pristine"
	git -C "$KSRC" worktree add -q --detach "$tree" pristine ||
		die "git worktree add $tree failed"
fi
git -C "$tree" diff --quiet HEAD && git -C "$tree" diff --cached --quiet HEAD ||
	die "$tree has local changes; remove it ('git -C $KSRC worktree remove --force $tree')"

kbuild_env "$KSRC" pristine ""
mkdir -p "$bout"
# Nothing from this repository: the series builds and runs its own
# scripts/link-tags.
makeargs=(CC="$cc" HOSTCC="$hostcc" -j"$JOBS")
kmake() { make -s -C "$tree" O="$bout" "${makeargs[@]}" "$@"; }

# build LABEL: configure and build; prints the result line.  Each commit
# starts from the config made at the series head (config.head) and
# olddefconfig fits it to that commit's Kconfig: an option an earlier
# commit lacks (one the series adds) is dropped for that build only, and
# comes back with the commit that adds it.
ok=0
build() {
	local label=$1 subject=$2 t0 rc=0 logf
	logf=$bout/build-$label.log
	t0=$(date +%s)
	log "building $label: $subject"
	{
		cp "$bout/config.head" "$bout/.config" &&
			kmake olddefconfig && kmake bzImage modules
	} >"$logf" 2>&1 || rc=$?
	if [ $rc = 0 ]; then
		printf 'ok      %4ss  %s  %s\n' "$(( $(date +%s) - t0 ))" "$label" "$subject"
		return 0
	fi
	tail -20 "$logf" >&2
	printf 'FAILED  %4ss  %s  %s (log: %s)\n' "$(( $(date +%s) - t0 ))" "$label" "$subject" "$logf"
	return 1
}

# Configure at the series head, where every option the fragments ask for
# must exist and survive Kconfig (pristine lacks the ones the series adds;
# olddefconfig drops those there, as it always did).
fl=$(variant_fragments "$variant")
mapfile -t frags <<<"$fl"
git -C "$tree" checkout -q --detach "$head"
log "configuring tinyconfig + ${frags[*]##*/} at ${head:0:12} in $bout"
kconfig_assemble "$variant" "$tree" "$bout" "${makeargs[@]}" -- "${frags[@]}" >/dev/null
cp "$bout/.config" "$bout/config.head"
git -C "$tree" checkout -q --detach "$base"

echo "# build-each: guest config ($variant), $(kmake kernelversion), series head ${head:0:12}, $(date -u +%Y-%m-%d)${RFC_FROM:+, from patch $from}"
fail=0
base_ok=ok
build base "$base_what" || { base_ok=FAILED; fail=1; }
i=0
for c in $commits; do
	i=$((i + 1))
	[ "$i" -ge "$from" ] || continue
	git -C "$tree" checkout -q --detach "$c"
	if build "$(printf '%04d' "$i")" "$(git -C "$tree" log -1 --format=%s "$c")"; then
		ok=$((ok + 1))
	else
		fail=1
	fi
done
git -C "$tree" checkout -q --detach pristine
if [ "$from" = 1 ]; then
	echo "build-each: base $base_ok; $ok of $total patches build on their own"
else
	echo "build-each: base $base_ok; patches $from to $total: $ok of $((total - from + 1)) patches build on their own"
fi
exit $fail
