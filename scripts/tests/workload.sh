#!/bin/bash
# benchmarks/progs/workload.c, the workloads the benchmarks time in the
# guest: each mode runs its loop and prints "NAME OPS TOTAL_NS PER_OP_X100"
# with the ops it was asked for, leaves no file behind, exits 2 on bad
# usage and 1 when its work fails.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
w=$tmp/workload
gcc -std=c11 -static -O2 -Wall -Wextra -Werror -o "$w" "$top/benchmarks/progs/workload.c"
mkdir "$tmp/files"
check() { # WANT-NAME WANT-OPS ARGS...
	local name=$1 ops=$2 out
	shift 2
	out=$("$w" "$@") || { echo "workload $*: exit $?"; exit 1; }
	echo "$out" | grep -Eq "^$name $ops [0-9]+ [0-9]+$" || { echo "workload $*: printed '$out'"; exit 1; }
}
check files 50 files "$tmp/files" 50
[ -z "$(ls -A "$tmp/files")" ] || { echo "files left files behind"; exit 1; }
check spawn 5 spawn 5
check stream 512 stream 2
check timed 7 timed 7 true
out=$("$w" pause 1000) || { echo "workload pause 1000: exit $?"; exit 1; }
[ -z "$out" ] || { echo "workload pause printed '$out'"; exit 1; }
for bad in "" "files $tmp/files" "spawn 0" "stream x" "timed 3" "pause 0" "pause 1 2"; do
	rc=0
	# shellcheck disable=SC2086
	"$w" $bad 2>/dev/null || rc=$?
	[ $rc = 2 ] || { echo "workload '$bad': exit $rc, not 2"; exit 1; }
done
rc=0
"$w" timed 1 false 2>/dev/null || rc=$?
[ $rc = 1 ] || { echo "a failing command: exit $rc, not 1"; exit 1; }
rc=0
"$w" files "$tmp/none" 3 2>/dev/null || rc=$?
[ $rc = 1 ] || { echo "a missing directory: exit $rc, not 1"; exit 1; }
echo "workload: files, spawn, stream and timed report their ops, pause prints nothing; bad usage exits 2, failures 1"
