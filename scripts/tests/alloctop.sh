#!/bin/bash
# alloctop (the series' tools/mm/alloctop.c, built here for the host) on
# copies of /proc/allocinfo this test writes: tags of one name (a helper
# inlined into two files) each paired with its own across updates, and
# summed into one OpenMetrics sample; label values escaped; and every
# output of -o openmetrics and -o prometheus (plain, grouped, by node, with
# the totals) read by python3-prometheus-client's parser of that format.
# The guest tests (75-alloctop, 76-openmetrics) check it against real
# kernels.  Skipped (2) before scripts/kernel-src.sh has made the fork's
# tree.
set -eu
. "$(dirname "$0")/../lib.sh"

src=$FORK_SRC/tools/mm/alloctop.c
[ -f "$src" ] || { echo "no $src (scripts/kernel-src.sh makes it)"; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
at=$tmp/alloctop
gcc -std=gnu11 -O2 -Wall -Wextra -Werror -o "$at" "$src"
fail=0
want() { # want WHAT GOT EXPECTED
	[ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', want '$3'"; fail=1; }
}
# snap BYTES CALLS BYTES CALLS BYTES CALLS: two tags of one name, another site.
snap() {
	printf 'allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n'
	printf '%12d %8d include/linux/h.h:7 func:helper\n' "$1" "$2"
	printf '%12d %8d include/linux/h.h:7 func:helper\n' "$3" "$4"
	printf '%12d %8d mm/b.c:3 func:other\n' "$5" "$6"
}

# Two updates of a copy rewritten in between (once the first is out,
# with 4 seconds to spare): only "other" changed.
snap 100 1 200 2 5 1 >"$tmp/ai"
"$at" -c -i "$tmp/ai" -n 2 -d 4 -l 0 >"$tmp/out.csv" &
pid=$!
i=0
until grep -q '^1,' "$tmp/out.csv" || [ $i -gt 100 ]; do sleep 0.1; i=$((i + 1)); done
snap 100 1 200 2 7 2 >"$tmp/ai.new"
mv "$tmp/ai.new" "$tmp/ai"
wait $pid
want "each tag of one name paired with its own (bytes,delta)" \
	"$(awk -F, '$1 == 2 { print $3 "," $5 }' "$tmp/out.csv" | sort -n | tr '\n' ' ')" \
	"7,2 100,0 200,0 "

cp "$tmp/ai" "$tmp/in-plain"
"$at" -o openmetrics -i "$tmp/ai" >"$tmp/om"
want "OpenMetrics: tags of one name summed into one sample" \
	"$(grep '^alloc_tag_bytes' "$tmp/om")" \
	'alloc_tag_bytes{module="kernel",file="include/linux/h.h",line="7",function="helper",build_id=""} 300
alloc_tag_bytes{module="kernel",file="mm/b.c",line="3",function="other",build_id=""} 7'
printf '%12d %8d drivers/q"x\\y.c:5 [m] func:f\n' 10 1 >>"$tmp/ai"
want "OpenMetrics: a quote and a backslash escaped" \
	"$("$at" -o openmetrics -i "$tmp/ai" | grep '^alloc_tag_calls.*module="m"')" \
	'alloc_tag_calls{module="m",file="drivers/q\"x\\y.c",line="5",function="f",build_id=""} 1'
cp "$tmp/ai" "$tmp/in-escaped"
# What each site allocated since boot, as vm.mem_profiling_totals=1 adds
# it to the text: rates from its change over an update (100 allocations
# of 64 bytes in about 4 seconds, while the live counters stay put),
# counters in OpenMetrics, and empty columns for a site without it.
tsnap() {
	printf 'allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n'
	printf '%12d %8d mm/c.c:9 func:churn total_bytes:%d total_calls:%d\n' 64 1 "$1" "$2"
	printf '%12d %8d mm/d.c:1 func:plain\n' 8 1
}
tsnap 6400 100 >"$tmp/ai"
"$at" -c -i "$tmp/ai" -n 2 -d 4 -l 0 >"$tmp/out.csv" &
pid=$!
i=0
until grep -q '^1,' "$tmp/out.csv" || [ $i -gt 100 ]; do sleep 0.1; i=$((i + 1)); done
tsnap 12800 200 >"$tmp/ai.new"
mv "$tmp/ai.new" "$tmp/ai"
wait $pid
want "CSV header ends with the totals' columns" "$(head -1 "$tmp/out.csv" | cut -d, -f17-)" \
	"total_bytes,total_calls,alloc_bytes_per_sec,alloc_calls_per_sec"
want "totals, and allocations a second times the interval" \
	"$(awk -F, '$1 == 2 && /churn/ { r = $20 * $2; print $17, $18, (r > 95 && r < 105), ($19 > 63 * $20 && $19 < 65 * $20) }' "$tmp/out.csv")" \
	"12800 200 1 1"
want "no totals: empty columns" "$(awk -F, '$1 == 2 && /plain/ { print $17 $18 $19 $20 }' "$tmp/out.csv")" ""
cp "$tmp/ai" "$tmp/in-totals"
# (a counter family's name: in OpenMetrics without _total, its samples'
# with it; in the Prometheus text format, its samples' name)
"$at" -o openmetrics -i "$tmp/ai" >"$tmp/om"
want "OpenMetrics: counters for what was allocated, only where known" \
	"$(grep -E '^(# (TYPE|UNIT) alloc_tag_alloc|alloc_tag_alloc)' "$tmp/om")" \
	'# TYPE alloc_tag_allocated_bytes counter
# UNIT alloc_tag_allocated_bytes bytes
alloc_tag_allocated_bytes_total{module="kernel",file="mm/c.c",line="9",function="churn",build_id=""} 12800
# TYPE alloc_tag_allocations counter
alloc_tag_allocations_total{module="kernel",file="mm/c.c",line="9",function="churn",build_id=""} 200'
"$at" -o prometheus -i "$tmp/ai" >"$tmp/prom" || { echo "FAIL: -o prometheus exits $?"; fail=1; }
want "Prometheus text: the counters typed by their samples' names" \
	"$(grep -E '^(# (TYPE|UNIT) alloc_tag_alloc|alloc_tag_alloc)' "$tmp/prom")" \
	'# TYPE alloc_tag_allocated_bytes_total counter
alloc_tag_allocated_bytes_total{module="kernel",file="mm/c.c",line="9",function="churn",build_id=""} 12800
# TYPE alloc_tag_allocations_total counter
alloc_tag_allocations_total{module="kernel",file="mm/c.c",line="9",function="churn",build_id=""} 200'
want "-b: allocation rates beside the live ones" \
	"$("$at" -b -i "$tmp/ai" | grep -c 'ALLOCB/S *ALLOCS/S  SITE')" 1
# Counts by node, as a flagged line has them: kept with the site's name
# in -b's output, word for word; a line without them shows none.
{
	printf 'allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n'
	printf '%12d %8d mm/n.c:4 func:numa node0_bytes:8192 node0_calls:2 node1_bytes:4096 node1_calls:1\n' 12288 3
	printf '%12d %8d mm/d.c:1 func:plain\n' 8 1
} >"$tmp/ai"
cp "$tmp/ai" "$tmp/in-nodes"
want "-b: a flagged site's counts by node after its name" \
	"$("$at" -b -i "$tmp/ai" -l 0 | grep -o 'func:numa.*' | sed 's/ *$//')" \
	"func:numa node0_bytes:8192 node0_calls:2 node1_bytes:4096 node1_calls:1"
want "-b: none for another" "$("$at" -b -i "$tmp/ai" -l 0 | grep -c 'func:plain.*node')" 0
want "OpenMetrics: a gauge sample a node, for that site only" \
	"$("$at" -o openmetrics -i "$tmp/ai" | grep '^alloc_tag_node_')" \
	'alloc_tag_node_bytes{module="kernel",file="mm/n.c",line="4",function="numa",build_id="",node="0"} 8192
alloc_tag_node_bytes{module="kernel",file="mm/n.c",line="4",function="numa",build_id="",node="1"} 4096
alloc_tag_node_calls{module="kernel",file="mm/n.c",line="4",function="numa",build_id="",node="0"} 2
alloc_tag_node_calls{module="kernel",file="mm/n.c",line="4",function="numa",build_id="",node="1"} 1'

# Every input above, and one with all the words at once (the totals, then
# the counts by node, as the kernel writes them), by site, directory and
# module, in both formats: each read by its own parser (a family of the
# same name, type and number of samples from both), and written by -w.
{
	printf 'allocinfo - version: 2.0\n#     <size>  <calls> <tag info>\n'
	printf '%12d %8d mm/c.c:9 func:churn total_bytes:6400 total_calls:100\n' 64 1
	printf '%12d %8d mm/n.c:4 func:numa total_bytes:16384 total_calls:4 node0_bytes:8192 node0_calls:2 node1_bytes:4096 node1_calls:1\n' 12288 3
	printf '%12d %8d drivers/q"x\\y.c:5 [m] func:f total_bytes:20 total_calls:2\n' 10 1
} >"$tmp/in-all"
# (Debian's python3, which python3-prometheus-client is installed for)
parse() { /usr/bin/python3 "$TOP/scripts/tests/lib/parse-metrics.py" "$@"; }
for input in plain escaped nodes totals all; do
	for g in none dir module; do
		for fmt in openmetrics prometheus; do
			out=$tmp/out-$input-$g.$fmt
			"$at" -o $fmt -g $g -l 0 -i "$tmp/in-$input" >"$out" ||
				{ echo "FAIL: -o $fmt -g $g on $input exits $?"; fail=1; }
			parse $fmt "$out" >"$out.families" ||
				{ echo "FAIL: -o $fmt -g $g on $input:"; sed 's/^/  /' "$out.families"; fail=1; }
		done
		want "-g $g on $input: the same families in both formats" \
			"$(cat "$tmp/out-$input-$g.openmetrics.families")" \
			"$(cat "$tmp/out-$input-$g.prometheus.families")"
	done
done
for fmt in openmetrics prometheus; do
	want "-o $fmt: each family with its type, a sample a site or node" \
		"$(cat "$tmp/out-all-none.$fmt.families")" \
		'alloc_tag_bytes gauge 3
alloc_tag_calls gauge 3
alloc_tag_node_bytes gauge 2
alloc_tag_node_calls gauge 2
alloc_tag_allocated_bytes counter 3
alloc_tag_allocations counter 3'
	want "-o $fmt -g module: the counters of each module" \
		"$(grep counter "$tmp/out-all-module.$fmt.families")" \
		'alloc_tag_allocated_bytes counter 2
alloc_tag_allocations counter 2'
	mkdir "$tmp/w-$fmt"
	"$at" -o $fmt -l 0 -w "$tmp/w-$fmt/alloc.prom" -i "$tmp/in-all" ||
		{ echo "FAIL: -o $fmt -w exits $?"; fail=1; }
	want "-o $fmt -w: the file, and nothing else, in its directory" \
		"$(ls "$tmp/w-$fmt")" alloc.prom
	want "-o $fmt -w: what it prints" "$(cat "$tmp/w-$fmt/alloc.prom" 2>/dev/null)" \
		"$(cat "$tmp/out-all-none.$fmt")"
done
[ $fail = 0 ] && echo "alloctop: tags of one name apart across updates, summed and escaped in OpenMetrics; rates and counters of what was allocated; counts by node; OpenMetrics and Prometheus text as their parsers read them"
exit $fail
