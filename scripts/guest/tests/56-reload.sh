# Load and unload a module over and over while its last page is freed
# around the unload, /proc/allocinfo is read and drained unloaded modules
# are reclaimed (by each load, and by a worker every second) at the same
# time: no range of the module tag area may be left without an owner
# (debugfs alloc_tag/module_area), and the loads must never run out of
# room.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
area=/sys/kernel/debug/alloc_tag/module_area
[ -r $area ] || { diag "no $area (debug option off)"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
rounds=${RELOAD_ROUNDS:-150}

# Ranges held by no module that is loaded, nor listed as unloaded.
orphans() {
	while read -r range name; do
		case $name in
		padding|unloaded) ;;
		*) grep -q "^$name " /proc/modules || echo "$range $name" ;;
		esac
	done <$area
}

check "load tagkeep" insmod /modules/tagkeep.ko
# Read /proc/allocinfo in a loop meanwhile.
(while [ ! -e /tmp/reload.done ]; do cat /proc/allocinfo >/dev/null; done) &
reader=$!
i=0
while [ $i -lt $rounds ]; do
	insmod /modules/alloctest.ko || break
	echo "pages $((i % 3)) 1" >$ctl || break
	echo stash >$ctl || break
	# The page is freed while the module goes: before, during or after.
	case $((i % 3)) in
	0) echo free >$keep; rmmod alloctest || break ;;
	1) (echo free >$keep) & rmmod alloctest || break; wait $! ;;
	2) rmmod alloctest || break; echo free >$keep ;;
	esac
	i=$((i + 1))
done
touch /tmp/reload.done
wait $reader || true
check_eq "$rounds load/unload rounds" "$rounds" $i
# The worker reaps the last module within a second of its last free.
left=$(wait_for 0 unloaded_ranges)
sed 's/^/# module_area: /' $area
check_eq "no range unloaded once every page is freed" 0 "$left"
check_eq "no range left without an owner" "" "$(orphans)"
check_eq "no alloctest line left" 0 "$(grep -cF '[alloctest]' /proc/allocinfo || true)"
check "unload tagkeep" rmmod tagkeep
ktap_done
