#!/bin/bash
# Allocation tag counts of the kernels the project builds, from link-tags'
# summaries (--check: reads, writes nothing) for vmlinux and from the size
# of the tag section for each .ko (the module loader numbers a module's
# tags; link-tags reads vmlinux only): one row per vmlinux and per .ko in
# results/tagcounts.csv.  Part of 'make survey' (scripts/survey/run.sh).
#
#   - the guest kernels of survey_kernels (common.sh: the benchmark
#     matrix's and the test kernels), each built from the tree first, its
#     rows recording its kernel_inputs (benchmarks/lib.sh), which the
#     report checks against the tree's;
#   - x86_64 defconfig + CONFIG_MEM_ALLOC_PROFILING=y with its modules,
#     built in $BUILD/survey/tags-defconfig (15-25 min cold on 2 cores;
#     rebuilt whenever the fork's tree changes, its row recording
#     defconfig_inputs (common.sh) as the report checks;
#     SURVEY_DEFCONFIG=0 skips the build, a finished one is still counted).
#
# Each kernel's page-flags layout comes from scripts/survey/pageflags.sh on
# that same .config, and the tag layout passed to link-tags (tag size,
# field offsets) from the same probe, i.e. from the kernel's own headers.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
. "$TOP/benchmarks/lib.sh"

sv=$BUILD/survey
res=$TOP/results
mkdir -p "$sv" "$res"
lt=$TOP/scripts/link-tags/link-tags
[ -x "$lt" ] || make -s -C "$TOP/scripts/link-tags" || die "cannot build link-tags"
project_commit=${SURVEY_PROJECT_COMMIT:-$(git -C "$TOP" rev-parse --short=12 HEAD)}
today=${SURVEY_DATE:-$(date -u +%Y-%m-%d)}
csv=$res/tagcounts.csv
echo "config,build,file,kind,tags,bits_needed,index_bits,headroom,spare_page_flag_bits,page_flag_index_bits,tag_size,kernel_version,source_commit,inputs,project_commit,date" >"$csv.tmp"

kbuild_env "$KSRC" HEAD ""

# field SUMMARY WORD: the number before WORD in a link-tags summary line.
field() { echo "$1" | sed -n "s/.* \\([0-9][0-9]*\\) $2[ ,].*/\\1/p"; }
# headroom is "headroom N" (number after the word).
after() { echo "$1" | sed -n "s/.*$2 \\([0-9][0-9]*\\).*/\\1/p"; }

# module_summary KO TAG-SIZE: a summary line as link-tags printed one for
# a module before the loader numbered module tags: N tags out of the
# 2^16 - 2 indices one module may use.
module_summary() {
	local hex n b=0
	hex=$(readelf -SW "$1" | awk '{ sub(/^ *\[ *[0-9]+\] */, "") }
		$1 == ".codetag.alloc_tags" { print $5; exit }')
	[ -n "$hex" ] || return 0
	n=$(( 16#$hex / $2 ))
	while [ $((1 << b)) -lt "$n" ]; do b=$((b + 1)); done
	echo "link-tags: $1: $n tags, $b bits needed, 16 bits available, headroom $((65534 - n))"
}

# count_build CONFIG-NAME BUILD-DIR INPUTS: every vmlinux/.ko of one
# build, made from INPUTS.
count_build() {
	local name=$1 dir=$2 inputs=$3 pf=$sv/pf-tags-$1
	[ -f "$dir/vmlinux" ] || die "$name: no $dir/vmlinux"
	log "tags: $name: page-flags probe on $dir/.config"
	"$TOP/scripts/survey/pageflags.sh" "$dir/.config" "$pf" >"$pf.txt" ||
		die "$name: pageflags.sh failed"
	kv() { sed -n "s/^$1=//p" "$pf.txt"; }
	local size spare pfbits kver src
	size=$(kv alloc_tag_size); spare=$(kv spare_bits); pfbits=$(kv compact_index_bits)
	kver=$(kv kernel_version); src=$(kv source_commit)
	local opts=(--check)
	if [ "$size" != 0 ]; then
		opts+=(--tag-size "$size" --fields "$(kv codetag_lineno),$(kv codetag_modname),$(kv codetag_function),$(kv codetag_filename)")
	fi
	local f kind out n=0
	: >"$csv.part"
	while IFS= read -r f; do
		kind=module
		[ "${f##*/}" != vmlinux ] || kind=vmlinux
		if [ $kind = module ]; then
			out=$(module_summary "$f" "$([ "$size" != 0 ] && echo "$size" || echo 40)")
		else
			out=$("$lt" "${opts[@]}" "$f") || die "$name: link-tags failed on $f"
		fi
		out=$(echo "$out" | grep '^link-tags: ' | tail -1)
		[ -n "$out" ] || { [ $kind = module ] && continue; die "$name: link-tags printed no summary for $f"; }
		csv_row "$name" "${dir#"$TOP"/}" "${f#"$dir"/}" "$kind" \
			"$(field "$out" tags)" "$(field "$out" 'bits needed')" \
			"$(field "$out" 'bits available')" "$(after "$out" headroom)" \
			"$spare" "$pfbits" "$size" "$kver" "$src" "$inputs" "$project_commit" "$today" \
			>>"$csv.part"
		n=$((n + 1))
	done < <(echo "$dir/vmlinux"; find "$dir" -name '*.ko' -not -path '*/.tmp*' | sort)
	cat "$csv.part" >>"$csv.tmp"
	rm -f "$csv.part"
	log "tags: $name: $n file(s) counted"
}

# Guest variants, as the tree builds them.
for k in $(survey_kernels); do
	log "tags: $k: building, to count it as the tree has it"
	build_current "$k"
	d=$BUILD/kernel-$k
	# Profiling compiled out: no tags to count.
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$d/.config" || continue
	count_build "guest-$k" "$d" "$(kernel_inputs "$k")"
done

# x86_64 defconfig + profiling, with its modules.
dd=$sv/tags-defconfig
build_defconfig() {
	mkdir -p "$dd"
	local kmake=(make -C "$KSRC" O="$dd" CC="$cc" HOSTCC="$hostcc" -j"$JOBS")
	local inputs
	inputs=$(defconfig_inputs "$(git -C "$KSRC" rev-parse 'HEAD^{tree}')")
	if [ -f "$dd/.built" ] && [ "$(cat "$dd/.built")" = "$inputs" ]; then
		log "tags: defconfig build up to date in $dd"
		return 0
	fi
	rm -f "$dd/.built"
	log "tags: configuring x86_64 defconfig + MEM_ALLOC_PROFILING in $dd"
	"${kmake[@]}" -s ARCH=x86_64 defconfig >"$dd/config.log" 2>&1 ||
		{ tail "$dd/config.log" >&2; die "defconfig failed"; }
	"$KSRC/scripts/config" --file "$dd/.config" --enable MEM_ALLOC_PROFILING
	"${kmake[@]}" -s olddefconfig >>"$dd/config.log" 2>&1 || die "olddefconfig failed"
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$dd/.config" ||
		die "defconfig: Kconfig refused CONFIG_MEM_ALLOC_PROFILING"
	log "tags: building defconfig vmlinux + modules (-j$JOBS, log $dd/build.log; 15-25 min cold on 2 cores)"
	local t0 pid
	t0=$(date +%s)
	"${kmake[@]}" vmlinux modules >"$dd/build.log" 2>&1 &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 60
		kill -0 "$pid" 2>/dev/null || break
		log "tags: defconfig build: $(( ($(date +%s) - t0) / 60 )) min, $(grep -c '^  CC' "$dd/build.log" || true) files compiled"
	done
	wait "$pid" || { tail -30 "$dd/build.log" >&2; die "defconfig build failed (log $dd/build.log)"; }
	log "tags: defconfig built in $(( $(date +%s) - t0 ))s"
	echo "$inputs" >"$dd/.built"
}
if [ "${SURVEY_DEFCONFIG:-1}" != 0 ]; then
	build_defconfig
elif [ -f "$dd/.built" ]; then
	log "tags: SURVEY_DEFCONFIG=0: counting the earlier defconfig build in $dd"
else
	log "tags: SURVEY_DEFCONFIG=0: x86_64 defconfig skipped (no earlier build)"
fi
[ ! -f "$dd/.built" ] || count_build x86_64-defconfig "$dd" "$(cat "$dd/.built")"

mv "$csv.tmp" "$csv"
log "wrote $csv"
