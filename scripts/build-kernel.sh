#!/bin/bash
# Build one kernel variant: tinyconfig + kernel/configs/guest.config + the
# fragments VARIANT.config names ("# with: NAME...") + VARIANT.config, from
# the tree it names ("# tree: stock|fork"), in $BUILD/kernel-VARIANT, plus
# the out-of-tree modules under kernel/modules/ and benchmarks/modules/.
# A fragment with "# arch: arm64|i386" is cross-built instead (Debian's
# gcc-aarch64-linux-gnu / gcc-i686-linux-gnu, scripts/deps.sh cross):
# tinyconfig of that architecture + its "# with:" fragments + itself, no
# guest.config (an x86_64 guest's), and only the modules of kernel/modules/.
# Usage: scripts/build-kernel.sh VARIANT
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
frag=$TOP/kernel/configs/$variant.config
[ -f "$frag" ] || die "no config fragment kernel/configs/$variant.config"
KSRC=$(variant_tree "$variant")
[ -f "$FORK_SRC/.git/alloctag-series" ] && [ -f "$KSRC/Makefile" ] ||
	die "no kernel source in $KSRC (run scripts/kernel-src.sh)"
arch=$(sed -n 's/^# arch: *\([a-z0-9_]*\).*/\1/p' "$frag" | head -1)
case ${arch:=x86_64} in
x86_64)	cross="" image=bzImage image_path=arch/x86/boot/bzImage ;;
i386)	cross=i686-linux-gnu- image=bzImage image_path=arch/x86/boot/bzImage ;;
arm64)	cross=aarch64-linux-gnu- image=Image image_path=arch/arm64/boot/Image ;;
*)	die "$variant.config: unknown '# arch: $arch' (x86_64, i386 or arm64)" ;;
esac
[ -z "$cross" ] || command -v "${cross}gcc" >/dev/null ||
	die "$variant: no ${cross}gcc (scripts/deps.sh cross)"
frags=()
for w in $(sed -n 's/^# with: *//p' "$frag"); do
	[ -f "$TOP/kernel/configs/$w.config" ] || die "$variant.config: no kernel/configs/$w.config"
	frags+=("$TOP/kernel/configs/$w.config")
done
if [ "$arch" = x86_64 ]; then
	frags=("$TOP/kernel/configs/guest.config" ${frags[@]+"${frags[@]}"} "$frag")
else
	frags=(${frags[@]+"${frags[@]}"} "$frag")
fi
out=$BUILD/kernel-$variant
mkdir -p "$out"

# Reproducible builds: fixed identity, and ccache when it is there.
export KBUILD_BUILD_USER=alloctag KBUILD_BUILD_HOST=fork
export KBUILD_BUILD_TIMESTAMP="$(git -C "$KSRC" log -1 --format=%cI)"
cc=${cross}gcc hostcc=gcc
command -v ccache >/dev/null && cc="ccache $cc" hostcc="ccache gcc"
# No CCACHE_BASEDIR: ccache would rewrite the source paths on the command
# line to relative ones but not -fmacro-prefix-map, and every tag's file
# name in /proc/allocinfo would read "../stock/mm/..." instead of "mm/...".
unset CCACHE_BASEDIR
if [ -n "$cross" ]; then
	kmake() { make -s -C "$KSRC" O="$out" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"; }
else
	kmake() { make -s -C "$KSRC" O="$out" CC="$cc" HOSTCC="$hostcc" -j"$JOBS" "$@"; }
fi

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

log "$variant: building $image and modules in $out (-j$JOBS)"
start=$(date +%s)
kmake "$image" modules
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
log "$variant: built in $(( $(date +%s) - start ))s: $(du -h "$out/$image_path" | cut -f1) $image"
