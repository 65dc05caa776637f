# A module unloaded while its pages live: the pages are freed later through
# another module and the counts drain; repeated load/unload with live pages
# leaves no lines behind and never runs out of module tag memory.
# On the fork, the unloaded module's lines stay listed, in /proc/allocinfo
# and in the ioctl, marked " unloaded:yes", until their pages are freed;
# stock 7.3 hides them at once (checked too, as upstream's behaviour).
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
case ${VARIANT:-} in stock*) fork=no ;; *) fork=yes ;; esac
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
pages=func:alloctest_pages
lines() { grep -F '[alloctest]' /proc/allocinfo || true; }
# The tag part of alloctest's lines (counters and our suffix dropped).
names() { lines | sed 's/ unloaded:yes//' | awk '{ $1 = $2 = ""; print }'; }
# Pages freed, the lines go within a few seconds (a worker reaps them).
wait_gone() {
	_i=0
	while [ -n "$(lines)" ] && [ $_i -lt 10 ]; do sleep 1; _i=$((_i + 1)); done
}

check "load tagkeep and alloctest" sh -c \
	"insmod /modules/tagkeep.ko && insmod /modules/alloctest.ko"
echo "pages 0 8" >$ctl
echo "pages 2 2" >$ctl
check_eq "10 pages held" "65536 10" "$(tag_counters "[alloctest] $pages")"
check "pages handed to tagkeep" sh -c "echo stash >$ctl"
names >/tmp/names.before
check "unload alloctest with its pages alive" rmmod alloctest
check "dmesg names the live tag at unload" \
	sh -c "dmesg | grep -q 'func:alloctest_pages has 65536 allocated at module unload'"
if [ $fork = yes ]; then
	check_eq "its page line stays listed, marked unloaded:yes" "65536 10" \
		"$(tag_counters "[alloctest] $pages unloaded:yes")"
	check_eq "every alloctest line is marked unloaded:yes" 0 \
		"$(lines | grep -vc ' unloaded:yes ' || true)"
	names >/tmp/names.after
	check "the lines keep their file, line and function names" \
		cmp -s /tmp/names.before /tmp/names.after
	/guest/progs/allocinfo-mod alloctest >/tmp/ioctl.out
	sed 's/^/# ioctl: /' /tmp/ioctl.out
	check_eq "the ioctl lists it too, with unloaded set" "65536 10 unloaded:1" \
		"$(awk '$1 == "alloctest_pages" { print $3, $4, $6 }' /tmp/ioctl.out)"
	# The kselftest's walk of every line against every ioctl entry, run
	# while the unloaded lines are there to compare.
	st=/guest/progs/allocinfo_ioctl_test
	if [ -x $st ]; then
		$st >/tmp/selftest.out 2>&1 || true
		grep 'test_counter_flags\|unloaded:yes$' /tmp/selftest.out | sed 's/^/# selftest: /'
		check "the selftest's accurate and unloaded bytes agree with the lines" \
			grep -q '^ok [0-9]* test_counter_flags' /tmp/selftest.out
		check "and it compared unloaded lines" \
			grep -q ', [1-9][0-9]* unloaded:yes$' /tmp/selftest.out
	else
		skip "the selftest's counter flags" "no $st"
	fi
else
	check_eq "stock hides the unloaded module's lines" "" "$(lines)"
fi
check "free the pages from tagkeep" sh -c "echo free >$keep"
wait_gone
check_eq "no alloctest line left" 0 "$(lines | wc -l)"
check_eq "nor in the ioctl" "" "$(/guest/progs/allocinfo-mod alloctest)"

i=0
while [ $i -lt 200 ]; do
	insmod /modules/alloctest.ko || break
	echo "pages $((i % 4)) 1" >$ctl || break
	echo stash >$ctl || break
	rmmod alloctest || break
	i=$((i + 1))
done
check_eq "200 load/unload cycles with live pages" 200 $i
# Orders 0..3 in turn, 50 pages of each: 50 * (1 + 2 + 4 + 8) * 4096 bytes.
if [ $fork = yes ]; then
	check_eq "all 200 unloaded instances listed with their pages" "3072000 200" \
		"$(tag_counters "[alloctest] $pages unloaded:yes")"
fi
check "free them all from tagkeep" sh -c "echo free >$keep"
wait_gone
check_eq "their lines go once the pages are freed" 0 "$(lines | wc -l)"
check "load again after the drain" insmod /modules/alloctest.ko
echo "pages 0 1" >$ctl
check_eq "the new instance counts from zero" "4096 1" "$(tag_counters "[alloctest] $pages")"
echo free >$ctl
check "unload alloctest and tagkeep" sh -c "rmmod alloctest && rmmod tagkeep"
check_eq "no alloctest line left" 0 "$(lines | wc -l)"
check_eq "nothing was counted on the overflow line" "0 0" \
	"$(tag_counters func:module_tags_overflow)"
ktap_done
