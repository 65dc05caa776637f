#!/bin/bash
# Sourced by the QEMU plugin tests (scripts/tests/cachesim.sh, insnprof.sh):
# builds the plugins with benchmarks/qemu-plugins/build.sh, which installs
# qemu-user (qemu-x86_64) through scripts/deps.sh.  Needs $top, $tmp and
# $name (the test's name).
# Sets $plugins, the directory of the built .so files.  Exits 2 (skip)
# only when the plugin header cannot be downloaded, 1 on any other failure.
set -eu
rc=0
"$top/benchmarks/qemu-plugins/build.sh" >"$tmp/build.out" 2>"$tmp/build.log" || rc=$?
if [ $rc = 2 ]; then
	cat "$tmp/build.log"
	echo "$name: $(tail -1 "$tmp/build.log" | sed 's/^\[[^]]*\] //')"
	exit 2
fi
[ $rc = 0 ] || { cat "$tmp/build.log"; echo "build.sh failed (exit $rc)"; exit 1; }
plugins=$(dirname "$(tail -1 "$tmp/build.out")")
[ -f "$plugins/cachesim.so" ] && [ -f "$plugins/insnprof.so" ] ||
	{ cat "$tmp/build.log"; echo "build.sh did not build both plugins in $plugins"; exit 1; }

command -v qemu-x86_64 >/dev/null || { echo "qemu-x86_64 missing (scripts/deps.sh plugin installs qemu-user)"; exit 1; }
