# A module whose tag section is aligned off the tag size (tagalign.ko: one
# tag at 64 bytes) cannot always have its tags numbered by their place in
# the module tag area: placed off the grid of whole tags (here after
# alloctest), they take the overflow line's index.  In every form it loads
# with profiling on; where pages keep an index, an overflowed tag's page is
# counted on the overflow line, otherwise on the module's own line; both
# unload cleanly.
set -eu
. /guest/ktap.sh
need_tag_flags
overflow=func:module_tags_overflow
add() { echo "$1 $2" | awk '{ print $1 + $3, $2 + $4 }'; }

before=$(tag_counters $overflow)
check "load alloctest" insmod /modules/alloctest.ko
check "load tagalign after it (tag section aligned to 64 bytes)" insmod /modules/tagalign.ko
check_eq "profiling stays on" 1 "$(cat /proc/sys/vm/mem_profiling)"
check "/proc/allocinfo is still there" test -r /proc/allocinfo
if dmesg | grep -q 'tagalign: no room for 1 allocation tag indexes'; then
	diag "tagalign's tag is off the grid: it takes the overflow line's index"
	over=yes
else
	diag "tagalign's tag landed on the grid: it has an index of its own"
	over=no
fi
case ${FORM:-}:$over in
flags:yes|page_ext:yes)
	check_eq "its page counts on the overflow line" "$(add "$before" "4096 1")" \
		"$(tag_counters $overflow)"
	check_eq "and not on its own line" "0 0" "$(tag_counters "[tagalign]")"
	;;
*)
	check_eq "its page counts on its own line" "4096 1" "$(tag_counters "[tagalign]")"
	check_eq "and not on the overflow line" "$before" "$(tag_counters $overflow)"
	;;
esac
check "unload tagalign and alloctest" sh -c "rmmod tagalign && rmmod alloctest"
check_eq "the overflow line is back where it was" "$before" "$(tag_counters $overflow)"
check_eq "no oops, BUG or warning" "" "$(trouble || true)"
ktap_done
