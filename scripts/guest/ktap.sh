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

# need_tag_flags: skip the test (exit 2) on a kernel without per-tag flags:
# profiling compiled out, or stock 7.3.
need_tag_flags() {
	[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
	case ${VARIANT:-} in
	stock*) diag "stock 7.3 has no per-tag flags"; exit 2 ;;
	esac
}

# trouble: the oopses, BUGs and warnings the kernel logged since the test
# sourced this file (status 1 when there are none).
dmesg_base=$(dmesg | wc -l)
trouble() {
	dmesg | tail -n +$((dmesg_base + 1)) |
		grep -E 'Oops|(^|[^A-Z_])BUG[: ]|WARNING:|general protection fault|Call Trace'
}

# keys_off: what debugfs alloc_tag/keys reads with no tag flag and no
# nodes alias left: every key off but the page-flags form's free hook's.
untraced=0
[ "${FORM:-}" != flags ] || untraced=1
keys_off="ctl:0 capture:0 flags_untraced:$untraced flagged:0 captured:0 aliases:0"

# wait_for WHAT CMD...: up to 5 s for CMD to print WHAT (a worker's
# doing); prints what it printed last
wait_for() {
	_want=$1 _i=0
	shift
	while [ "$("$@")" != "$_want" ] && [ $_i -lt 25 ]; do sleep 0.2; _i=$((_i + 1)); done
	"$@"
}

# unloaded_ranges: the ranges of the module tag area held by unloaded
# modules (debugfs alloc_tag/module_area, debug option)
unloaded_ranges() {
	grep -c ' unloaded$' /sys/kernel/debug/alloc_tag/module_area 2>/dev/null || true
}

# kmalloc_size N: the bytes a kmalloc(N) object is counted at, its cache's
# slab_size: N's size class, or more where KASAN adds redzones.
kmalloc_size() {
	for _c in 8 16 32 64 96 128 192 256 512 1024 2048 4096 8192; do
		[ "$1" -gt $_c ] || break
	done
	case $_c in
	1024 | 2048 | 4096 | 8192) _n=$((_c / 1024))k ;;
	*) _n=$_c ;;
	esac
	cat /sys/kernel/slab/kmalloc-$_n/slab_size 2>/dev/null || echo $_c
}

# Tag counters of the allocinfo line whose tag info contains $1:
# prints "BYTES CALLS", or "0 0" when no line matches.
tag_counters() {
	awk -v want="$1" 'index($0, want) { b += $1; c += $2; n++ }
		END { printf "%d %d\n", b, c }' /proc/allocinfo
}

# ksft_results OUTPUT STATUS: a kselftest program's output and exit
# status, each of its results one of ours, its output as diagnostics.
# kselftest reports a skip as a failure in its exit status (any result but
# pass fails ksft_finished()), so the results are judged by their lines.
ksft_results() {
	_plan="" _results=0 _kfailed=0 _kskipped=0
	sed 's/^/# /' "$1"
	while IFS= read -r _line; do
		case $_line in
		1..*) _plan=${_line#1..}; _plan=${_plan%% *} ;;
		"not ok "*)
			_results=$((_results + 1)) _kfailed=$((_kfailed + 1))
			_rest=${_line#not ok }
			not_ok "${_rest#* }" ;;
		"ok "*"# SKIP"*)
			_results=$((_results + 1)) _kskipped=$((_kskipped + 1))
			_reason=${_line#*# SKIP}; _reason=${_reason# }
			_name=${_reason#Skipping }
			skip "${_name:-selftest result $_results}" "$_reason" ;;
		"ok "*)
			_results=$((_results + 1))
			_rest=${_line#ok }
			ok "${_rest#* }" ;;
		esac
	done <"$1"
	check_eq "selftest gave every planned result" "${_plan:-none}" "$_results"
	check "selftest printed its totals (it did not die)" grep -q '^# Totals: ' "$1"
	# Exit 0 is a clean pass; 1 is expected only when a result was a skip.
	diag "selftest exit status: $2"
	if [ "$2" = 0 ] || { [ "$2" = 1 ] && [ $_kskipped -gt 0 ] && [ $_kfailed = 0 ]; }; then
		ok "selftest exit status agrees with its results"
	else
		not_ok "selftest exit status agrees with its results"
	fi
}

# run_selftest NAME: run the kselftest allocinfo_NAME_test (built static
# into the initramfs from the variant's source), each of its results one of
# ours; a kernel source without it skips the whole test.
run_selftest() {
	_prog=/guest/progs/allocinfo_$1_test
	[ -x $_prog ] || { diag "no $_prog (the kernel source has no such selftest)"; exit 2; }
	_rc=0
	$_prog >/tmp/$1.out 2>&1 || _rc=$?
	ksft_results /tmp/$1.out $_rc
}

# move_field WORD STAGE: WORD's value in the STAGE line of movepages'
# output, kept in /tmp/move.out
move_field() { sed -n "s/^$2 .*$1:\([-0-9]*\).*/\1/p" /tmp/move.out; }
