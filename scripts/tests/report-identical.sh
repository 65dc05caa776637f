#!/bin/bash
# The published tables are a function of the committed raw data: rendering
# results/*.csv, trace/*.txt and bootprof/*.tsv anew (python3 -m
# benchmarks.report) gives, byte for byte, the committed results/README.md,
# targets.csv, the plots' data, trace/ and bootprof/ READMEs, pageflags.md,
# tagcounts.md and README.md's headline; with gnuplot, the SVG and PNG too.
# README.md's counts and the generated blocks of docs/ render from the
# tree's series, configs, matrix, targets and guest tests.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$top"
git ls-files -z results README.md docs | xargs -0 cp --parents -t "$tmp"
plots=--no-plots pics=()
command -v gnuplot >/dev/null && plots="" pics=(-o -name '*.svg' -o -name '*.png')
# Remove what the report writes, so that each must be written again.
find "$tmp/results" -not -path '*/rfc/*' \( -name '*.md' -o -name '*.dat' \
	-o -name targets.csv ${pics[@]+"${pics[@]}"} \) -delete
python3 -m benchmarks.report "$tmp/results" --readme "$tmp/README.md" --docs "$tmp/docs" $plots
fail=0
for f in $(git ls-files results README.md docs | grep -v '^results/rfc/'); do
	cmp -s "$f" "$tmp/$f" || { echo "FAIL: $f differs from its rendering:"; diff "$f" "$tmp/$f" | head -20 || true; fail=1; }
done
[ $fail = 0 ] && echo "report-identical: every published table renders byte for byte from the raw data${plots:+ (no gnuplot: the plot data only)}"
exit $fail
