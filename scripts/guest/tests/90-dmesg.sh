# The kernel log stays clean: no warning, bug or alloc_tag complaint.
set -eu
. /guest/ktap.sh
bad=$(dmesg | grep -E 'WARNING:|BUG:|Oops|alloc_tag|codetag|page_owner' |
	grep -Ev 'allocated [0-9]+ bytes of page_ext' || true)
[ -z "$bad" ] || diag "$bad"
check "no warnings in dmesg" test -z "$bad"
ktap_done
