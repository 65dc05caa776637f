#!/bin/bash
# Build the QEMU TCG plugins, cachesim and insnprof, into $BUILD/qemu-plugins/.
#
# Debian 12 ships QEMU with plugin support but no plugin header, so the
# header (include/qemu/qemu-plugin.h) is taken from the orig tarball of
# Debian's "qemu" source package, the version matching the installed
# qemu-system-x86 (the plugin API version must match the binary).  It is
# fetched through a private apt configuration under $CACHE/qemu-src: the
# machine's /etc/apt is never touched.  apt verifies the download: the
# Release file's signature against the Debian archive keyring, Sources'
# hash from Release, and the .dsc's and tarball's hashes from Sources.
# Usage: benchmarks/qemu-plugins/build.sh   (prints cachesim.so's path last;
# insnprof.so is beside it)
# Exit 0 built, 2 the header could not be downloaded (no network, or the
# version is no longer served), 1 any other error.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../../scripts/lib.sh"
out=$BUILD/qemu-plugins
src=$CACHE/qemu-src

log() { printf '[qemu-plugins/build.sh] %s\n' "$*" >&2; }
die() { printf '[qemu-plugins/build.sh] error: %s\n' "$*" >&2; exit 1; }
nofetch() { printf '[qemu-plugins/build.sh] cannot fetch the plugin header: %s\n' "$*" >&2; exit 2; }

# Tools: gcc, pkg-config and glib's headers (the plugin header includes
# glib.h), and qemu-system-x86 whose plugin API the header must match:
# installed by scripts/deps.sh, like every package the project uses.
"$here/../../scripts/deps.sh" qemu plugin || die "scripts/deps.sh qemu plugin failed"

# The source version of the installed QEMU (a binNMU's "+bN" is not in it).
ver=$(dpkg-query -W -f='${source:Version}' qemu-system-x86 2>/dev/null) ||
	die "qemu-system-x86 is not installed (apt-get install qemu-system-x86)"
upver=${ver#*:}
upver=${upver%-*}
# One directory per Debian version: the patch check below is per version.
hdr=$src/${ver//:/_}/qemu-plugin.h

if [ ! -s "$hdr" ]; then
	apt_private "$src"
	mkdir -p "$src/dl"
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian bookworm main" \
		>"$src/sources.list"
	# bookworm-security carries the point fixes (deb12uN) too, often first.
	echo "deb-src [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian-security bookworm-security main" \
		>>"$src/sources.list"
	log "apt-get update (private configuration in $src)"
	apt-get "${apt_opts[@]}" -qq update >"$src/update.log" 2>&1 ||
		{ cat "$src/update.log" >&2; nofetch "apt-get update failed (no network?); see $src/update.log"; }
	# apt-get update only warns when a download fails.
	compgen -G "$src/lists/*_source_Sources*" >/dev/null ||
		{ cat "$src/update.log" >&2; nofetch "apt-get update fetched no source index (no network?); see $src/update.log"; }
	log "downloading Debian source qemu=$ver (orig tarball ~23 MB) into $src/dl"
	(cd "$src/dl" && apt-get "${apt_opts[@]}" -qq source --download-only "qemu=$ver") \
		>"$src/download.log" 2>&1 ||
		{ cat "$src/download.log" >&2; nofetch "apt-get source --download-only qemu=$ver failed (version no longer served? apt-cache showsrc qemu with the options above lists what is); see $src/download.log"; }
	tarball=$(compgen -G "$src/dl/qemu_$upver.orig.tar.*" | head -1 || true)
	dsc=$(compgen -G "$src/dl/qemu_*.dsc" | head -1 || true)
	debtar=$(compgen -G "$src/dl/qemu_*.debian.tar.*" | head -1 || true)
	if [ -z "$tarball" ] || [ -z "$dsc" ] || [ -z "$debtar" ]; then
		die "$src/dl lacks the orig tarball, .dsc or debian tarball of qemu $ver"
	fi
	# apt checked every file against Sources (signed via InRelease); check
	# the tarball against the .dsc once more, and that no Debian patch
	# changes the header (it is taken from the upstream tarball as is).
	sum=$(sed -n '/^Checksums-Sha256:/,/^[^ ]/p' "$dsc" | awk -v f="${tarball##*/}" '$3 == f { print $1 }')
	[ -n "$sum" ] || die "${dsc##*/} lists no sha256 for ${tarball##*/}"
	echo "$sum  $tarball" | sha256sum -c --quiet - || die "${tarball##*/}: sha256 does not match ${dsc##*/}"
	log "verified ${tarball##*/} (sha256 $sum, as in ${dsc##*/})"
	patches=$(tar -xOf "$debtar" --wildcards 'debian/patches/*') ||
		die "cannot read debian/patches from the Debian tarball in $src/dl"
	if grep -q '^+++ .*include/qemu/qemu-plugin\.h' <<<"$patches"; then
		die "a Debian patch of qemu $ver changes qemu-plugin.h; this script takes the upstream header"
	fi
	log "no Debian patch touches include/qemu/qemu-plugin.h ($(grep -c '^+++ ' <<<"$patches") files patched)"
	# The tarball's top directory is not fixed; find the member's real name.
	member=$(tar -tf "$tarball" | grep -m1 '^[^/]*/include/qemu/qemu-plugin\.h$') ||
		die "$tarball has no include/qemu/qemu-plugin.h"
	log "extracting $member"
	mkdir -p "${hdr%/*}"
	tar -xOf "$tarball" "$member" >"$hdr.tmp"
	echo "$member from ${tarball##*/} (sha256 $sum), Debian qemu $ver" >"${hdr%/*}/SOURCE"
	mv "$hdr.tmp" "$hdr"
	# Only the header is needed: drop the 23 MB download.
	rm -f "$src/dl/"*
fi
grep -q 'QEMU_PLUGIN_VERSION' "$hdr" || die "$hdr does not look like qemu-plugin.h"

mkdir -p "$out/include/qemu"
cp "$hdr" "$out/include/qemu/qemu-plugin.h"
# shellcheck disable=SC2046  # pkg-config prints several words on purpose
for p in insnprof cachesim; do
	gcc -std=c11 -Wall -Wextra -Werror -O2 -shared -fPIC $(pkg-config --cflags glib-2.0) \
		-I"$out/include" -o "$out/$p.so.tmp" "$here/$p.c"
	mv "$out/$p.so.tmp" "$out/$p.so"
	log "built $out/$p.so (plugin header of qemu $ver)"
done
echo "$out/cachesim.so"
