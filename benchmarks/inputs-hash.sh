#!/bin/bash
# Print the tree's inputs hash (inputs_hash in benchmarks/lib.sh): what
# 'make bench', 'make trace' and 'make bootprof' would record as measured
# now.  'make report' passes it to the report, which warns about raw data
# measured on other inputs.
set -eu
. "$(dirname "$0")/../scripts/lib.sh"
. "$(dirname "$0")/lib.sh"
inputs_hash
