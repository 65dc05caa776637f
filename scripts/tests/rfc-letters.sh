#!/bin/bash
# The cover letters: every template of scripts/rfc/letters/ names only
# blocks and words the generator has and keeps to 72 columns; a letter
# renders its figures from results/ as they stand in micro.csv; a row with
# no figures, or a posting whose patches were not all built, fails the
# letter, naming what is missing, and leaves the cover letter untouched; so
# does a template that names a posting by its letter.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen=$top/scripts/rfc/cover-letter.py
python3 "$gen" --lint "$top"/scripts/rfc/letters/*.txt

# A posting of two patches, 3 and 4 of the series, built and clean.
cover() {
	printf 'Subject: [RFC PATCH 0/2] *** SUBJECT HERE ***\n\n*** BLURB HERE ***\n\nshortlog\n' >"$tmp/0000-cover-letter.patch"
}
cover
# Each patch on two configurations, the head on two more.
{
	printf '# build-each: x86_64 tinyconfig, series head 0123456789ab, today\nok       10s  0003  one\nok        9s  0004  two\n'
	printf '# build-each: arm64 tinyconfig, series head 0123456789ab, today\nok       10s  0003  one\nok        9s  0004  two\n'
} >"$tmp/build-each.txt"
printf '# heads: x\nok  5s  B  arm64      patch 4\nok  6s  B  s390x      patch 4\n' >"$tmp/heads.txt"
printf '== 0001\ntotal: 0 errors, 0 warnings, 0 checks, 9 lines checked\n== 0002\ntotal: 0 errors, 0 warnings, 0 checks, 9 lines checked\n' >"$tmp/checkpatch.txt"
printf 'Subject: alloc_tag: a test\n\nText for ${series}.\n\n@pairs off=profiling_off fork-flags=the_fork@\n\n@checks@\n' >"$tmp/t.txt"
export RFC_KVER=7.3.4 RFC_DEBVER=test RFC_SERIES=7.3
run() { python3 "$gen" "$top/results" "$1" "$tmp/0000-cover-letter.patch" "$tmp" B 3 4; }
run "$tmp/t.txt"
letter=$tmp/0000-cover-letter.patch
# The order-0 pair of fork-flags, as micro.csv has it (icount run 1, the
# median of its repeats).
want=$(python3 -c 'import csv, statistics, sys
v = [float(r["ns_per_op"]) for r in csv.DictReader(open(sys.argv[1]))
     if (r["row"], r["run"], r["bench"], r["arg"], r["kind"]) ==
     ("fork-flags", "icount-1", "page", "0", "hot")]
if v:
    print("%.1f" % statistics.median(v))' "$top/results/micro.csv")
[ -n "$want" ] || { echo "results/micro.csv has no fork-flags order-0 figure"; exit 1; }
grep -q "^Subject: \[RFC PATCH 0/2\] alloc_tag: a test$" "$letter" || { cat "$letter"; echo "no subject"; exit 1; }
grep -q '^Text for 7.3.$' "$letter" || { cat "$letter"; echo "no word filled in"; exit 1; }
grep -Eq "^  the fork +$want " "$letter" || { cat "$letter"; echo "no 'the fork' row of $want"; exit 1; }
tr '\n' ' ' <"$letter" | grep -q 'alone on x86_64 (.*) and arm64,.*all 2 build on each.*also built on arm64 and s390x' &&
	tr '\n' ' ' <"$letter" | grep -q 'clean on all 2 patches' || { cat "$letter"; echo "no checks"; exit 1; }

# A posting of one patch (4 alone) says so, in the singular.
mkdir "$tmp/one"
cp "$tmp/build-each.txt" "$tmp/heads.txt" "$tmp/one/"
printf '== 0001\ntotal: 0 errors, 0 warnings, 0 checks, 9 lines checked\n' >"$tmp/one/checkpatch.txt"
cover
python3 "$gen" "$top/results" "$tmp/t.txt" "$letter" "$tmp/one" B 4 4
tr '\n' ' ' <"$letter" | grep -q 'The patch was built on x86_64.*and arm64.*it builds on each\. *It was also built on arm64 and s390x\..*--strict: *clean\.' ||
	{ cat "$letter"; echo "no singular checks for one patch"; exit 1; }

# fails TEMPLATE TEXT: the letter fails with TEXT and the file is unchanged.
fails() {
	local rc=0
	cover
	run "$1" >"$tmp/log" 2>&1 || rc=$?
	[ $rc != 0 ] || { cat "$tmp/0000-cover-letter.patch"; echo "rendered despite: $2"; exit 1; }
	grep -q "$2" "$tmp/log" || { cat "$tmp/log"; echo "no '$2' in its error"; exit 1; }
	grep -q 'BLURB HERE' "$tmp/0000-cover-letter.patch" || { echo "the cover letter changed"; exit 1; }
}
printf 'Subject: x\n\n@pairs off no-such-row@\n' >"$tmp/bad.txt"
fails "$tmp/bad.txt" "no-such-row"
printf 'Subject: x\n\n@nosuchblock@\n' >"$tmp/bad.txt"
fails "$tmp/bad.txt" "no block @nosuchblock@"
# The list knows a posting by its subject, not by the letter we give it.
printf 'Subject: x\n\nAs posting E has it.\n' >"$tmp/bad.txt"
fails "$tmp/bad.txt" "names a posting by its letter"
# A patch not built on one configuration is missing there.
sed -i '$d' "$tmp/build-each.txt"
fails "$tmp/t.txt" "build-each.txt lacks patches 3 to 4 on arm64"
sed -i '/^# build-each: /d' "$tmp/build-each.txt"
fails "$tmp/t.txt" "build-each.txt names no configuration"
echo "rfc-letters: templates lint clean; figures, words and checks rendered; missing data fails"
