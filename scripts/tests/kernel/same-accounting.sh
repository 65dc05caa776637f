#!/bin/bash
# The same workload must account the same in every representation: the
# values that the accounting tests read back (check_eq prints each as
# "# got: ...") must match line for line across the boots that profile
# (form not "off", a kernel with CONFIG_MEM_ALLOC_PROFILING=y).  Writes
# LOGDIR/got-NAME.txt for each.
# Usage: scripts/tests/kernel/same-accounting.sh LOGDIR BOOT...
#   BOOT as test.sh's BOOTS: NAME:VARIANT:FORM[:KERNEL ARGS]; the guest log
#   of each is LOGDIR/boot-NAME/guest.log.
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

logdir=${1:?usage: same-accounting.sh LOGDIR BOOT...}
shift

# got_values GUEST-LOG: the values of the accounting tests.
got_values() {
	awk '/^    # Subtest: / { t = $3 }
		/^    # got: / && (t == "20-module-tags" || t == "42-device-private" || t == "45-thp") { print t ": " substr($0, 12) }' "$1"
}

ref=""
for b in "$@"; do
	IFS=: read -r name v form args <<<"$b"
	[ "$form" != off ] || continue
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$BUILD/kernel-$v/.config" 2>/dev/null || continue
	got_values "$logdir/boot-$name/guest.log" >"$logdir/got-$name.txt"
	[ -s "$logdir/got-$name.txt" ] || { echo "$name: no values"; exit 1; }
	if [ -z "$ref" ]; then
		ref=$name
	elif ! diff -u "$logdir/got-$ref.txt" "$logdir/got-$name.txt"; then
		exit 1
	fi
	echo "$name: $(wc -l <"$logdir/got-$name.txt") values"
done
[ -n "$ref" ]
