#!/bin/bash
# distro.config must leave the page-flag budget of Debian's own amd64
# config: the spare bits as the kernel's headers compute them (the survey's
# probe), for both.  Unpacks Debian's configs into $BUILD/linux-config and
# probes in $BUILD/survey/pf-*.
# Usage: scripts/tests/kernel/distro-budget.sh   (reads $BUILD/kernel-fork-distro)
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

deb=$("$TOP/scripts/apt-private.sh" "$KCFGPKG" "$KVER" "$KCFG_SHA256")
cfgdir=$BUILD/linux-config && rm -rf "$cfgdir" && mkdir -p "$cfgdir"
dpkg -x "$deb" "$cfgdir"
a=$("$TOP/scripts/survey/pageflags.sh" "$cfgdir"/usr/src/linux-config-*/config.amd64_none_amd64.xz \
	"$BUILD/survey/pf-debian-$KSERIES-amd64" | sed -n 's/^spare_bits=//p')
b=$("$TOP/scripts/survey/pageflags.sh" "$BUILD/kernel-fork-distro/.config" \
	"$BUILD/survey/pf-fork-distro" | sed -n 's/^spare_bits=//p')
echo "spare page-flag bits: Debian $KSERIES amd64 $a, fork-distro $b"
[ -n "$a" ] && [ "$a" = "$b" ]
