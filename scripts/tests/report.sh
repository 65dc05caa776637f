#!/bin/bash
# The report's data module, matrix reader and target judging on a small
# fixture (benchmarks/report/tests/), and the shell matrix reader
# (benchmarks/lib.sh) on the same matrix.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
python3 -m unittest discover -s benchmarks/report/tests -t . 2>&1

export MATRIX=$top/benchmarks/report/tests/matrix.txt
. scripts/lib.sh
. benchmarks/lib.sh
fail=0
want() { # want WHAT GOT EXPECTED
	[ "$2" = "$3" ] || { echo "FAIL: $1: got '$2', want '$3'"; fail=1; }
}
want "pairs" "$(matrix_pairs | tr '\n' ' ')" "fork-a:stock-a fork-b:stock-a "
want "group off" "$(matrix_group off | tr '\n' ' ')" "off stock-a fork-a fork-b "
want "kernel" "$(matrix_field fork-other kernel)" "fork-other"
want "args" "$(matrix_field fork-other args)" "a=1 b=2"
want "no args" "$(matrix_field off args)" "-"
if (matrix_field nope kernel) 2>/dev/null; then echo "FAIL: an unknown row was found"; fail=1; fi
printf 'off off none -\n' >"${TMPDIR:-/tmp}/bad-matrix.$$"
if (MATRIX=${TMPDIR:-/tmp}/bad-matrix.$$ && . benchmarks/lib.sh) 2>/dev/null; then
	echo "FAIL: a row of 4 columns was accepted"; fail=1
fi
rm -f "${TMPDIR:-/tmp}/bad-matrix.$$"
[ "$(inputs_hash)" = "$(inputs_hash)" ] && [ ${#MATRIX_ROWS} -gt 0 ] ||
	{ echo "FAIL: inputs_hash"; fail=1; }
[ $fail = 0 ] && echo "report: data, targets and both matrix readers"
exit $fail
