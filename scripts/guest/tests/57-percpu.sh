# A module's per-cpu areas (alloc_percpu()) are either counted on its line
# or the line says it is not accurate: never a live allocation shown as
# nothing.  Stock 7.3 counts no area that the first chunk serves and says
# nothing, so stock variants skip this.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
case ${VARIANT:-} in
stock*)
	diag "stock 7.3 leaves first-chunk per-cpu areas uncounted: not run on $VARIANT"
	exit 2 ;;
esac
ctl=/sys/kernel/debug/alloctest/ctl
site="[alloctest] func:alloctest_percpu"
check "load alloctest" insmod /modules/alloctest.ko
check "allocate 8 per-cpu areas of 64 bytes" sh -c "echo 'percpu 64 8' >$ctl"
line=$(grep -F "$site" /proc/allocinfo || true)
diag "line: $line"
counted=$(echo "$line" | awk '{ print ($1 > 0 && $2 > 0) ? "yes" : "no" }')
case $line in *" accurate:no"*) marked=yes ;; *) marked=no ;; esac
check "the areas are counted, or the line says accurate:no" \
	test "$counted" = yes -o "$marked" = yes
echo free >$ctl
check "unload alloctest" rmmod alloctest
ktap_done
