# Memory hot-remove: a QEMU pc-dimm (boot.sh -d), announced through ACPI
# and left offline at boot, is onlined movable, filled, offlined and
# ejected.  Removing it frees the memory map that hot-add allocated for it
# (a high-order block that is not compound: ___free_pages() uncounts and
# frees its tail pages one by one), so it is the path on which a page once
# entered the buddy allocator with a stale tag index.  Then pages of every
# order are allocated and freed: no line may go negative, and the debug
# checks (check_new_page() looks at the index field) must stay quiet.
# Where the DIMM is a NUMA node of its own and the kernel counts by node,
# a process's pages moved there must take their count to the other nodes
# when it goes offline.
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
# Pages present in ZONE_MOVABLE, over every node
movable_present() {
	awk '/^Node/ { m = /zone *Movable/ } m && $1 == "present" { n += $2; m = 0 }
		END { print n + 0 }' /proc/zoneinfo
}
check_eq "the DIMM's blocks come up offline" "offline " "$(state)"
check "online them movable" set_state online_movable
check_eq "they are online" "online " "$(state)"
check_eq "ZONE_MOVABLE has the DIMM's pages" \
	$(( $(echo $blocks | wc -w) * $(printf %d 0x$(cat $mem/block_size_bytes)) / 4096 )) \
	"$(movable_present)"

# With the DIMM a NUMA node of its own (boot.sh -N and -d), a process
# moves 64 anonymous pages onto it, so that offlining has pages to
# migrate off the node (other nodes' memory fills first).  Where the
# kernel counts by node (78-nodes), those pages are counted by node, and
# their count must leave with them: the node goes offline, none is lost.
first=$(echo $blocks | cut -d' ' -f1)
dnode=$(ls -d $mem/$first/node[0-9]* 2>/dev/null | sed 's/.*node//' | head -1)
at=/guest/progs/alloctop
anon=folio_prealloc
mover="" counted=""
if [ -n "$dnode" ] && [ "$dnode" != 0 ] && [ -x /guest/progs/movepages ]; then
	if [ -x $at ] && $at -S nodes -f $anon >/dev/null 2>&1; then
		counted=1
	fi
	/guest/progs/movepages $anon 64 "$dnode" >/tmp/move.out 2>&1 &
	mover=$!
	# It stops itself once its pages are on the DIMM's node.  Waited for
	# with builtins only: no other process may free counted pages
	# between its two reads.
	i=0
	while [ $i -lt 200000 ]; do
		read -r st </proc/$mover/stat || break
		set -- $st
		[ "$3" != T ] || break
		i=$((i + 1))
	done
fi

# Fill memory with anonymous pages, movable: where the DIMM joined a node
# with other memory, some land on it and offlining has to migrate them.
/guest/progs/memfill 384 >/tmp/memfill.out 2>&1 &
fill=$!
sleep 2
check "offline the DIMM with user pages on it" set_state offline
check_eq "its blocks are offline" "offline " "$(state)"
kill $fill 2>/dev/null || true
wait $fill 2>/dev/null || true
if [ -n "$mover" ]; then
	kill -CONT $mover
	wait $mover || true
	sed 's/^/# /' /tmp/move.out
	check_eq "64 pages were on the DIMM's node $dnode" "moved 64" "$(grep '^moved' /tmp/move.out)"
	if [ -n "$counted" ]; then
		check "node $dnode counted them" test "$(move_field node${dnode}_bytes before)" -ge $((64 * 4096))
		# (an empty node with nothing counted has no words: 0)
		gone=$(move_field node${dnode}_bytes after)
		check_eq "offline, node $dnode counts nothing" 0 "${gone:-0}"
		check "the other nodes took its count: none lost" \
			test "$(move_field sum after)" -ge "$(move_field sum before)"
		$at -C nodes -f $anon >/dev/null
	else
		skip "a counted node going offline" "no counts by node in this kernel"
	fi
else
	skip "a counted node going offline" "the DIMM is not a NUMA node of its own"
fi

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
