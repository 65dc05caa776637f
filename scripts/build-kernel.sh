#!/bin/bash
# Build one kernel variant: tinyconfig + kernel/configs/guest.config +
# guest-ARCH.config + the fragments VARIANT.config names ("# with: NAME...")
# + VARIANT.config, from the tree it names ("# tree: stock|fork"), for the
# architecture it names ("# arch: arm64|i386"; x86_64 without), in
# $BUILD/kernel-VARIANT, plus the out-of-tree modules under kernel/modules/
# and (x86_64 only) benchmarks/modules/.  An architecture with no
# guest-ARCH.config (i386) is built, never booted: its variant fragment
# stands alone over that architecture's tinyconfig.
# Usage: scripts/build-kernel.sh VARIANT
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
frag=$TOP/kernel/configs/$variant.config
[ -f "$frag" ] || die "no config fragment kernel/configs/$variant.config"
KSRC=$(variant_tree "$variant")
[ -f "$FORK_SRC/.git/alloctag-series" ] && [ -f "$KSRC/Makefile" ] ||
	die "no kernel source in $KSRC (run scripts/kernel-src.sh)"
frags=()
for w in $(sed -n 's/^# with: *//p' "$frag"); do
	[ -f "$TOP/kernel/configs/$w.config" ] || die "$variant.config: no kernel/configs/$w.config"
	frags+=("$TOP/kernel/configs/$w.config")
done
arch=$(frag_arch "$frag")
cross=$(cross_prefix "$arch")
image=$(kernel_image "$arch")
if [ -f "$TOP/kernel/configs/guest-$arch.config" ]; then
	frags=("$TOP/kernel/configs/guest.config" "$TOP/kernel/configs/guest-$arch.config"
		${frags[@]+"${frags[@]}"} "$frag")
else
	frags=(${frags[@]+"${frags[@]}"} "$frag")
fi
out=$BUILD/kernel-$variant
mkdir -p "$out"

# Reproducible builds: fixed identity, and ccache when it is there.
export KBUILD_BUILD_USER=alloctag KBUILD_BUILD_HOST=fork
export KBUILD_BUILD_TIMESTAMP="$(git -C "$KSRC" log -1 --format=%cI)"
cc=${cross}gcc
command -v ccache >/dev/null && cc="ccache $cc"
# No CCACHE_BASEDIR: ccache would rewrite the source paths on the command
# line to relative ones but not -fmacro-prefix-map, and every tag's file
# name in /proc/allocinfo would read "../stock/mm/..." instead of "mm/...".
unset CCACHE_BASEDIR
hostcc=gcc
command -v ccache >/dev/null && hostcc="ccache gcc"
archargs=()
[ -z "$cross" ] || archargs=(ARCH="$arch" CROSS_COMPILE="$cross")
kmake() { make -s -C "$KSRC" O="$out" ${archargs[@]+"${archargs[@]}"} CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"; }

# Regenerate .config only when the fragments or the source changed.
inputs=$( (cat "${frags[@]}"
	git -C "$KSRC" rev-parse HEAD) | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.alloctag-config" 2>/dev/null)" != "$inputs" ]; then
	log "$variant: configuring ($arch tinyconfig + ${frags[*]##*/}) from ${KSRC##*/}"
	kmake tinyconfig >/dev/null
	"$KSRC/scripts/kconfig/merge_config.sh" -m -O "$out" "$out/.config" \
		"${frags[@]}" >/dev/null
	kmake olddefconfig >/dev/null
	# Every option a fragment asks for must have survived Kconfig (the
	# last fragment that sets it wins).
	bad=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*) want=$line ;;
		"# CONFIG_"*" is not set") want=$line ;;
		*) continue ;;
		esac
		sym=${want#\# }; sym=${sym%%[= ]*}
		got=$(grep -E "^($sym=|# $sym is not set)" "$out/.config" || true)
		if [ "$want" != "$got" ] && ! { [ -z "$got" ] && [ "${want#\#}" != "$want" ]; }; then
			log "$variant: asked for '$want', Kconfig gave '${got:-nothing}'"
			bad=1
		fi
	done < <(cat "${frags[@]}" | tac |
		awk '{ s = $0; sub(/^# /, "", s); sub(/[= ].*/, "", s) } !seen[s]++' | tac)
	[ $bad = 0 ] || die "$variant: config fragments not satisfied (missing dependencies?)"
	echo "$inputs" >"$out/.alloctag-config"
fi

log "$variant: building ${image##*/} ($arch) and modules in $out (-j$JOBS)"
start=$(date +%s)
kmake "${image##*/}" modules
for m in "$TOP"/kernel/modules/*/ "$TOP"/benchmarks/modules/*/; do
	[ -f "$m/Kbuild" ] || continue
	# benchmark modules are measured on the x86_64 guest only
	case $arch:$m in x86_64:*|*:"$TOP"/kernel/modules/*) ;; *) continue ;; esac
	name=$(basename "$m")
	dst=$out/extmod/$name
	mkdir -p "$dst"
	cp -u "$m"/* "$dst"/
	# Benchmark modules mark their loops for the cachesim plugin.
	case $m in "$TOP"/benchmarks/*) cp -u "$TOP/benchmarks/cachesim/marker.h" "$dst"/ ;; esac
	kmake M="$dst" modules
done
log "$variant: built in $(( $(date +%s) - start ))s: $(du -h "$out/$image" | cut -f1) ${image##*/}"
