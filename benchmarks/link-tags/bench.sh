#!/bin/bash
# Time link-tags on synthetic vmlinux-shaped files (ET_EXEC) with 10 000
# and 60 000 tags.  Each mode runs REPEATS times; the table gives median,
# min and max wall time in ms plus every sample.
#   write: a fresh copy each time; indexes, writes file and map
#   check: --check, validation only
#   again: the file is already indexed; nothing to rewrite but the map
# Usage: bench.sh [OUTPUT]   (default stdout; REPEATS, LINK_TAGS from env)
# Target: write on 10 000 tags under 50 ms.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
REPEATS=${REPEATS:-11}
if [ -z "${LINK_TAGS:-}" ]; then
	make -s -C "$top/scripts/link-tags" link-tags >&2
	LINK_TAGS=$top/scripts/link-tags/link-tags
fi
out=${1:-/dev/stdout}
work=$(mktemp -d "${TMPDIR:-/tmp}/link-tags-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

# gen N MODNAME: C source with N tags spread over 500 files and N/4 functions
gen() {
	awk -v n="$1" -v mod="$2" 'BEGIN {
		print "struct alloc_tag { unsigned short flags, idx; unsigned int lineno;"
		print "  const char *modname, *function, *filename; long *counters; }"
		print "  __attribute__((aligned(8)));"
		print "static long counters[4];"
		m = mod == "" ? "0" : "\"" mod "\""
		for (i = 0; i < n; i++)
			printf "static struct alloc_tag t%d __attribute__((used, section(\"alloc_tags\"), aligned(8))) = { 0, 0, %d, %s, \"function_%d\", \"drivers/bench/file_%d.c\", counters };\n", i, 10 + i % 900, m, int(i / 4), i % 500
		print "void _start(void) { }"
	}'
}
cat >"$work/vmlinux.lds" <<'LDS'
ENTRY(_start)
SECTIONS
{
	. = 0xffffffff81000000;
	.text : { *(.text .text.*) }
	.rodata : { *(.rodata .rodata.*) }
	. = ALIGN(4096);
	.data : {
		*(.data .data.*)
		. = ALIGN(8);
		__start_alloc_tags = .;
		KEEP(*(alloc_tags))
		__stop_alloc_tags = .;
	}
	.bss : { *(.bss .bss.*) }
}
LDS

build() {	# NAME TAGS
	gen "$2" "" >"$work/$1.c"
	gcc -O0 -fno-pic -mcmodel=kernel -c -o "$work/$1.o" "$work/$1.c"
	ld -static -nostdlib -T "$work/vmlinux.lds" -o "$work/$1.orig" "$work/$1.o"
}

# run NAME MODE: print REPEATS samples in microseconds
run() {
	local name=$1 mode=$2 i t0 t1 f=$work/$1
	cp "$work/$name.orig" "$f"
	[ "$mode" = again ] && "$LINK_TAGS" -q "$f"
	for ((i = 0; i < REPEATS; i++)); do
		[ "$mode" = write ] && cp "$work/$name.orig" "$f"
		t0=${EPOCHREALTIME/./}
		case $mode in
		check)	"$LINK_TAGS" -q --check "$f" ;;
		*)	"$LINK_TAGS" -q "$f" ;;
		esac
		t1=${EPOCHREALTIME/./}
		echo $((10#$t1 - 10#$t0))
	done
}

# stats: read samples (us); print median min max in ms and the sample list
stats() {
	sort -n | awk '{ v[NR] = $1 / 1000; s = s (NR > 1 ? "," : "") sprintf("%.2f", $1 / 1000) }
		END { printf "%.2f\t%.2f\t%.2f\t%s\n", (NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2), v[1], v[NR], s }'
}

{
	echo "# link-tags benchmark $(date -u +%Y-%m-%dT%H:%M:%SZ) $(uname -r) $(nproc) cpus, repeats $REPEATS"
	echo "# tool: $LINK_TAGS"
	printf 'case\tkind\ttags\tbytes\tmode\tmedian_ms\tmin_ms\tmax_ms\tsamples_ms\n'
	for c in vmlinux-10000:10000:ET_EXEC vmlinux-60000:60000:ET_EXEC; do
		IFS=: read -r name tags kind <<<"$c"
		build "$name" "$tags"
		bytes=$(wc -c <"$work/$name.orig")
		for mode in write check again; do
			printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$kind" "$tags" \
				"$bytes" "$mode" "$(run "$name" "$mode" | stats)"
		done
	done
} >"$work/result"

median=$(awk -F'\t' '$1 == "vmlinux-10000" && $5 == "write" { print $6 }' "$work/result")
verdict=$(awk -v m="$median" 'BEGIN { print (m < 50 ? "met" : "MISSED") }')
echo "# target: write on 10000 tags < 50 ms: $verdict (median $median ms)" >>"$work/result"
cat "$work/result" >"$out"
