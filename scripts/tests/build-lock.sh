#!/bin/bash
# make -j results runs its steps side by side: each step script takes
# build_lock (scripts/lib.sh), so a second step waits until the first one
# is done with the build directory, and the report renders after them all.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# The benchmarks' steps take it in their driver, measure().
steps="benchmarks/run.sh benchmarks/trace/trace.sh benchmarks/bootprof/bootprof.sh
	benchmarks/capture/capture.sh"
for s in $steps; do
	grep -qx 'measure [a-z]*' "$top/$s" || { echo "$s does not run through measure()"; exit 1; }
done
sed -n '/^measure() {/,/^}/p' "$top/benchmarks/lib.sh" | grep -qx '[[:space:]]*build_lock' ||
	{ echo "measure() (benchmarks/lib.sh) does not take build_lock"; exit 1; }
grep -qx build_lock "$top/scripts/survey/run.sh" || { echo "scripts/survey/run.sh does not take build_lock"; exit 1; }

# holder NAME: take the lock, say so, and keep it until NAME.release exists.
holder() {
	BUILD=$tmp/build bash -c '. "$1/scripts/lib.sh"; build_lock
		touch "$2/$3.in"
		while [ ! -e "$2/$3.release" ]; do sleep 0.1; done' _ "$top" "$tmp" "$1" 2>"$tmp/$1.log"
}
wait_for() {
	local i=0
	while [ ! -e "$1" ]; do
		i=$((i + 1))
		[ $i -lt 300 ] || { echo "timed out waiting for ${1##*/}"; exit 1; }
		sleep 0.1
	done
}
holder first & p1=$!
wait_for "$tmp/first.in"
holder second & p2=$!
sleep 1
[ ! -e "$tmp/second.in" ] || { echo "a second holder took the lock while the first held it"; exit 1; }
grep -q "waiting for the other run" "$tmp/second.log" ||
	{ cat "$tmp/second.log"; echo "the waiting holder did not say why"; exit 1; }
touch "$tmp/first.release"
wait $p1
wait_for "$tmp/second.in"
touch "$tmp/second.release"
wait $p2

# The report is the results recipe's last command, not a prerequisite.
make --no-print-directory -C "$top" -n -j4 results 2>/dev/null | tail -1 | grep -q "benchmarks.report" ||
	{ echo "make -n results does not end with the report"; exit 1; }
grep -q '^results:.*report' "$top/Makefile" &&
	{ echo "the report is a prerequisite of results: make -j renders it beside the steps"; exit 1; }
echo "build-lock: steps take turns; the report renders last"
