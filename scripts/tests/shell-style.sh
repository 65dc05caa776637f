#!/bin/bash
# Every project shell script parses, and every one that runs (not a
# sourced library) sets -eu; the guest's PID 1 is exempt: it must never
# exit, or the kernel panics.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
fail=0
for f in $(git ls-files '*.sh' .ci/run scripts/guest/run-tests); do
	bash -n "$f" || { echo "$f: syntax error"; fail=1; }
	[ -x "$f" ] || continue
	grep -q '^set -eu' "$f" || { echo "$f: no 'set -eu'"; fail=1; }
done
exit $fail
