#!/bin/bash
# Print "kernel:KERNEL INPUTS" for every kernel objsize.sh sizes and
# tagcounts.sh counts: what its rows of results/objsize.csv and
# tagcounts.csv would record if measured now (kernel_inputs in
# benchmarks/lib.sh).  'make report' adds these lines to results/inputs.txt,
# after benchmarks/inputs-hash.sh's, and lists a size or count taken on
# other inputs as it lists stale measurements.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
. "$TOP/benchmarks/lib.sh"
trees_recorded
for k in $(survey_kernels); do
	echo "kernel:$k $(kernel_inputs "$k")"
done
