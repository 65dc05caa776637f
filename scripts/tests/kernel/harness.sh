#!/bin/bash
# The boot harness reports what happened in the guest: boot VARIANT with
# BOOT-ARGS (scripts/boot.sh's options and command) and expect boot.sh's
# exit status EXPECTED-RC (the guest's own, 124 hang, 125 panic) and, when
# EXPECTED-TEXT is not empty, that text on the console.
# Usage: scripts/tests/kernel/harness.sh VARIANT OUTDIR EXPECTED-RC EXPECTED-TEXT BOOT-ARGS...
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

[ $# -ge 4 ] || die "usage: harness.sh VARIANT OUTDIR EXPECTED-RC EXPECTED-TEXT BOOT-ARGS..."
variant=$1 out=$2 want=$3 text=$4
shift 4
rc=0
"$TOP/scripts/boot.sh" -k "$variant" -q -o "$out" "$@" || rc=$?
[ "$rc" = "$want" ] || { echo "exit $rc, expected $want"; exit 1; }
[ -z "$text" ] || grep -q "$text" "$out/console.log"
