#!/bin/bash
# A static busybox for a foreign guest architecture: Debian's busybox-static
# for ARCH from the machine's own release and mirror, fetched through a
# private apt configuration under $CACHE/apt-ARCH (the machine's apt sources
# and dpkg architectures are never touched), unpacked once into
# $CACHE/busybox-ARCH and reused from there.  apt checks the package against
# the release's signed index.  BUSYBOX_REFRESH=1 fetches it again.
# Usage: scripts/busybox-deb.sh ARCH   (Debian's name: arm64; prints the path)
set -eu
. "$(dirname "$0")/lib.sh"

arch=${1:?usage: busybox-deb.sh ARCH}
case $arch in
arm64) want='ARM aarch64' ;;
*) die "no busybox for '$arch' (known: arm64)" ;;
esac
dest=$CACHE/busybox-$arch
bin=$dest/busybox
is_static() { file -L "$1" 2>/dev/null | grep -q "$want.*statically linked"; }
if [ "${BUSYBOX_REFRESH:-0}" != 1 ] && [ -x "$bin" ] && is_static "$bin"; then
	echo "$bin"
	exit 0
fi

command -v file >/dev/null || die "'file' is missing (install file)"
# shellcheck disable=SC1091
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
[ -n "$codename" ] || die "/etc/os-release names no VERSION_CODENAME"
dir=$CACHE/apt-$arch
mkdir -p "$dir/debs"
{
	for suite in "$codename" "$codename-updates"; do
		echo "deb [arch=$arch signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $(debian_mirror) $suite main"
	done
} >"$dir/sources.list"
apt_private "$dir"
apt_opts+=(-o APT::Architecture="$arch" -o APT::Architectures::="$arch")
log "apt-get update for $codename $arch (private configuration in $dir)"
apt-get "${apt_opts[@]}" -qq update >"$dir/update.log" 2>&1 ||
	{ cat "$dir/update.log" >&2; die "apt-get update of $codename ($arch) failed"; }
ver=$(apt-cache "${apt_opts[@]}" policy "busybox-static:$arch" 2>/dev/null |
	sed -n 's/^ *Candidate: *//p')
[ -n "$ver" ] && [ "$ver" != "(none)" ] ||
	die "$codename ($arch) serves no busybox-static (see $dir/update.log)"
log "downloading busybox-static:$arch $ver into $dir/debs"
rm -f "$dir"/debs/busybox-static_*.deb
(cd "$dir/debs" && apt-get "${apt_opts[@]}" -qq download "busybox-static:$arch=$ver") \
	>"$dir/download.log" 2>&1 ||
	{ cat "$dir/download.log" >&2; die "apt-get download busybox-static:$arch=$ver failed"; }
deb=$(ls "$dir"/debs/busybox-static_*_"$arch".deb)
tmp=$dest.tmp.$$
rm -rf "$tmp" && mkdir -p "$tmp"
dpkg -x "$deb" "$tmp"
is_static "$tmp/bin/busybox" ||
	{ rm -rf "$tmp"; die "$deb holds no static $want busybox"; }
mkdir -p "$dest"
mv "$tmp/bin/busybox" "$bin.new" && mv "$bin.new" "$bin"
echo "$ver" >"$dest/version"
rm -rf "$tmp"
log "busybox-static:$arch $ver in $bin"
echo "$bin"
