#!/bin/bash
# Fetch a Debian package of another suite into the cache, through a private
# apt configuration (sources list, lists and cache under $CACHE/apt): the
# machine's own apt sources are never touched.  Verifies the pinned sha256.
# Usage: scripts/apt-private.sh PACKAGE VERSION SHA256   (prints the .deb path)
set -eu
. "$(dirname "$0")/lib.sh"

pkg=$1 ver=$2 sum=$3
dir=$CACHE/apt
mkdir -p "$dir/debs"
deb=$dir/debs/${pkg}_${ver/:/%3a}_$(test "${pkg#linux-source}" != "$pkg" && echo all || dpkg --print-architecture).deb
if [ -f "$deb" ] && echo "$sum  $deb" | sha256sum -c --quiet - 2>/dev/null; then
	echo "$deb"
	exit 0
fi

# The mirror the machine already uses, for another suite.
mirror=$(debian_mirror)
echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $KSUITE main" \
	>"$dir/sources.list"
apt_private "$dir"
log "apt-get update for $KSUITE (private configuration in $dir)"
apt-get "${apt_opts[@]}" -qq update >"$dir/update.log" 2>&1 ||
	{ cat "$dir/update.log" >&2; die "apt-get update of $KSUITE failed"; }
avail=$(apt-cache "${apt_opts[@]}" madison "$pkg" 2>/dev/null | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' | tr '\n' ' ')
if ! [[ " $avail " == *" $ver "* ]]; then
	others=$(apt-cache "${apt_opts[@]}" search --names-only '^linux-source-[0-9.]+$' 2>/dev/null | cut -d' ' -f1 | sort -V | tr '\n' ' ')
	die "$pkg $ver (the pinned version) is no longer served by $KSUITE.
  available $pkg versions: ${avail:-none}
  other kernel sources there: ${others:-none}
  to re-pin: set KVER, KSRC_SHA256 and KCFG_SHA256 in scripts/lib.sh (or the
  environment) to a listed version and the SHA256 lines of
  'apt-cache show $pkg=VERSION'; the series may need a rebase."
fi
log "downloading $pkg $ver into $dir/debs"
(cd "$dir/debs" && apt-get "${apt_opts[@]}" -qq download "$pkg=$ver" >/dev/null 2>&1) ||
	die "apt-get download $pkg=$ver failed"
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$sum" ]; then
	mv "$deb" "$deb.bad"
	die "$deb: sha256 $got, pinned $sum (kept as $deb.bad)"
fi
echo "$deb"
