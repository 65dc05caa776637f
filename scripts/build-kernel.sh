#!/bin/bash
# Build one kernel variant: tinyconfig + kernel/configs/guest.config +
# guest-ARCH.config + the fragments VARIANT.config names ("# with: NAME...")
# + VARIANT.config, from the tree it names ("# tree: stock|fixes|fork|bootnum";
# fixes and bootnum are brought up to date first), for the
# architecture it names ("# arch: arm64|i386"; x86_64 without), in
# $BUILD/kernel-VARIANT, plus the out-of-tree modules under kernel/modules/
# and (x86_64 only) benchmarks/modules/.  An architecture with no
# guest-ARCH.config (i386) is built, never booted: its variant fragment
# stands alone over that architecture's tinyconfig.  A fragment with a
# "# build: TARGET..." line is a compile check: only those kbuild targets
# (objects, directories) are built, with no image and no modules.  A variant
# never booted builds vmlinux, not an image.
# Usage: scripts/build-kernel.sh VARIANT
set -eu
. "$(dirname "$0")/lib.sh"

variant=${1:?usage: build-kernel.sh VARIANT}
frag=$TOP/kernel/configs/$variant.config
[ -f "$frag" ] || die "no config fragment kernel/configs/$variant.config"
KSRC=$(variant_tree "$variant")
[ -f "$FORK_SRC/.git/alloctag-series" ] ||
	die "no kernel source in $FORK_SRC (run scripts/kernel-src.sh)"
prepare_tree "$variant"
[ -f "$KSRC/Makefile" ] || die "no kernel source in $KSRC (run scripts/kernel-src.sh)"
fl=$(variant_fragments "$variant")
mapfile -t frags <<<"$fl"
arch=$(frag_arch "$frag")
cross=$(cross_prefix "$arch")
image=$(kernel_image "$arch")
# A variant that is never booted needs vmlinux (for the tag map and
# link-tags' checks) and its modules, not a compressed image.
[ -f "$TOP/kernel/configs/guest-$arch.config" ] || image=vmlinux
out=$BUILD/kernel-$variant
mkdir -p "$out"

kbuild_env "$KSRC" HEAD "$cross"
archargs=()
[ -z "$cross" ] || archargs=(ARCH="$arch" CROSS_COMPILE="$cross")
makeargs=(${archargs[@]+"${archargs[@]}"} CC="$cc" HOSTCC="$hostcc" -j"$JOBS")
kmake() { make -s -C "$KSRC" O="$out" "${makeargs[@]}" "$@"; }

# Regenerate .config only when the fragments or the source changed.
inputs=$( (cat "${frags[@]}"
	git -C "$KSRC" rev-parse HEAD) | sha256sum | cut -d' ' -f1)
if [ ! -f "$out/.config" ] || [ "$(cat "$out/.alloctag-config" 2>/dev/null)" != "$inputs" ]; then
	log "$variant: configuring ($arch tinyconfig + ${frags[*]##*/}) from ${KSRC##*/}"
	kconfig_assemble "$variant" "$KSRC" "$out" "${makeargs[@]}" -- "${frags[@]}" >/dev/null
	echo "$inputs" >"$out/.alloctag-config"
fi

start=$(date +%s)
targets=$(sed -n 's/^# build: *//p' "$frag" | head -1)
if [ -n "$targets" ]; then
	log "$variant: compile check of $targets ($arch) in $out (-j$JOBS)"
	# shellcheck disable=SC2086
	kmake $targets
	log "$variant: compiled in $(( $(date +%s) - start ))s"
	exit 0
fi
log "$variant: building ${image##*/} ($arch) and modules in $out (-j$JOBS)"
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
