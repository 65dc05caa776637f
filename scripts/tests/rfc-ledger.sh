#!/bin/bash
# The RFC build checks keep each result in a ledger by key: a kept "ok" line
# is found again, a key never kept or kept as failed is built again, and
# keeping a key again replaces its line instead of adding one.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export RFC_LEDGER=$tmp/ledger.txt
. "$top/scripts/rfc/lib.sh"

! rfc_done aaaa-1111 >/dev/null || { echo "a key in no ledger was found"; exit 1; }
[ "$(rfc_keep aaaa-1111 'ok       12s  0001  first')" = "ok       12s  0001  first" ] ||
	{ echo "rfc_keep did not print its line"; exit 1; }
rfc_keep bbbb-2222 'FAILED    3s  0002  second' >/dev/null
[ "$(rfc_done aaaa-1111)" = "ok       12s  0001  first" ] ||
	{ echo "the kept line came back as '$(rfc_done aaaa-1111 || true)'"; exit 1; }
! rfc_done bbbb-2222 >/dev/null || { echo "a failed build counted as done"; exit 1; }
! rfc_done aaaa >/dev/null || { echo "a key's prefix matched it"; exit 1; }
rfc_keep bbbb-2222 'ok        4s  0002  second' >/dev/null
[ "$(grep -c '^bbbb-2222 ' "$RFC_LEDGER")" = 1 ] || { cat "$RFC_LEDGER"; echo "a key kept twice has two lines"; exit 1; }
[ "$(rfc_done bbbb-2222)" = "ok        4s  0002  second" ] || { echo "the line kept last is not the one found"; exit 1; }
[ "$(grep -vc '^#' "$RFC_LEDGER")" = 2 ] || { cat "$RFC_LEDGER"; echo "the ledger lost or gained a line"; exit 1; }
[ ! -e "$RFC_LEDGER.tmp" ] || { echo "the temporary file was left"; exit 1; }
echo "the ledger keeps, finds and replaces build results by key"
