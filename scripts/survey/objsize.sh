#!/bin/bash
# The sizes of the objects the series changes most, in the kernels of the
# benchmark matrix's rows and the test kernels (survey_kernels in
# common.sh): one row per kernel and object in results/objsize.csv, the
# bytes of its allocated sections by kind (text: executable; rodata:
# read-only; data: writable; bss: no bytes in the file), read with readelf
# from the relocatable object, so that any architecture's reads alike.
# Each kernel is built first (build_current: nothing to do when its build
# is of the tree), so that every size is of the tree, and its row records
# the kernel's inputs (kernel_inputs, benchmarks/lib.sh), which the report
# checks against the tree's.  Part of 'make survey' (scripts/survey/run.sh);
# the report holds mm/slub.o to its stock peer's (benchmarks/report/targets.txt).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
. "$TOP/benchmarks/lib.sh"

res=$TOP/results
project_commit=${SURVEY_PROJECT_COMMIT:-$(git -C "$TOP" rev-parse --short=12 HEAD)}
today=${SURVEY_DATE:-$(date -u +%Y-%m-%d)}
csv=$res/objsize.csv
objects="mm/slub.o mm/page_alloc.o mm/alloc_tag.o lib/codetag.o mm/percpu.o mm/vmalloc.o mm/memcontrol.o"

echo "config,object,text,rodata,data,bss,kernel_version,inputs,project_commit,date" >"$csv.tmp"
n=0
for k in $(survey_kernels); do
	log "objects: $k: building, to size it as the tree has it"
	build_current "$k"
	d=$BUILD/kernel-$k
	kver=$(cat "$d/include/config/kernel.release" 2>/dev/null || echo "?")
	inputs=$(kernel_inputs "$k")
	for o in $objects; do
		# Not built in this configuration (no profiling, no memcg)
		[ -f "$d/$o" ] || continue
		v=$(sizes "$d/$o") || die "readelf failed on $d/$o"
		read -r text rodata data bss <<<"$v"
		csv_row "guest-$k" "$o" "$text" "$rodata" "$data" "$bss" \
			"$kver" "$inputs" "$project_commit" "$today" >>"$csv.tmp"
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || die "no kernel to size (survey_kernels)"
mv "$csv.tmp" "$csv"
log "objects: $n sized in results/objsize.csv"
