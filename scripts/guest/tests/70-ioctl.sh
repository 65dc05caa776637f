# Upstream's kselftest of the /proc/allocinfo ioctls
# (tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c, built static by
# mkinitramfs.sh from the variant's source).  It takes no arguments and
# needs no module: it compares what the ioctls return, filtered by file
# (mm/memory.c), function (dup_mm, do_init_module) and line, against
# /proc/allocinfo, which only root may open.  Each of its results becomes
# one of ours; its whole output is shown as diagnostics.
set -eu
. /guest/ktap.sh
prog=/guest/progs/allocinfo_ioctl_test
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ -x $prog ] || { diag "no $prog (the kernel source has no such selftest)"; exit 2; }
[ "$(id -u)" = 0 ] || { diag "the selftest must run as root"; exit 2; }

rc=0
$prog >/tmp/ioctl.out 2>&1 || rc=$?
sed 's/^/# /' /tmp/ioctl.out
# kselftest reports a skip as a failure in its exit status (any result
# but pass fails ksft_finished()), so judge by its result lines instead.
plan="" results=0 failed=0 skipped=0
while IFS= read -r line; do
	case $line in
	1..*) plan=${line#1..}; plan=${plan%% *} ;;
	"not ok "*)
		results=$((results + 1)) failed=$((failed + 1))
		rest=${line#not ok }
		not_ok "${rest#* }" ;;
	"ok "*"# SKIP"*)
		results=$((results + 1)) skipped=$((skipped + 1))
		reason=${line#*# SKIP}; reason=${reason# }
		name=${reason#Skipping }
		skip "${name:-selftest result $results}" "$reason" ;;
	"ok "*)
		results=$((results + 1))
		rest=${line#ok }
		ok "${rest#* }" ;;
	esac
done </tmp/ioctl.out
check_eq "selftest gave every planned result" "${plan:-none}" "$results"
check "selftest printed its totals (it did not die)" grep -q '^# Totals: ' /tmp/ioctl.out
# Exit 0 is a clean pass; 1 is expected only when a result was a skip.
diag "selftest exit status: $rc"
if [ $rc = 0 ] || { [ $rc = 1 ] && [ $skipped -gt 0 ] && [ $failed = 0 ]; }; then
	ok "selftest exit status agrees with its results"
else
	not_ok "selftest exit status agrees with its results"
fi
ktap_done
