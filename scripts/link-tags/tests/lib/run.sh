#!/bin/sh
# Run tests/*.sh: all of them, the NAMEs given, or all but the ones after
# -x.  A test exits 0 to pass, 2 to skip, anything else fails; a failing
# test's output is shown indented.
# Usage: run.sh [NAME...] | run.sh -x NAME...
set -eu
tests=$(cd "$(dirname "$0")/.." && pwd)
src=$(cd "$tests/.." && pwd)
LINK_TAGS=${LINK_TAGS:-$src/link-tags}
TESTS_DIR=$tests
SRC_DIR=$src
export LINK_TAGS TESTS_DIR SRC_DIR

log=$(mktemp "${TMPDIR:-/tmp}/link-tags-log.XXXXXX")
trap 'rm -f "$log"' EXIT
pass=0 fail=0 skip=0
exclude=false
[ "${1:-}" != -x ] || { exclude=true; shift; }
for name in "$@"; do
	[ -f "$tests/$name.sh" ] || { echo "run.sh: no test $tests/$name.sh" >&2; exit 1; }
done
for t in "$tests"/*.sh; do
	name=${t##*/}
	name=${name%.sh}
	if [ $# -gt 0 ]; then
		case " $* " in
		*" $name "*) $exclude && continue ;;
		*) $exclude || continue ;;
		esac
	fi
	if sh "$t" >"$log" 2>&1; then rc=0; else rc=$?; fi
	case $rc in
	0)	pass=$((pass + 1)); echo "PASS $name" ;;
	2)	skip=$((skip + 1)); echo "SKIP $name: $(tail -n 1 "$log")" ;;
	*)	fail=$((fail + 1)); echo "FAIL $name (exit $rc)"
		sed 's/^/    /' "$log" ;;
	esac
done
echo "link-tags: $pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ] || exit 1
# only skips: say so to a caller that counts skips
[ "$pass" -gt 0 ] || [ "$skip" -eq 0 ] || exit 2
