# Memory hot-remove: a QEMU pc-dimm (boot.sh -d), announced through ACPI
# and left offline at boot, is onlined movable, filled, offlined and
# ejected.  Removing it frees the memory map that hot-add allocated for it
# (a high-order block that is not compound: ___free_pages() uncounts and
# frees its tail pages one by one), so it is the path on which a page once
# entered the buddy allocator with a stale tag index.  Then pages of every
# order are allocated and freed: no line may go negative, and the debug
# checks (check_new_page() looks at the index field) must stay quiet.
# Skipped without ACPI memory hotplug in the kernel or a DIMM in QEMU.
set -eu
. /guest/ktap.sh
mem=/sys/devices/system/memory
dimm=$(ls -d /sys/bus/acpi/devices/PNP0C80:* 2>/dev/null | head -1 || true)
[ -n "$dimm" ] || { diag "no ACPI memory device (kernel without ACPI_HOTPLUG_MEMORY, or no pc-dimm)"; exit 2; }
# The DIMM's blocks: the memory blocks bound to its ACPI device.
blocks=$(for l in "$dimm"/physical_node*; do basename "$(readlink -f "$l")"; done | grep '^memory' | tr '\n' ' ' || true)
[ -n "$blocks" ] || { diag "$dimm has no memory blocks"; exit 2; }
diag "dimm $dimm: $(echo $blocks | wc -w) block(s) of $(( $(printf %d 0x$(cat $mem/block_size_bytes)) >> 20 )) MiB"
state() { for b in $blocks; do cat $mem/$b/state; done | sort -u | tr '\n' ' '; }
set_state() { for b in $blocks; do echo "$1" >$mem/$b/state || return 1; done; }
movable_present() { awk '/zone *Movable/ { m = 1 } m && $1 == "present" { print $2; exit }' /proc/zoneinfo; }
check_eq "the DIMM's blocks come up offline" "offline " "$(state)"
check "online them movable" set_state online_movable
check_eq "they are online" "online " "$(state)"
check_eq "ZONE_MOVABLE has the DIMM's pages" \
	$(( $(echo $blocks | wc -w) * $(printf %d 0x$(cat $mem/block_size_bytes)) / 4096 )) \
	"$(movable_present)"

# Fill memory with anonymous pages, movable, so that some land on the
# DIMM and offlining has to migrate them.
/guest/progs/memfill 384 >/tmp/memfill.out 2>&1 &
fill=$!
sleep 2
check "offline the DIMM with user pages on it" set_state offline
check_eq "its blocks are offline" "offline " "$(state)"
kill $fill 2>/dev/null || true
wait $fill 2>/dev/null || true
check "eject it" sh -c "echo 1 >$dimm/eject"
# The eject removes the blocks one after another: wait for the last.
left() { for b in $blocks; do [ ! -e $mem/$b ] || echo $b; done; }
i=0
while [ -n "$(left)" ] && [ $i -lt 20 ]; do sleep 1; i=$((i + 1)); done
check_eq "its memory blocks are gone" "" "$(left)"

if [ -e /proc/allocinfo ]; then
	ctl=/sys/kernel/debug/alloctest/ctl
	check "load alloctest" insmod /modules/alloctest.ko
	check "allocate and free pages of orders 0 to 3 on every vCPU" \
		sh -c "echo 'stress 20000' >$ctl"
	check_eq "the stress tag is back to zero" "0 0" "$(tag_counters func:alloctest_stress)"
	check "unload alloctest" rmmod alloctest
	check_eq "no line went negative" "" \
		"$(awk 'NR > 2 && ($1 < 0 || $2 < 0 || $2 > 1e15)' /proc/allocinfo)"
fi
check_eq "no warning or bad page since boot" "" \
	"$(dmesg | grep -E 'WARNING:|BUG:|Bad page|bad page' || true)"
ktap_done
