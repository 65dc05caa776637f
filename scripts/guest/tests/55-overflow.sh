# A module whose tags find no index (the debug limit on module indexes,
# debugfs alloc_tag/module_idx_limit, forces it): its pages carry the
# overflow line's index and are counted there, and so do its slab objects;
# each of its tags keeps flags of its own, but for capture, which its
# frees could not pair.  Unloaded with a live page and a
# live object, both freed later: every count goes back to where it was, no
# line goes negative, and the module's range of the tag area is given back
# at once, since none of its own lines holds anything.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
case ${FORM:-} in
flags|page_ext) ;;
*) diag "no indexes in the $FORM form"; exit 2 ;;
esac
dbg=/sys/kernel/debug/alloc_tag
[ -w $dbg/module_idx_limit ] || { diag "no $dbg/module_idx_limit (debug option off)"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
overflow=func:module_tags_overflow
at=/guest/progs/alloctop
lines() { grep -F '[alloctest]' /proc/allocinfo || true; }
add() { echo "$1 $2" | awk '{ print $1 + $3, $2 + $4 }'; }


before=$(tag_counters $overflow)
limit=$(cat $dbg/module_idx_limit)
check "load tagkeep" insmod /modules/tagkeep.ko
echo 2 >$dbg/module_idx_limit
check "load alloctest with no index left for it" insmod /modules/alloctest.ko
echo "$limit" >$dbg/module_idx_limit
check "dmesg names the module that overflowed" \
	sh -c "dmesg | grep -q 'alloctest: no room for .* allocation tag indexes'"
k128=$(kmalloc_size 128)
echo "pages 0 3" >$ctl
echo "kmalloc 128 5" >$ctl
check_eq "its pages and objects count on the overflow line" \
	"$(add "$before" "$((12288 + 5 * k128)) 8")" "$(tag_counters $overflow)"
check_eq "and not on its own page line" "0 0" \
	"$(tag_counters "[alloctest] func:alloctest_pages")"
check_eq "nor on its own object line" "0 0" \
	"$(tag_counters "[alloctest] func:alloctest_kmalloc")"
check "hand the pages and objects to tagkeep" sh -c "echo stash >$ctl"
# Its frees find only the overflow line's index: capture, which would
# trace its allocations and none of its frees, is refused.
check "alloctop -S capture on its tags: refused" \
	sh -c "$at -S capture -m alloctest 2>&1 | grep -q 'Invalid argument'"
check_eq "and no tag has it" 0 "$($at -b -n 1 -l 0 -m alloctest | grep -c ' capture:yes' || true)"
# Its tags share the overflow line's index, not their flags.
check_eq "alloctop -S off on one of its tags: one site" "alloctop: 1 site(s) changed" \
	"$($at -S off -m alloctest -f alloctest_kmalloc 2>&1)"
check_eq "that line alone says counted:no" "func:alloctest_kmalloc" \
	"$({ lines; grep -F $overflow /proc/allocinfo; } | grep ' counted:no' | grep -o 'func:[a-z_]*')"
echo "pages 0 1" >$ctl
echo "kmalloc 128 2" >$ctl
check_eq "its other page line still counts on the overflow line, the line that is off not" \
	"$(add "$before" "$((16384 + 5 * k128)) 9")" "$(tag_counters $overflow)"
check_eq "and the line that is off holds nothing of its own" "0 0" \
	"$(tag_counters "[alloctest] func:alloctest_kmalloc")"
echo free >$ctl
check_eq "alloctop -C off on it: one site" "alloctop: 1 site(s) changed" \
	"$($at -C off -m alloctest -f alloctest_kmalloc 2>&1)"
check "unload alloctest with a live page and object" rmmod alloctest
check_eq "no line of its own stays" 0 "$(lines | wc -l)"
check_eq "the overflow line still holds its pages and objects" \
	"$(add "$before" "$((12288 + 5 * k128)) 8")" "$(tag_counters $overflow)"
check_eq "its range of the tag area is given back" 0 \
	"$(grep -c ' unloaded$' $dbg/module_area || true)"
check "free the pages and objects from tagkeep" sh -c "echo free >$keep"
check_eq "the overflow line is back where it was" "$before" "$(tag_counters $overflow)"
check_eq "no alloctest line left" 0 "$(lines | wc -l)"
check_eq "no line went negative" "" "$(awk 'NR > 2 && ($1 < 0 || $2 < 0)' /proc/allocinfo)"
check_eq "no range of the tag area left unloaded" 0 \
	"$(grep -c ' unloaded$' $dbg/module_area || true)"
check "load alloctest again, with indexes" insmod /modules/alloctest.ko
echo "pages 0 1" >$ctl
check_eq "its page counts on its own line" "4096 1" \
	"$(tag_counters "[alloctest] func:alloctest_pages")"
echo free >$ctl
check "unload alloctest and tagkeep" sh -c "rmmod alloctest && rmmod tagkeep"
check_eq "no oops, BUG or warning" "" "$(trouble || true)"
ktap_done
