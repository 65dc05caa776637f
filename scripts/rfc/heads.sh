#!/bin/bash
# Check that the head of every posting builds on the configurations the
# series must not break: each fragment of scripts/rfc/configs/ but those
# of RFC_EACH_CONFIGS (build-each.sh builds every patch on those).  For each configuration,
# in the worktree $BUILD/rfc-heads-tree, check out each posting's last
# patch in turn and build everything incrementally in
# $BUILD/rfc-heads/CONFIG, configured at the series head.
#
# Prints one line per build ("ok"/"FAILED", seconds, posting, config) and
# a closing "heads: N of M builds" line; exit status 1 when one fails (its
# log is kept in $BUILD/rfc-heads/CONFIG/build-POSTING.log).  A head built
# before on the same sources and config is not built again (rfc_key).
# Usage: scripts/rfc/heads.sh [CONFIG...]   (RFC_HEAD=REF: the series
# pristine..REF instead of pristine..HEAD; RFC_POSTINGS="E F": those
# postings' heads only)
set -eu
. "$(dirname "$0")/lib.sh"

tree=$BUILD/rfc-heads-tree
head=$(git -C "$KSRC" rev-parse "${RFC_HEAD:-HEAD}^{commit}") || die "no commit '${RFC_HEAD:-HEAD}'"
configs=("$@")
if [ ${#configs[@]} = 0 ]; then
	for f in "$RFC_CONFIGS"/*.config; do
		f=${f##*/}
		case " $RFC_EACH_CONFIGS " in *" ${f%.config} "*) ;; *) configs+=("${f%.config}") ;; esac
	done
fi
postings=$(postings)
[ -n "$postings" ] || die "kernel/patches/series names no posting"
if [ -n "${RFC_POSTINGS:-}" ]; then
	for p in $RFC_POSTINGS; do
		echo "$postings" | grep -qx "$p" || die "RFC_POSTINGS: no posting '$p' in kernel/patches/series"
	done
	postings=$RFC_POSTINGS
fi
rfc_worktree "$tree"

echo "# heads: the last patch of each posting, $(make -s -C "$KSRC" kernelversion), series head ${head:0:12}, $(date -u +%Y-%m-%d)"
ok=0 n=0 fail=0
for cfg in "${configs[@]}"; do
	out=$BUILD/rfc-heads/$cfg
	git -C "$tree" checkout -q --detach "$head"
	log "$cfg: configuring at ${head:0:12} in $out"
	rfc_config "$cfg" "$tree" "$out"
	for p in $postings; do
		end=$(posting_end "$p")
		c=$(git -C "$KSRC" rev-list --reverse "pristine..$head" | sed -n "${end}p")
		[ -n "$c" ] || die "the series has fewer than $end patches (posting $p)"
		n=$((n + 1))
		git -C "$tree" checkout -q --detach "$c"
		if ! rfc_settle "$tree" "$out"; then
			fail=1
			printf 'FAILED  %4ss  %s  %-10s patch %s (olddefconfig)\n' 0 "$p" "$cfg" "$end"
			continue
		fi
		key=$(rfc_key "$out" "$c")
		if rfc_done "$key"; then
			ok=$((ok + 1))
			continue
		fi
		t0=$(date +%s)
		log "$cfg: building posting $p's head (patch $end)"
		if rfc_build "$tree" "$out" "$out/build-$p.log"; then
			ok=$((ok + 1))
			rfc_keep "$key" "$(printf 'ok      %4ss  %s  %-10s patch %s' "$(( $(date +%s) - t0 ))" "$p" "$cfg" "$end")"
		else
			fail=1
			tail -20 "$out/build-$p.log" >&2
			printf 'FAILED  %4ss  %s  %-10s patch %s (log: %s)\n' "$(( $(date +%s) - t0 ))" "$p" "$cfg" "$end" "$out/build-$p.log"
		fi
	done
done
git -C "$tree" checkout -q --detach pristine
echo "heads: $ok of $n builds"
exit $fail
