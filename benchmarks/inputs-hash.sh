#!/bin/bash
# Print what 'make bench', 'make trace', 'make bootprof' and 'make capture'
# would record as measured now: "ROW INPUTS" for every row of the matrix
# (row_inputs in benchmarks/lib.sh), then "capture INPUTS" and "bpf
# INPUTS", make capture's units.  'make report'
# passes it to the report, which warns about raw data measured on other
# inputs.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/lib.sh"
trees_recorded
for r in $(matrix_rows | awk '{ print $1 }'); do
	echo "$r $(row_inputs "$r")"
done
for u in capture bpf; do
	echo "$u $(capture_inputs "$u")"
done
