#!/bin/bash
# Install the Debian packages a make target needs, and say so.
# Usage: scripts/deps.sh GROUP...   (groups: build cross qemu fuzz plugin results arm64)
set -eu

# python3-prometheus-client: the host tests' parsers of alloctop's
# OpenMetrics and Prometheus text output (scripts/tests/lib/parse-metrics.py).
pkgs_build="build-essential gcc make flex bison bc libelf-dev libssl-dev
	cpio kmod xz-utils git ccache python3 python3-ply python3-git perl rsync
	python3-prometheus-client"
# Cross compilers: link-tags host tests on ELF32 and big-endian files, and
# the i386 and arm64 cross builds (build-kernel.sh, "# arch:" fragments).
pkgs_cross="gcc-i686-linux-gnu gcc-aarch64-linux-gnu gcc-s390x-linux-gnu"
pkgs_qemu="qemu-system-x86 busybox-static linux-perf file"
pkgs_fuzz="clang libclang-rt-14-dev"
pkgs_plugin="gcc qemu-user libglib2.0-dev pkg-config"
pkgs_results="gnuplot-nox linux-config-6.12 gdb"
# arm64 guests: the cross compiler, the C library for the static test
# programs (only recommended by the compiler, so named here) and
# qemu-system-aarch64; busybox for arm64 comes from scripts/busybox-deb.sh.
pkgs_arm64="gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-system-arm"

want=""
for g in "$@"; do
	eval "want=\"\$want \$pkgs_$g\"" 2>/dev/null ||
		{ echo "deps: unknown group '$g'" >&2; exit 1; }
done

missing=""
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
		missing="$missing $p"
done
[ -n "$missing" ] || exit 0

echo "deps: installing Debian packages:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: not root; run as root or install by hand: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
# Refresh the package lists once per day at most.
stamp=/var/lib/apt/periodic/alloctag-fork-update
if [ -z "$(find "$stamp" -mmin -1440 2>/dev/null)" ]; then
	apt-get update -qq || { echo "deps: apt-get update failed" >&2; exit 1; }
	mkdir -p "$(dirname "$stamp")" && touch "$stamp"
fi
# shellcheck disable=SC2086
if ! apt-get install -y -qq --no-install-recommends $missing >/tmp/deps-apt.$$ 2>&1; then
	tail -20 /tmp/deps-apt.$$ >&2
	echo "deps: apt-get install failed for:$missing" >&2
	rm -f /tmp/deps-apt.$$
	exit 1
fi
rm -f /tmp/deps-apt.$$
echo "deps: installed:$missing"
