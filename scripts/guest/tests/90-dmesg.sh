# The kernel log stays clean: no warning, bug, oops, or complaint from
# allocation tagging (its informational lines and KUnit's are fine).
set -eu
. /guest/ktap.sh
bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|Call Trace|alloc_tag was not|alloc_tag: no tag|not indexed by|allocated at module unload$|too few spare bits' || true)
[ -z "$bad" ] || diag "$bad"
check "no warnings in dmesg" test -z "$bad"
ktap_done
