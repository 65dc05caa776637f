#!/bin/bash
# Prometheus' promtool and server from Debian's prometheus package of the
# machine's own release, unpacked once into $CACHE/prometheus and reused
# from there: the tests run them as plain programs, so the package is
# downloaded, never installed (installing it would start a server as a
# system service).  apt checks it against the release's signed index.
# Usage: scripts/prometheus-deb.sh   (prints the directory of promtool and
# prometheus)
set -eu
. "$(dirname "$0")/lib.sh"

dest=$CACHE/prometheus
if [ -x "$dest/promtool" ] && [ -x "$dest/prometheus" ]; then
	echo "$dest"
	exit 0
fi
dir=$CACHE/prometheus-deb
rm -rf "$dir" && mkdir -p "$dir"
fetch() { (cd "$dir" && apt-get -qq download prometheus) >"$dir/download.log" 2>&1; }
log "downloading Debian's prometheus package (promtool and the server, not installed)"
if ! fetch; then
	log "apt-get update, then again"
	apt-get -qq update >"$dir/update.log" 2>&1 || { cat "$dir/update.log" >&2; die "apt-get update failed"; }
	fetch || { cat "$dir/download.log" >&2; die "apt-get download prometheus failed"; }
fi
deb=$(ls "$dir"/prometheus_*.deb)
tmp=$dest.tmp.$$
rm -rf "$tmp" && mkdir -p "$tmp"
dpkg -x "$deb" "$tmp/root"
for b in promtool prometheus; do
	[ -x "$tmp/root/usr/bin/$b" ] || { rm -rf "$tmp"; die "$deb holds no usr/bin/$b"; }
	mv "$tmp/root/usr/bin/$b" "$tmp/$b"
done
rm -rf "$tmp/root" "$dest"
mv "$tmp" "$dest"
log "$(basename "$deb") unpacked: $dest/promtool, $dest/prometheus"
echo "$dest"
