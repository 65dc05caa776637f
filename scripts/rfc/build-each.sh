#!/bin/bash
# Check that every patch of the series builds on its own, on each
# configuration asked for (by default x86_64 with allocation profiling, its
# debug option and KUnit tests, configs/x86_64.config; arm64; and x86_64
# without modules): in the worktree $BUILD/rfc-tree, check out pristine
# and then each commit of pristine..HEAD in turn, and build everything
# incrementally in $BUILD/rfc-out/CONFIG.  Then rebuild the C files the
# patch touches with W=1: a W=1 warning on a line the patch adds fails the
# patch (warnings on lines it leaves alone are 7.3's, and listed only in
# the log).
#
# Prints, for each configuration, a "# build-each: CONFIG ..." line and one
# line per commit ("ok"/"FAILED", seconds, number, subject); then a closing
# "build-each: ..." line; exit status 1 when one fails (its build log is
# kept in $BUILD/rfc-out/CONFIG/build-NNNN.log).  A patch built before on
# the same sources and config is not built again (rfc_key in lib.sh): its
# line, timing included, is the earlier run's.
# Usage: scripts/rfc/build-each.sh [CONFIG...]   (RFC_HEAD=REF:
# pristine..REF instead of pristine..HEAD)
set -eu
. "$(dirname "$0")/lib.sh"

tree=$BUILD/rfc-tree
configs=("$@")
[ ${#configs[@]} -gt 0 ] || read -ra configs <<<"$RFC_EACH_CONFIGS"
head=$(git -C "$KSRC" rev-parse "${RFC_HEAD:-HEAD}^{commit}") || die "no commit '${RFC_HEAD:-HEAD}'"
commits=$(git -C "$KSRC" rev-list --reverse "pristine..$head")
total=$(echo "$commits" | sed '/^$/d' | wc -l)
rfc_worktree "$tree"

# added_lines COMMIT FILE: the line numbers COMMIT adds to FILE, one a line.
added_lines() {
	git -C "$tree" diff -U0 "$1^" "$1" -- "$2" |
		sed -n 's/^@@ -[0-9,]* +\([0-9]*\)\(,\([0-9]*\)\)\? @@.*/\1 \3/p' |
		awk '{ n = ($2 == "") ? 1 : $2; for (i = 0; i < n; i++) print $1 + i }'
}

# w1 COMMIT LABEL: rebuild COMMIT's kernel C files that the config builds
# with W=1 (errors not forced, so that every warning is seen) and count the
# warnings on lines COMMIT adds, in any file it touches.  Prints the count.
# Host programs (scripts/, tools/) are left out: W=1 is a kernel flag, and
# naming their objects as targets would compile them as kernel code.
w1() {
	local c=$1 logf=$bout/w1-$2.log objs=() f n=0 file line
	for f in $(git -C "$tree" diff-tree --no-commit-id --name-only -r "$c" | grep '\.c$'); do
		case $f in scripts/* | tools/*) continue ;; esac
		[ -f "$bout/${f%.c}.o" ] && objs+=("${f%.c}.o")
	done
	: >"$logf"
	if [ ${#objs[@]} -gt 0 ]; then
		make -s -C "$tree" O="$bout" "${rfc_margs[@]}" W=1 KCFLAGS=-Wno-error \
			"${objs[@]}" >"$logf" 2>&1 || { echo fail; return; }
	fi
	while IFS=: read -r file line _; do
		file=${file#"$tree"/}
		file=${file#../}
		added_lines "$c" "$file" | grep -qx "$line" && n=$((n + 1))
	done < <(grep -E '^[^ :]+:[0-9]+:[0-9]+: warning:' "$logf" || true)
	echo "$n"
}

ok=0
build() {
	local c=$1 label=$2 subject=$3 t0 logf w key parent=$1
	[ "$label" = base ] || parent=$c^
	logf=$bout/build-$label.log
	git -C "$tree" checkout -q --detach "$c"
	rfc_settle "$tree" "$bout" || {
		printf 'FAILED  %4ss  %s  %s (olddefconfig)\n' 0 "$label" "$subject"
		return 1
	}
	key=$(rfc_key "$bout" "$c" "$parent")
	rfc_done "$key" && return 0
	t0=$(date +%s)
	log "building $label: $subject"
	if ! rfc_build "$tree" "$bout" "$logf"; then
		tail -20 "$logf" >&2
		printf 'FAILED  %4ss  %s  %s (log: %s)\n' "$(( $(date +%s) - t0 ))" "$label" "$subject" "$logf"
		return 1
	fi
	w=0
	[ "$label" = base ] || w=$(w1 "$c" "$label")
	if [ "$w" != 0 ]; then
		grep -E 'warning:' "$bout/w1-$label.log" | head -20 >&2
		printf 'FAILED  %4ss  %s  %s (W=1: %s warning(s) on added lines: %s)\n' \
			"$(( $(date +%s) - t0 ))" "$label" "$subject" "$w" "$bout/w1-$label.log"
		return 1
	fi
	rfc_keep "$key" "$(printf 'ok      %4ss  %s  %s' "$(( $(date +%s) - t0 ))" "$label" "$subject")"
}

# each CONFIG: every patch built on CONFIG, configured at the series head,
# where every option the fragment asks for must exist and survive Kconfig.
# Sets base_ok; counts into ok and fail.
each() {
	local cfg=$1 c i=0
	bout=$BUILD/rfc-out/$cfg
	mkdir -p "$bout"
	git -C "$tree" checkout -q --detach "$head"
	log "configuring $cfg: tinyconfig + configs/$cfg.config at ${head:0:12} in $bout"
	rfc_config "$cfg" "$tree" "$bout"
	echo "# build-each: $cfg tinyconfig + scripts/rfc/configs/$cfg.config, W=1 on the C files each patch touches, $(make -s -C "$tree" kernelversion), series head ${head:0:12}, $(date -u +%Y-%m-%d)"
	build pristine base "pristine (the base the series applies to)" || { base_ok="FAILED on $cfg"; fail=1; }
	for c in $commits; do
		i=$((i + 1))
		if build "$c" "$(printf '%04d' "$i")" "$(git -C "$KSRC" log -1 --format=%s "$c")"; then
			ok=$((ok + 1))
		else
			fail=1
		fi
	done
}

fail=0
base_ok=ok
for cfg in "${configs[@]}"; do
	[ -f "$RFC_CONFIGS/$cfg.config" ] || die "no configuration '$cfg' in $RFC_CONFIGS"
done
for cfg in "${configs[@]}"; do
	each "$cfg"
done
git -C "$tree" checkout -q --detach pristine
echo "build-each: base $base_ok; $ok of $((total * ${#configs[@]})) builds of the $total patches on their own, on ${configs[*]}"
exit $fail
