#!/bin/bash
# The sizes of the objects the series changes most, in the kernels of the
# benchmark matrix's rows (objsize_kernels in common.sh): one row per
# kernel and object in results/objsize.csv, the bytes of its allocated
# sections by kind (text: executable; rodata: read-only; data: writable;
# bss: no bytes in the file), read with readelf from the relocatable
# object, so that any architecture's reads alike.  Each kernel is built
# first (scripts/build-kernel.sh: nothing to do when its build is of the
# tree), so that every size is of the tree, and its row records the
# kernel's inputs (kernel_inputs, benchmarks/lib.sh), which the report
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

# sizes OBJECT: "TEXT RODATA DATA BSS", bytes of its SHF_ALLOC sections
sizes() {
	readelf -S -W "$1" | awk '
		function hex(h,   i, v) {
			v = 0
			for (i = 1; i <= length(h); i++)
				v = v * 16 + index("0123456789abcdef", substr(h, i, 1)) - 1
			return v
		}
		/^ *\[ *[0-9]+\]/ {
			sub(/^ *\[ *[0-9]+\] */, "")
			n = split($0, f, " +")
			# Name Type Address Off Size ES [Flg] Lk Inf Al
			flg = n >= 10 ? f[7] : ""
			if (flg !~ /A/) next
			size = hex(f[5])
			if (f[2] == "NOBITS") bss += size
			else if (flg ~ /X/) text += size
			else if (flg ~ /W/) data += size
			else rodata += size
		}
		END { printf "%d %d %d %d\n", text, rodata, data, bss }'
}

echo "config,object,text,rodata,data,bss,kernel_version,inputs,project_commit,date" >"$csv.tmp"
n=0
for k in $(objsize_kernels); do
	log "objects: $k: building, to size it as the tree has it"
	"$TOP/scripts/build-kernel.sh" "$k" >/dev/null ||
		die "objects: building $k failed (scripts/build-kernel.sh $k)"
	d=$BUILD/kernel-$k
	kver=$(cat "$d/include/config/kernel.release" 2>/dev/null || echo "?")
	inputs=$(kernel_inputs "$k")
	for o in $objects; do
		# Not built in this configuration (no profiling, no memcg)
		[ -f "$d/$o" ] || continue
		read -r text rodata data bss <<<"$(sizes "$d/$o")" ||
			die "readelf failed on $d/$o"
		csv_row "guest-$k" "$o" "$text" "$rodata" "$data" "$bss" \
			"$kver" "$inputs" "$project_commit" "$today" >>"$csv.tmp"
		n=$((n + 1))
	done
done
[ "$n" -gt 0 ] || die "no kernel to size (objsize_kernels)"
mv "$csv.tmp" "$csv"
log "objects: $n sized in results/objsize.csv"
