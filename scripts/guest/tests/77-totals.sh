# What each tag allocated since boot (CONFIG_MEM_ALLOC_PROFILING_TOTALS):
# in /proc/allocinfo only while vm.mem_profiling_totals is 1, through the
# ioctl's _EXT commands always; exact for pages, bulk pages and slab
# objects allocated and freed in rounds, never below what is live, and
# from zero again for a module loaded anew.  A kernel without the totals
# (or stock 7.3, without the commands) gives alloctop empty columns.  The
# series' kselftest for it runs first on a kernel with the option.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
at=/guest/progs/alloctop
[ -x $at ] || { diag "no $at (the kernel source has no tools/mm/alloctop.c)"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
s=/proc/sys/vm/mem_profiling_totals
# csv_totals FUNCTION: alloctop -c's totals columns (17, 18) for
# alloctest's site in FUNCTION
csv_totals() { $at -c -n 1 -l 0 -m alloctest | awk -F, -v f="\"$1\"" '$12 == f { print $17 "," $18 }'; }

# A kernel without the option has no selftest for it either
[ -e $s ] && run_selftest totals

check "load alloctest" insmod /modules/alloctest.ko
if [ ! -e $s ]; then
	echo "pages 0 2" >$ctl
	check_eq "no totals: alloctop's columns are empty" "," \
		"$(csv_totals alloctest_pages)"
	check_eq "and the text has none" "" "$(grep -m1 ' total_bytes:' /proc/allocinfo || true)"
	echo free >$ctl
	check "unload alloctest" rmmod alloctest
	ktap_done
	exit
fi

check_eq "off by default" 0 "$(cat $s)"
check_eq "the text is as without the totals" "" "$(grep -m1 ' total_bytes:' /proc/allocinfo || true)"
check "vm.mem_profiling_totals takes 0 or 1 only" sh -c "! echo 2 >$s 2>/dev/null"
echo 1 >$s
sites=$(awk 'NR > 2 && / func:/' /proc/allocinfo | wc -l)
check_eq "with it, every line ends with its totals" "$sites" \
	"$(grep -c ' total_bytes:[0-9]* total_calls:[0-9]* $' /proc/allocinfo)"
# totals NAME: "BYTES CALLS" allocated at the sites of func:NAME, summed
# as tag_counters sums what they hold
totals() {
	grep -F " func:$1 " /proc/allocinfo |
		sed -n 's/.* total_bytes:\([0-9]*\) total_calls:\([0-9]*\).*/\1 \2/p' |
		awk '{ b += $1; c += $2 } END { printf "%d %d\n", b, c }'
}
check_eq "alloctest's sites start at zero" "0 0 0 0" \
	"$(totals alloctest_pages) $(totals alloctest_kmalloc)"

for i in 1 2 3 4 5 6 7 8 9 10; do
	echo "pages 0 8" >$ctl
	echo "kmalloc 64 5" >$ctl
	echo "bulk 16" >$ctl
	echo free >$ctl
done
echo "pages 2 3" >$ctl
check_eq "pages: 80 order-0 and 3 order-2 allocated" "$((80 * 4096 + 3 * 16384)) 83" \
	"$(totals alloctest_pages)"
check_eq "pages: the three live" "$((3 * 16384)) 3" "$(tag_counters func:alloctest_pages)"
check_eq "slab: 50 objects allocated, none live" "$((50 * 64)) 50 0 0" \
	"$(totals alloctest_kmalloc) $(tag_counters func:alloctest_kmalloc)"
# (and the array of 16 page pointers alloctest_bulk() allocates each time)
check_eq "bulk: 160 pages allocated, none live" "$((160 * 4096 + 10 * 128)) 170 0 0" \
	"$(totals alloctest_bulk) $(tag_counters func:alloctest_bulk)"
check_eq "the ioctl gives the text's totals" "$((80 * 4096 + 3 * 16384)),83" \
	"$(csv_totals alloctest_pages)"
check_eq "no line holds more than it allocated" "" \
	"$(awk 'NR > 2 && / total_calls:/ {
		for (i = 3; i <= NF; i++) {
			if ($i ~ /^total_bytes:/) tb = substr($i, 13)
			if ($i ~ /^total_calls:/) tc = substr($i, 13)
		}
		if ($2 > tc + 0 || ($1 > 0 && $1 > tb + 0)) print
	}' /proc/allocinfo)"
echo free >$ctl

echo 0 >$s
check_eq "back to 0: the text as without the totals" "" \
	"$(grep -m1 ' total_bytes:' /proc/allocinfo || true)"
check "unload alloctest" rmmod alloctest
check "load it again" insmod /modules/alloctest.ko
echo 1 >$s
check_eq "a module loaded anew counts from zero" "0 0" "$(totals alloctest_pages)"
echo 0 >$s
check "unload alloctest" rmmod alloctest
t=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$t"
ktap_done
