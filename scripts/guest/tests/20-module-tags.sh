# A module's call sites show up in /proc/allocinfo with exact byte and call
# deltas while their allocations are held, and drain to zero when freed.
set -eu
. /guest/ktap.sh
ctl=/sys/kernel/debug/alloctest/ctl
check "load alloctest" insmod /modules/alloctest.ko
check "control file present" test -w $ctl

if [ ! -e /proc/allocinfo ]; then
	check "allocations work without profiling" sh -c "echo 'pages 0 8' >$ctl"
	check "free works without profiling" sh -c "echo free >$ctl"
	check "unload alloctest" rmmod alloctest
	ktap_done; exit
fi

pages=func:alloctest_pages
objs=func:alloctest_kmalloc
check_eq "page tag starts at zero" "0 0" "$(tag_counters $pages)"
check "page tag names the module" grep -q "\[alloctest\] $pages" /proc/allocinfo
k=5
for order in 0 1 2 3; do
	before=$(tag_counters $pages)
	echo "pages $order $k" >$ctl
	set -- $before
	check_eq "order-$order: $k allocations counted" \
		"$(($1 + k * 4096 * (1 << order))) $(($2 + k))" "$(tag_counters $pages)"
done
split=func:alloctest_split
echo "split 2 3" >$ctl
check_eq "split order-2 x3: 12 order-0 pages, one call each" \
	"$((3 * 16384)) 12" "$(tag_counters $split)"
echo "kmalloc 64 100" >$ctl
check_eq "kmalloc(64) x100 counted" "6400 100" "$(tag_counters $objs)"
echo "kmalloc 512 10" >$ctl
check_eq "kmalloc(512) x10 counted" "$((6400 + 5120)) 110" "$(tag_counters $objs)"
echo free >$ctl
check_eq "page tag back to zero after free" "0 0" "$(tag_counters $pages)"
check_eq "slab tag back to zero after free" "0 0" "$(tag_counters $objs)"
check_eq "split tag back to zero after free" "0 0" "$(tag_counters $split)"
check "unload alloctest" rmmod alloctest
check "module tags gone after unload" sh -c "! grep -q '\[alloctest\]' /proc/allocinfo"
ktap_done
