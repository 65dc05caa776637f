#!/bin/bash
# alloctop's metrics as a real kernel gave them, in the two formats the
# guest test 76-openmetrics prints: its OpenMetrics ("# openmetrics: "
# lines) accepted by python3-prometheus-client's OpenMetrics parser, its
# Prometheus text ("# prometheus: ") by Prometheus' own checker (promtool
# check metrics, from Debian's prometheus package) and that client's parser
# of the format; no label set twice, the build_id label the build ID of the
# vmlinux that booted, and the index label of each of vmlinux's sites the
# index that link-tags gave it (the tag map beside vmlinux); and the samples
# by node that 78-nodes printed ("# openmetrics-nodes: " and
# "# prometheus-nodes: "), read the same way.
# Usage: scripts/tests/kernel/openmetrics.sh LOGDIR BOOT...
#   BOOT as test.sh's BOOTS: NAME:VARIANT:FORM[:KERNEL ARGS]; the guest log
#   of each is LOGDIR/boot-NAME/guest.log.
set -eu
trap 'exit 1' ERR # an unexpected error fails the test; 2 would read as a skip
. "$(dirname "$0")/../../lib.sh"

logdir=${1:?usage: openmetrics.sh LOGDIR BOOT...}
shift
promtool=$("$TOP/scripts/prometheus-deb.sh")/promtool
# (Debian's python3, which python3-prometheus-client is installed for)
parse() { /usr/bin/python3 "$TOP/scripts/tests/lib/parse-metrics.py" "$@"; }

# metrics NAME LOG PREFIX OUT: the lines of LOG after PREFIX, in OUT as
# OpenMetrics and OUT.prom in the Prometheus text format (PREFIX
# "openmetrics" or "openmetrics-nodes", and the same with "prometheus"),
# each read by its parsers; 1 if there are none, exits 1 on a parse error
# or on only one of the two.
metrics() {
	local name=$1 log=$2 kind=${3#openmetrics} out=$4
	sed -n "s/^    # $3: //p" "$log" >"$out"
	sed -n "s/^    # prometheus$kind: //p" "$log" >"$out.prom"
	[ -s "$out" ] || [ -s "$out.prom" ] || return 1
	[ -s "$out" ] && [ -s "$out.prom" ] ||
		{ echo "$name: only one of the # $3: and # prometheus$kind: outputs ($log)"; exit 1; }
	parse openmetrics "$out" >"$out.families" ||
		{ echo "$name: the OpenMetrics parser failed on $out:"; cat "$out.families"; exit 1; }
	parse prometheus "$out.prom" >"$out.prom.families" ||
		{ echo "$name: the Prometheus text parser failed on $out.prom:"; cat "$out.prom.families"; exit 1; }
	"$promtool" check metrics <"$out.prom" ||
		{ echo "$name: promtool check metrics failed on $out.prom"; exit 1; }
}

n=0
for b in "$@"; do
	IFS=: read -r name v _ <<<"$b"
	om=$logdir/openmetrics-$name.txt
	metrics "$name" "$logdir/boot-$name/guest.log" openmetrics "$om" || continue
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
		echo "$name: $(grep -c '^alloc_tag_' "$om") samples, both parsers and promtool clean, build_id $want (no tag map: stock 7.3)"
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
	echo "$name: $(grep -c '^alloc_tag_' "$om") samples, both parsers and promtool clean, build_id $want, indexes as in $(basename "$map")"
	n=$((n + 1))
	# The samples by node that 78-nodes printed, where it counted by node
	omn=$logdir/openmetrics-nodes-$name.txt
	metrics "$name" "$logdir/boot-$name/guest.log" openmetrics-nodes "$omn" || continue
	echo "$name: $(grep -c '^alloc_tag_node_' "$omn") samples by node, both parsers and promtool clean"
done
[ $n -gt 0 ] || { echo "no boot printed alloctop's OpenMetrics output"; exit 2; }
