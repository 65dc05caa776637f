# A module unloaded while its pages live: the pages are freed later through
# another module and the counts drain; repeated load/unload with live pages
# leaves no lines behind and never runs out of module tag memory.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
pages=func:alloctest_pages

check "load tagkeep and alloctest" sh -c \
	"insmod /modules/tagkeep.ko && insmod /modules/alloctest.ko"
echo "pages 0 8" >$ctl
echo "pages 2 2" >$ctl
check_eq "10 pages held" "65536 10" "$(tag_counters "[alloctest] $pages")"
check "pages handed to tagkeep" sh -c "echo stash >$ctl"
check "unload alloctest with its pages alive" rmmod alloctest
check "dmesg names the live tag at unload" \
	sh -c "dmesg | grep -q 'func:alloctest_pages has 65536 allocated at module unload'"
skip "unloaded module's lines stay listed with a suffix" "not yet on 7.3"
check "free the pages from tagkeep" sh -c "echo free >$keep"
check_eq "no alloctest line left" 0 "$(grep -c alloctest /proc/allocinfo || true)"

i=0
while [ $i -lt 200 ]; do
	insmod /modules/alloctest.ko || break
	echo "pages $((i % 4)) 1" >$ctl || break
	echo stash >$ctl || break
	rmmod alloctest || break
	i=$((i + 1))
done
check_eq "200 load/unload cycles with live pages" 200 $i
check "free them all from tagkeep" sh -c "echo free >$keep"
check "load again after the drain" insmod /modules/alloctest.ko
echo "pages 0 1" >$ctl
check_eq "the new instance counts from zero" "4096 1" "$(tag_counters "[alloctest] $pages")"
echo free >$ctl
check "unload alloctest and tagkeep" sh -c "rmmod alloctest && rmmod tagkeep"
check_eq "no alloctest line left" 0 "$(grep -c alloctest /proc/allocinfo || true)"
ktap_done
