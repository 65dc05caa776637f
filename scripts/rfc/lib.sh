# Shared by the RFC checks (build-each.sh, heads.sh); sourced, never run.
# Each check builds in a git worktree of the fork's repository of its own,
# so that $KSRC's checkout is never touched, with a config fragment of
# scripts/rfc/configs/ merged over its architecture's tinyconfig.
. "$(dirname "${BASH_SOURCE[0]}")/../lib.sh"

RFC_CONFIGS=$TOP/scripts/rfc/configs
# The configurations build-each.sh builds every patch on; heads.sh builds
# each posting's head on the others.
RFC_EACH_CONFIGS="x86_64 arm64 nomodules"

# rfc_worktree DIR: DIR, a clean worktree of $KSRC (made when missing).
rfc_worktree() {
	git -C "$KSRC" rev-parse -q --verify pristine >/dev/null ||
		die "$KSRC has no 'pristine' tag"
	if [ ! -e "$1/.git" ]; then
		git -C "$KSRC" worktree prune
		log "creating worktree $1"
		git -C "$KSRC" worktree add -q --detach "$1" pristine ||
			die "git worktree add $1 failed"
	fi
	git -C "$1" diff --quiet HEAD && git -C "$1" diff --cached --quiet HEAD ||
		die "$1 has local changes; remove it ('git -C $KSRC worktree remove --force $1')"
}

# rfc_config NAME TREE OUT: configure OUT for scripts/rfc/configs/NAME.config
# at TREE's checkout and keep it as OUT/config.head; sets rfc_margs (make's
# ARCH=, CROSS_COMPILE=, CC=, HOSTCC= and -j) for rfc_build.
rfc_config() {
	local frag=$RFC_CONFIGS/$1.config arch cross
	[ -f "$frag" ] || die "no $frag"
	arch=$(frag_arch "$frag")
	cross=$(cross_prefix "$arch")
	kbuild_env "$2" HEAD "$cross"
	rfc_margs=(CC="$cc" HOSTCC="$hostcc" -j"$JOBS")
	case $arch in
	x86_64) ;;
	s390x) rfc_margs+=(ARCH=s390 CROSS_COMPILE="$cross") ;;
	*) rfc_margs+=(ARCH="$arch" CROSS_COMPILE="$cross") ;;
	esac
	kconfig_assemble "$1" "$2" "$3" "${rfc_margs[@]}" -- "$frag" >/dev/null
	cp "$3/.config" "$3/config.head"
}

# rfc_settle TREE OUT: OUT/.config as a build of TREE's checkout takes it:
# config.head fitted to the checkout's Kconfig by olddefconfig, so that an
# option an earlier commit lacks is dropped for that build only.
rfc_settle() {
	cp "$2/config.head" "$2/.config" &&
		make -s -C "$1" O="$2" "${rfc_margs[@]}" olddefconfig >/dev/null
}

# rfc_build TREE OUT LOG: build everything of OUT/.config (rfc_settle) at
# TREE's checkout.
rfc_build() {
	make -s -C "$1" O="$2" "${rfc_margs[@]}" all >"$3" 2>&1
}

# A check's result line is kept under KEY in the ledger RFC_LEDGER
# (results/rfc-builds.txt, committed), KEY naming the source trees it was
# taken on (git tree hashes, which do not change when the series is
# applied again) and the config the build took: a later run, on this
# machine or another, prints it again instead of building the same
# sources, so that the builds, hours on two cores, can be spread over
# sessions.  The config is the settled one (rfc_settle), not the head's, so
# that an option a later patch adds changes no earlier patch's key.
RFC_LEDGER=${RFC_LEDGER:-$TOP/results/rfc-builds.txt}
# rfc_key OUT REV...: the key of REVs' trees with OUT/.config.
rfc_key() {
	local out=$1 k
	shift
	k=$(git -C "$KSRC" rev-parse "${@/%/^{tree\}}" | cut -c1-16 | tr '\n' -)
	echo "${k}$(sha256sum <"$out/.config" | cut -c1-16)"
}
# rfc_done KEY: print the line kept for KEY, when it says "ok".
rfc_done() {
	local line
	line=$(grep -s -m1 "^$1 ok " "$RFC_LEDGER") || return 1
	printf '%s\n' "${line#* }"
}
# rfc_keep KEY LINE: keep LINE for KEY in the ledger, in place of any line
# kept for it before, and print it.
rfc_keep() {
	local tmp=$RFC_LEDGER.tmp
	{
		if [ -f "$RFC_LEDGER" ]; then
			grep -v "^$1 " "$RFC_LEDGER" || true
		else
			echo "# KEY (trees and settled config, scripts/rfc/lib.sh) and each build check's line"
		fi
		printf '%s %s\n' "$1" "$2"
	} >"$tmp" && mv "$tmp" "$RFC_LEDGER"
	printf '%s\n' "$2"
}
