# The kernel log stays clean: no warning, bug, oops, or complaint from
# allocation tagging (its informational lines and KUnit's are fine).
set -eu
. /guest/ktap.sh
# 81-fail's allocations fail on purpose between its marks, and only their
# failure reports stand there (it checks that itself).
bad=$(dmesg | awk '/81-fail: allocations fail on purpose from here/ { s = 1 }
		  !s { print } /81-fail: to here/ { s = 0 }' |
	grep -E 'WARNING:|BUG:|Oops|Call Trace|alloc_tag was not|not numbered by scripts/link-tags|do not fit in|profiling is disabled' || true)
# Stock's compressed form says so when it switches profiling off.
[ "${FORM:-}" != off ] ||
	bad=$(echo "$bad" | grep -v 'profiling is disabled' || true)
[ -z "$bad" ] || diag "$bad"
check "no warnings in dmesg" test -z "$bad"
ktap_done
