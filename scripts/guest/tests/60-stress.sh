# Allocation and free at orders 0 to 3 from every vCPU at once, at one
# call site: the tag ends where it started (90-dmesg then checks that the
# debug build raised no warning).
set -eu
. /guest/ktap.sh
ctl=/sys/kernel/debug/alloctest/ctl
check "load alloctest" insmod /modules/alloctest.ko
cpus=$(grep -c '^processor' /proc/cpuinfo)
diag "$cpus vCPUs"
check "stress on every vCPU" sh -c "echo 'stress 20000' >$ctl"
if [ -e /proc/allocinfo ]; then
	check_eq "stress tag back to zero" "0 0" "$(tag_counters func:alloctest_stress)"
	calls=$(awk '/func:alloctest_stress/ { print $2 }' /proc/allocinfo)
	check "stress tag listed" test -n "$calls"
fi
check "unload alloctest" rmmod alloctest
ktap_done
