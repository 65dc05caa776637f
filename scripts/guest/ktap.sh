# KTAP helpers for guest test scripts (sourced).  Each check prints one
# result line; ktap_done prints the plan and gives the script's status.
_n=0 _fail=0
echo "KTAP version 1"
ok() { _n=$((_n + 1)); echo "ok $_n $*"; }
not_ok() { _n=$((_n + 1)); _fail=$((_fail + 1)); echo "not ok $_n $*"; }
skip() { _n=$((_n + 1)); echo "ok $_n $1 # SKIP $2"; }
diag() { echo "# $*"; }
# check DESCRIPTION COMMAND...: one result from a command's status.
check() {
	_d=$1; shift
	if "$@"; then ok "$_d"; else not_ok "$_d"; fi
}
# check_eq DESCRIPTION EXPECTED ACTUAL
# (the value is printed too, so the host can compare runs)
check_eq() {
	diag "got: $1: $3"
	if [ "$2" = "$3" ]; then ok "$1"; else diag "$1: expected '$2', got '$3'"; not_ok "$1"; fi
}
ktap_done() { echo "1..$_n"; [ $_fail = 0 ]; }

# Tag counters of the allocinfo line whose tag info contains $1:
# prints "BYTES CALLS", or "0 0" when no line matches.
tag_counters() {
	awk -v want="$1" 'index($0, want) { b += $1; c += $2; n++ }
		END { printf "%d %d\n", b, c }' /proc/allocinfo
}
