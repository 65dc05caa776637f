# Module ranges in the compact forms: a module unloaded with live pages
# leaves retired tag lines that drain when another module frees the pages,
# its range is then reused; 200 load/unload cycles leave nothing behind;
# a module that finds no room counts its pages on the overflow line.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
ref=$(cut -d' ' -f1 /proc/sys/vm/mem_profiling_ref 2>/dev/null || echo pointer)
case $ref in
compact|compact-ext) ;;
*) diag "$ref references have no module ranges"; exit 2 ;;
esac
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
ranges=/sys/kernel/debug/alloc_tag_ranges
pages=func:alloctest_pages
base_of() { awk -v m="$1" '$3 == m { print $1 }' $ranges; }

check "load tagkeep and alloctest" sh -c \
	"insmod /modules/tagkeep.ko && insmod /modules/alloctest.ko"
base=$(base_of alloctest)
diag "alloctest range: $(grep alloctest $ranges || true)"
check "alloctest has an index range" test -n "$base"

echo "pages 0 8" >$ctl
echo "pages 2 2" >$ctl
check_eq "10 pages held" "65536 10" "$(tag_counters "[alloctest] $pages")"
check "pages handed to tagkeep" sh -c "echo stash >$ctl"
check "unload alloctest with its pages alive" rmmod alloctest
check_eq "retired line keeps the counts" "65536 10" \
	"$(tag_counters "[alloctest(unloaded)] $pages")"
check "dmesg says the tag was retired" \
	sh -c "dmesg | grep -q 'alloctest_pages has 65536 allocated at module unload: tag retired'"
check_eq "range kept for the retired tags" "alloctest(unloaded)" \
	"$(awk -v b="$base" '$1 == b { print $3 }' $ranges)"
check "free the pages from tagkeep" sh -c "echo free >$keep"
check_eq "retired lines drained and gone" "0" \
	"$(grep -c 'alloctest(unloaded)' /proc/allocinfo || true)"
check_eq "range released" "" "$(awk -v b="$base" '$1 == b' $ranges)"
check "reload alloctest" insmod /modules/alloctest.ko
check_eq "released range reused" "$base" "$(base_of alloctest)"
check "unload alloctest and tagkeep" sh -c "rmmod alloctest && rmmod tagkeep"

i=0
while [ $i -lt 200 ]; do
	insmod /modules/alloctest.ko || break
	echo "pages $((i % 4)) 1" >$ctl || break
	rmmod alloctest || break
	i=$((i + 1))
done
check_eq "200 load/unload cycles" 200 $i
check_eq "no range left behind" "" "$(cat $ranges)"
check_eq "no alloctest line left" 0 "$(grep -c alloctest /proc/allocinfo || true)"

# Exhaustion: with no indices for modules, alloctest's pages are counted
# on the overflow line and nowhere else.
param=/sys/module/alloc_tag/parameters/module_indices
ovf=func:alloc_tag_index_overflow
saved=$(cat $param)
echo 0 >$param
before=$(tag_counters $ovf)
check "load alloctest with no room" insmod /modules/alloctest.ko
check_eq "no range given" "" "$(base_of alloctest)"
check "one-time warning" \
	sh -c "dmesg | grep -q 'no room for .* tags of alloctest'"
echo "pages 1 3" >$ctl
set -- $before
check_eq "pages counted on the overflow line" \
	"$(($1 + 3 * 8192)) $(($2 + 3))" "$(tag_counters $ovf)"
check_eq "and not on the module's line" "0 0" "$(tag_counters "[alloctest] $pages")"
echo free >$ctl
check_eq "overflow line back to its baseline" "$before" "$(tag_counters $ovf)"
check "unload alloctest" rmmod alloctest
echo "$saved" >$param
ktap_done
