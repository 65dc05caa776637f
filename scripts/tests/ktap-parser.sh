#!/bin/bash
# The KTAP parser counts leaves, honours SKIP, fails on missing results,
# and reads KUnit's nested, timestamped console output.
set -eu
ktap=$(dirname "$0")/../ktap.py
expect() { # expect "P F S" RC: runs ktap.py on stdin
	local out rc=0
	out=$("$ktap" -) || rc=$?
	out=$(tail -1 <<<"$out")
	[ "$out" = "$1" ] && [ "$rc" = "$2" ] ||
		{ echo "expected '$1' rc $2, got '$out' rc $rc"; exit 1; }
}
printf 'KTAP version 1\n1..2\nok 1 a\nok 2 b # SKIP why\n' |
	expect "1 passed, 0 failed, 1 skipped" 0
printf 'KTAP version 1\n1..2\nok 1 a\nnot ok 2 b\n' |
	expect "1 passed, 1 failed, 0 skipped" 1
# A guest that died after the first of three results.
printf 'KTAP version 1\n1..3\nok 1 a\n' |
	expect "1 passed, 1 failed, 0 skipped" 1
printf 'no tests here\n' | expect "0 passed, 1 failed, 0 skipped" 1
# KUnit on the console: timestamps, a nested suite, the parent's summary.
cat <<'LOG' | expect "2 passed, 1 failed, 0 skipped" 1
[    1.000000] KTAP version 1
[    1.000001] 1..1
[    1.000002]     KTAP version 1
[    1.000003]     # Subtest: suite
[    1.000004]     1..3
[    1.000005]     ok 1 t1
[    1.000006]     ok 2 t2
[    1.000007]     not ok 3 t3
[    1.000008] # suite: pass:2 fail:1 skip:0 total:3
[    1.000009] not ok 1 suite
LOG
# A parent that failed although its children passed counts as a failure.
printf 'KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    ok 1 x\nnot ok 1 s\n' |
	expect "1 passed, 1 failed, 0 skipped" 1
