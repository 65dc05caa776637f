#!/bin/bash
# Print "kernel:KERNEL INPUTS" for every kernel objsize.sh sizes and
# tagcounts.sh counts: what its rows of results/objsize.csv and
# tagcounts.csv would record if measured now (kernel_inputs in
# benchmarks/lib.sh), and for tagcounts.sh's x86_64 defconfig build,
# defconfig_inputs of the series' tree.  'make report' adds these lines
# to results/inputs.txt, after benchmarks/inputs-hash.sh's, and lists a
# size or count taken on other inputs as it lists stale measurements.
set -eu
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/common.sh"
. "$TOP/benchmarks/lib.sh"
trees_recorded
for k in $(survey_kernels); do
	echo "kernel:$k $(kernel_inputs "$k")"
done
echo "kernel:x86_64-defconfig $(defconfig_inputs "$(posting_tree_id "$(postings | tail -1)")")"
