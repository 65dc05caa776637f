#!/bin/bash
# Build the guest's initramfs (uncompressed newc cpio): static busybox, the
# guest scripts and programs, upstream's allocinfo ioctl selftest (when the
# variant's source has one) and the series' tools/mm/alloctop, the variant's
# out-of-tree modules, the benchmark programs and, with --perf, perf and the
# shared libraries it loads.  For the variant's architecture (its built
# .config, else its fragment): on arm64 busybox is Debian's arm64
# busybox-static (scripts/busybox-deb.sh), the programs are cross-compiled,
# and the benchmark programs and perf (host binaries) are left out.
# Environment: INITRAMFS_BENCH=1 builds a measured boot's initramfs: the
# same files for every variant of an architecture, so that no row's boot
# or free memory carries another's test programs.  It leaves out the guest
# tests, the guest and selftest programs and the test modules, and builds
# alloctop against the fork's UAPI headers for every variant.
# Usage: scripts/mkinitramfs.sh VARIANT OUTPUT [--perf]
set -eu
. "$(dirname "$0")/lib.sh"

variant=$1 output=$2 with_perf=${3:-}
kout=$BUILD/kernel-$variant
root=$(mktemp -d "$BUILD/initramfs.XXXXXX")
trap 'rm -rf "$root"' EXIT

arch=$(variant_arch "$variant")
cross=$(cross_prefix "$arch")
cc=${cross}gcc
if [ "$arch" = x86_64 ]; then
	busybox=$(command -v busybox || echo /bin/busybox)
else
	busybox=$("$TOP/scripts/busybox-deb.sh" "$arch")
	echo '#include <stdio.h>' | "$cc" -E -x c - >/dev/null 2>&1 ||
		die "$cc finds no C library headers: install libc6-dev-$arch-cross (scripts/deps.sh $arch)"
fi
file -L "$busybox" 2>/dev/null | grep -q 'statically linked' ||
	ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not static (install busybox-static)"
mkdir -p "$root"/{bin,guest,modules,bench,usr/bin,lib64,proc,sys,dev,tmp}
cp "$busybox" "$root/bin/busybox"
cp "$TOP/scripts/guest/init" "$root/init"
cp -r "$TOP"/scripts/guest/. "$root/guest/"
rm -rf "$root/guest/init" "$root"/guest/progs/*.c "$root/guest/uapi-progs"
bench=${INITRAMFS_BENCH:-0}
# A measured boot (INITRAMFS_BENCH=1, benchmarks/) unpacks no guest tests:
# its figures stay comparable while the tests change.
[ "$bench" != 1 ] ||
	rm -rf "$root/guest/tests" "$root/guest/run-tests" "$root/guest/ktap.sh" \
		"$root/guest/fleet-node"
if [ "$bench" != 1 ]; then
	for prog in "$TOP"/scripts/guest/progs/*.c; do
		"$cc" -static -O2 -Wall -Wextra -Werror -o "$root/guest/progs/$(basename "$prog" .c)" "$prog"
	done
fi
# Upstream's allocinfo ioctl selftest (and the series' tag flags one),
# when the variant's source has it:
# built static against that tree's exported UAPI headers (made in a scratch
# build directory of their own, so neither the source tree nor the kernel
# build directory is touched) and the kselftest headers.  It is rebuilt
# only when its source or the headers change.
ksrc=""
[ -f "$TOP/kernel/configs/$variant.config" ] && ksrc=$(variant_tree "$variant")
# A measured boot's alloctop is the same for every variant: built against
# the fork's headers, and nothing else of the tree's.
[ "$bench" != 1 ] || [ -z "$ksrc" ] || ksrc=$FORK_SRC
selftests=$ksrc/tools/testing/selftests
ioctl_test=$selftests/alloc_tag/allocinfo_ioctl_test.c
if [ -n "$ksrc" ] && [ -f "$ioctl_test" ]; then
	# x86_64 keeps the directories it always had; others get their own.
	hmake=(make -s -C "$ksrc") sfx=""
	[ "$arch" = x86_64 ] || { hmake+=(ARCH="$arch" CROSS_COMPILE="$cross"); sfx=-$arch; }
	hdr=$BUILD/uapi/${ksrc##*/}$sfx
	mkdir -p "$hdr" "$BUILD/selftests/${ksrc##*/}$sfx"
	# Guests booting side by side share the export: one at a time in
	# it, or one deletes the other's temporary files, and no program
	# reads a header while another rewrites it.
	exec 8>"$hdr.lock"
	flock 8
	"${hmake[@]}" O="$hdr" headers >/dev/null ||
		die "exporting UAPI headers from $ksrc failed"
	# Every selftest of the directory (the series adds one); none in a
	# measured boot.
	for test in "$selftests"/alloc_tag/*.c; do
		[ "$bench" != 1 ] || break
		bin=$BUILD/selftests/${ksrc##*/}$sfx/$(basename "$test" .c)
		if [ ! -x "$bin" ] || [ "$test" -nt "$bin" ] ||
			[ "$hdr/usr/include/linux/alloc_tag.h" -nt "$bin" ] ||
			[ "$selftests/kselftest.h" -nt "$bin" ]; then
			"$cc" -static -O2 -Wall -isystem "$hdr/usr/include" -I "$selftests" \
				-o "$bin.tmp" "$test" 2>"$bin.log" ||
				{ cat "$bin.log" >&2; die "building $test failed"; }
			mv "$bin.tmp" "$bin"
		fi
		cp "$bin" "$root/guest/progs/"
	done
	# Our own ioctl clients, against the same headers (and lib/ for
	# test_hmm's, which it does not export).
	for prog in "$TOP"/scripts/guest/uapi-progs/*.c; do
		[ "$bench" != 1 ] || break
		"$cc" -static -O2 -Wall -Wextra -Werror -isystem "$hdr/usr/include" \
			-I "$ksrc/lib" \
			-o "$root/guest/progs/$(basename "$prog" .c)" "$prog" ||
			die "building $prog against $ksrc's UAPI headers failed"
	done
	# The series' alloctop (tools/mm/alloctop.c), in every variant's
	# initramfs alike: a measured boot unpacks the same bytes for stock
	# and fork (stock 7.3 has the ioctl it reads).
	if [ -f "$FORK_SRC/tools/mm/alloctop.c" ]; then
		"$cc" -static -O2 -Wall -Wextra -Werror -isystem "$hdr/usr/include" \
			-o "$root/guest/progs/alloctop" "$FORK_SRC/tools/mm/alloctop.c" ||
			die "building $FORK_SRC/tools/mm/alloctop.c failed"
	fi
	exec 8>&-
fi
# The out-of-tree modules: a measured boot takes the benchmarks' only.
mods=$kout/extmod
if [ "$bench" = 1 ]; then
	for m in "$TOP"/benchmarks/modules/*/; do
		m=$(basename "$m")
		[ ! -d "$kout/extmod/$m" ] ||
			find "$kout/extmod/$m" -name '*.ko' -exec cp {} "$root/modules/" \;
	done
	mods=""
fi
[ -z "$mods" ] || find "$mods" -name '*.ko' -exec cp {} "$root/modules/" \; 2>/dev/null || true
# In-tree test modules the guest tests load (built by debug.config).
for m in lib/test_hmm.ko; do
	if [ "$bench" != 1 ] && [ -f "$kout/$m" ]; then
		cp "$kout/$m" "$root/modules/"
	fi
done
# The benchmark programs and perf are host (x86_64) binaries.
if [ "$arch" = x86_64 ]; then
	[ -d "$BUILD/bench-bin" ] && cp "$BUILD"/bench-bin/* "$root/bench/" 2>/dev/null || true
	cp -r "$TOP"/benchmarks/guest/. "$root/bench/" 2>/dev/null || true
elif [ "$with_perf" = --perf ]; then
	log "no perf for $arch guests: left out of the initramfs"
	with_perf=""
fi

if [ "$with_perf" = --perf ]; then
	# /usr/bin/perf is the binary itself on Debian 12; newer Debian
	# releases make it a wrapper around a versioned perf_X.Y.
	perf=$(ls /usr/bin/perf_[0-9]* 2>/dev/null | sort -V | tail -1 || true)
	[ -n "$perf" ] || perf=/usr/bin/perf
	file -L "$perf" 2>/dev/null | grep -q ELF || die "no perf binary (install linux-perf)"
	cp "$perf" "$root/usr/bin/perf"
	ldd "$perf" | awk '/=>/ { print $3 } /ld-linux/ { print $1 }' |
		while read -r lib; do
			[ -f "$lib" ] || continue
			mkdir -p "$root$(dirname "$lib")"
			cp -L "$lib" "$root$lib"
		done
fi
(cd "$root" && find . -print0 | LC_ALL=C sort -z |
	cpio --null -o -H newc --quiet -R 0:0) >"$output.tmp"
mv "$output.tmp" "$output"
