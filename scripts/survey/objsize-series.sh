#!/bin/bash
# mm/slub.o through the series: its sizes (as objsize.sh reads them) in
# fork-bench's configuration on stock 7.3 and after each patch (a header's
# inline functions change it as much as mm/slub.c does), so that what
# each patch adds to the object the slab maintainers read is measured,
# not quoted.  One row a patch in results/objsize-series.csv, which
# records fork-bench's kernel_inputs (benchmarks/lib.sh): the report
# lists it as stale when the series moves.  Part of 'make survey'
# (scripts/survey/run.sh).
#
# Work: a detached worktree of the fork's tree in $BUILD/survey/series-src
# and one output directory beside it (20 s to a minute a patch with
# ccache; the object alone is built).
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
. "$TOP/benchmarks/lib.sh"

res=$TOP/results
csv=$res/objsize-series.csv
sv=$BUILD/survey
wt=$sv/series-src
out=$sv/series-out
object=mm/slub.o
variant=fork-bench
project_commit=${SURVEY_PROJECT_COMMIT:-$(git -C "$TOP" rev-parse --short=12 HEAD)}
today=${SURVEY_DATE:-$(date -u +%Y-%m-%d)}

[ -f "$FORK_SRC/.git/alloctag-series" ] ||
	die "no patched source in $FORK_SRC (run 'make source')"
build_current "$variant"
config=$BUILD/kernel-$variant/.config
inputs=$(kernel_inputs "$variant")
mkdir -p "$sv" "$out"
[ -e "$wt/.git" ] || git -C "$FORK_SRC" worktree add -q --detach "$wt" pristine ||
	die "git worktree add $wt failed"

mapfile -t commits < <(git -C "$FORK_SRC" rev-list --reverse pristine..HEAD)
mapfile -t patches < <(grep -v '^#' "$TOP/kernel/patches/series" | grep .)
[ "${#commits[@]}" = "${#patches[@]}" ] ||
	die "$FORK_SRC has ${#commits[@]} patches over pristine, kernel/patches/series ${#patches[@]}"

# size_at COMMIT: mm/slub.o's "TEXT RODATA DATA BSS" at COMMIT
size_at() {
	git -C "$wt" checkout -q --detach "$1" || die "checkout of $1 in $wt failed"
	kbuild_env "$wt" HEAD ""
	cp "$config" "$out/.config"
	local kmake=(make -s -C "$wt" O="$out" CC="$cc" HOSTCC="$hostcc" -j"$JOBS")
	"${kmake[@]}" olddefconfig >"$out/build.log" 2>&1 &&
		"${kmake[@]}" "$object" >>"$out/build.log" 2>&1 ||
		{ tail -20 "$out/build.log" >&2; die "building $object at $1 failed (log $out/build.log)"; }
	sizes "$out/$object" || die "readelf failed on $out/$object"
}

echo "patch,subject,object,text,rodata,data,bss,config,inputs,project_commit,date" >"$csv.tmp"
row() { # PATCH SUBJECT SIZES
	local text rodata data bss
	read -r text rodata data bss <<<"$3"
	csv_row "$1" "$2" "$object" "$text" "$rodata" "$data" "$bss" "$variant" \
		"$inputs" "$project_commit" "$today" >>"$csv.tmp"
	log "$object: $1: text $text"
}
v=$(size_at "$(git -C "$FORK_SRC" rev-parse pristine)")
row stock "the source the series applies to" "$v"
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	v=$(size_at "$c")
	row "${patches[$i]%%-*}" "$(git -C "$FORK_SRC" log -1 --format=%s "$c")" "$v"
done
mv "$csv.tmp" "$csv"
log "objects: $object through the series in results/objsize-series.csv"
