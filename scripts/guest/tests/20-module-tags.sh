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
bulk=func:alloctest_bulk
echo "bulk 16" >$ctl
check_eq "alloc_pages_bulk() x16: 16 pages, one call each" \
	"$((16 * 4096)) 16" "$(tag_counters $bulk)"
# __free_pages() with a second reference held frees the tail pages and
# uncounts them from the first page's tag; the last put frees the first.
shared=func:alloctest_shared
echo "shared 2 3" >$ctl
check_eq "order-2 x3 freed while shared: tails uncounted, first pages held" \
	"$((3 * 4096)) 3" "$(tag_counters $shared)"
# vmalloc(): its pages come from alloc_pages_bulk() and go back through
# vfree()'s free_pages_bulk(), which may uncount a run of them at once;
# its page array is counted on the same line.
vm=func:alloctest_vmalloc
echo "vmalloc 16 3" >$ctl
set -- $(tag_counters $vm)
check "vmalloc(16 pages) x3: at least 48 pages and calls counted" \
	test "$1" -ge $((3 * 16 * 4096)) -a "$2" -ge 48
# In objects of each cache (and what is left over), calls: the same in
# every form, though KASAN's redzones make the objects larger.
k64=$(kmalloc_size 64) k512=$(kmalloc_size 512)
echo "kmalloc 64 100" >$ctl
set -- $(tag_counters $objs)
check_eq "kmalloc(64) x100 counted: objects, rest, calls" "100 0 100" \
	"$(($1 / k64)) $(($1 % k64)) $2"
echo "kmalloc 512 10" >$ctl
set -- $(tag_counters $objs)
check_eq "kmalloc(512) x10 counted: objects, rest, calls" "10 0 110" \
	"$((($1 - 100 * k64) / k512)) $((($1 - 100 * k64) % k512)) $2"
echo free >$ctl
check_eq "page tag back to zero after free" "0 0" "$(tag_counters $pages)"
check_eq "slab tag back to zero after free" "0 0" "$(tag_counters $objs)"
check_eq "split tag back to zero after free" "0 0" "$(tag_counters $split)"
check_eq "bulk tag back to zero after free" "0 0" "$(tag_counters $bulk)"
check_eq "shared tag back to zero after the last put" "0 0" "$(tag_counters $shared)"
check_eq "vmalloc tag back to zero after vfree()" "0 0" "$(tag_counters $vm)"
check "unload alloctest" rmmod alloctest
check "module tags gone after unload" sh -c "! grep -q '\[alloctest\]' /proc/allocinfo"
ktap_done
