#!/bin/bash
# distro.config must leave the page-flag budget of Debian's own amd64
# config: the spare bits as the kernel's headers compute them (the survey's
# probe).  Debian's are those make survey measured on its pinned config
# (results/pageflags.csv, row debian-amd64), so that make test needs no
# prepared tree of Debian's config; a series that changed the page flags
# fails here until make survey measures Debian's again.  fork-distro's are
# probed in $BUILD/survey/pf-fork-distro.
# Usage: scripts/tests/kernel/distro-budget.sh   (reads $BUILD/kernel-fork-distro)
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

csv=$TOP/results/pageflags.csv
a=$(awk -F, -v base="Debian linux-config-$KSERIES amd64" '
	NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
	$col["base"] == base { print $col["spare_bits"] }' "$csv")
[ -n "$a" ] || { echo "$csv has no row for Debian linux-config-$KSERIES amd64 (make survey)"; exit 1; }
b=$("$TOP/scripts/survey/pageflags.sh" "$BUILD/kernel-fork-distro/.config" \
	"$BUILD/survey/pf-fork-distro" | sed -n 's/^spare_bits=//p')
echo "spare page-flag bits: Debian $KSERIES amd64 $a, fork-distro $b"
[ -n "$a" ] && [ "$a" = "$b" ]
