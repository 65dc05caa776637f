# The kernel log stays clean: no warning, bug, oops, or complaint from
# allocation tagging (its informational lines and KUnit's are fine).
set -eu
. /guest/ktap.sh
bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|alloc_tag was not|not numbered by scripts/link-tags|do not fit in|profiling is disabled' || true)
# Stock's compressed form says so when it switches profiling off.
[ "${FORM:-}" != off ] ||
	bad=$(echo "$bad" | grep -v 'profiling is disabled' || true)
[ -z "$bad" ] || diag "$bad"
check "no warnings in dmesg" test -z "$bad"
ktap_done
