#!/bin/bash
# alloctop's OpenMetrics output as a real kernel gave it (the "# openmetrics: "
# lines that the guest test 76-openmetrics prints): accepted by Prometheus'
# own checker (promtool check metrics, from Debian's prometheus package), no
# label set twice, its build_id label the build ID of the vmlinux that
# booted, and the index label of each of vmlinux's sites the index that
# link-tags gave it (the tag map beside vmlinux); and the samples by node
# that 78-nodes printed ("# openmetrics-nodes: "), by promtool too.
# Usage: scripts/tests/kernel/openmetrics.sh LOGDIR BOOT...
#   BOOT as test.sh's BOOTS: NAME:VARIANT:FORM[:KERNEL ARGS]; the guest log
#   of each is LOGDIR/boot-NAME/guest.log.
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

logdir=${1:?usage: openmetrics.sh LOGDIR BOOT...}
shift
promtool=$("$TOP/scripts/prometheus-deb.sh")/promtool

n=0
for b in "$@"; do
	IFS=: read -r name v _ <<<"$b"
	om=$logdir/openmetrics-$name.txt
	sed -n 's/^    # openmetrics: //p' "$logdir/boot-$name/guest.log" >"$om"
	[ -s "$om" ] || continue
	"$promtool" check metrics <"$om" || { echo "$name: promtool check metrics failed on $om"; exit 1; }
	dup=$(grep '^alloc_tag_' "$om" | sed 's/ [^ ]*$//' | sort | uniq -d)
	[ -z "$dup" ] || { echo "$name: label sets given twice:"; echo "$dup"; exit 1; }
	want=$(readelf -n "$BUILD/kernel-$v/vmlinux" | sed -n 's/^ *Build ID: *//p')
	got=$(sed -n 's/.*build_id="\([^"]*\)".*/\1/p' "$om" | sort -u)
	[ -n "$want" ] || { echo "$name: $BUILD/kernel-$v/vmlinux has no build ID"; exit 1; }
	[ "$got" = "$want" ] || { echo "$name: build_id '$got', vmlinux's '$want'"; exit 1; }
	# The kernel's tags: the index label is the one link-tags gave the
	# site (vmlinux's tag map: index, file:line, function).
	map=$BUILD/kernel-$v/vmlinux.unstripped.tagmap
	if [ ! -f "$map" ]; then
		echo "$name: $(grep -c '^alloc_tag_' "$om") samples, promtool clean, build_id $want (no tag map: stock 7.3)"
		n=$((n + 1))
		continue
	fi
	bad=$(awk -F'\t' -v om="$om" '
		NR == FNR { if ($0 !~ /^#/) site[$1] = $2 " " $3; next }
		/^alloc_tag_bytes\{module="kernel",/ {
			if (!match($0, /file="[^"]*",line="[0-9]*",function="[^"]*",index="[0-9]*"/)) next
			split(substr($0, RSTART, RLENGTH), l, "\"")
			n++
			if (site[l[8]] != l[2] ":" l[4] " " l[6]) print l[8] ": " l[2] ":" l[4] " " l[6] ", map: " site[l[8]]
		}
		END { if (!n) print "no kernel sample with an index" }' "$map" "$om")
	[ -z "$bad" ] || { echo "$name: index labels that are not link-tags' ($map):"; echo "$bad"; exit 1; }
	echo "$name: $(grep -c '^alloc_tag_' "$om") samples, promtool clean, build_id $want, indexes as in $(basename "$map")"
	n=$((n + 1))
	# The samples by node that 78-nodes printed, where it counted by node
	omn=$logdir/openmetrics-nodes-$name.txt
	sed -n 's/^    # openmetrics-nodes: //p' "$logdir/boot-$name/guest.log" >"$omn"
	[ -s "$omn" ] || continue
	"$promtool" check metrics <"$omn" || { echo "$name: promtool check metrics failed on $omn"; exit 1; }
	echo "$name: $(grep -c '^alloc_tag_node_' "$omn") samples by node, promtool clean"
done
[ $n -gt 0 ] || { echo "no boot printed alloctop's OpenMetrics output"; exit 2; }
