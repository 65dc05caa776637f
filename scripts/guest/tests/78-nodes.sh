# Counts by node (ALLOCINFO_TAG_NODES, alloctop -S nodes).  Set on
# alloctest's node sites before they allocate: pages and slab objects
# asked of each node show on that node, in bytes and calls, and the nodes
# add up to the line; freeing takes them back to zero.  Only flagged lines
# carry node words, alloctop shows them (OpenMetrics and Prometheus text:
# a sample a node), and clearing the flag removes them.  Migration between
# nodes (move_pages(2) on anonymous pages) moves the count and leaves the
# line as it was.  GET_NODES refuses a content id from before a module
# came and went (ESTALE); flagging more tags than slots are left is
# refused whole (ENOSPC).  Bad input: the flag with "off"
# (EINVAL), on a kernel without NUMA (EOPNOTSUPP), and set and cleared a
# thousand times without a per-cpu leak.  The flag keys no free, set or
# cleared with live pages; with capture too, frees are traced as the
# tag's.
set -eu
. /guest/ktap.sh
need_tag_flags
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl
check "load alloctest" insmod /modules/alloctest.ko

out=$($at -S nodes -m alloctest -f alloctest_pages_node 2>&1 || true)
case $out in
*"not supported"*)
	diag "no NUMA in this kernel: $out"
	check_eq "the flag is refused, and set on no tag" "" \
		"$(grep -F '[alloctest]' /proc/allocinfo | grep ' node0_bytes:' || true)"
	check "unload alloctest" rmmod alloctest
	ktap_done
	exit
	;;
esac
check_eq "alloctop -S nodes -m alloctest -f alloctest_pages_node" \
	"alloctop: 1 site(s) changed" "$out"
check_eq "alloctop -S nodes -f alloctest_kmalloc_node" \
	"alloctop: 1 site(s) changed" "$($at -S nodes -m alloctest -f alloctest_kmalloc_node 2>&1)"
# The nodes with memory (a list such as "0-1"; a hot-removed DIMM's node
# is gone from it): their number, and the highest
mem_nodes=$(cat /sys/devices/system/node/has_memory)
nodes=$(echo "$mem_nodes" | tr ',' '\n' | awk -F- '{ n += ($2 == "" ? 1 : $2 - $1 + 1) } END { print n }')
last=$(echo "$mem_nodes" | tr ',-' '\n\n' | sort -n | tail -1)
diag "$nodes node(s) with memory: $mem_nodes"
# node FUNCTION NID KIND: the line's nodeNID_KIND (bytes or calls), or -
node() {
	grep -F " func:$1 " /proc/allocinfo | tr ' ' '\n' |
		sed -n "s/^node$2_$3://p" | grep . || echo -
}
# nodesum FUNCTION: "BYTES CALLS" over the line's nodes
nodesum() {
	grep -F " func:$1 " /proc/allocinfo | tr ' ' '\n' | awk -F: '
		/^node[0-9]*_bytes:/ { b += $2 }
		/^node[0-9]*_calls:/ { c += $2 }
		END { printf "%d %d\n", b, c }'
}
check_eq "a flagged line has a word pair for each node" "$((2 * nodes))" \
	"$(grep -F ' func:alloctest_pages_node ' /proc/allocinfo | tr ' ' '\n' | grep -c '^node[0-9]*_')"
check_eq "no other line has any" 2 "$(grep -c ' node0_bytes:' /proc/allocinfo)"

echo "pagesnode 0 5" >$ctl
echo "kmallocnode 0 7" >$ctl
if [ $nodes -gt 1 ]; then
	echo "pagesnode $last 3" >$ctl
	echo "kmallocnode $last 2" >$ctl
fi
check_eq "pages on node 0: 5" "$((5 * 4096)) 5" \
	"$(node alloctest_pages_node 0 bytes) $(node alloctest_pages_node 0 calls)"
check_eq "objects on node 0: 7" "$((7 * $(kmalloc_size 64))) 7" \
	"$(node alloctest_kmalloc_node 0 bytes) $(node alloctest_kmalloc_node 0 calls)"
if [ $nodes -gt 1 ]; then
	check_eq "pages on node $last: 3" "$((3 * 4096)) 3" \
		"$(node alloctest_pages_node $last bytes) $(node alloctest_pages_node $last calls)"
	check_eq "objects on node $last: 2" "$((2 * $(kmalloc_size 64))) 2" \
		"$(node alloctest_kmalloc_node $last bytes) $(node alloctest_kmalloc_node $last calls)"
fi
for f in alloctest_pages_node alloctest_kmalloc_node; do
	check_eq "$f: the nodes add up to the line" "$(tag_counters "func:$f ")" "$(nodesum $f)"
done
check "alloctop shows node 0's count" \
	sh -c "$at -b -n 1 -l 0 -m alloctest -f alloctest_pages_node | grep -q ' node0_bytes:$((5 * 4096)) node0_calls:5'"
# The samples by node, from the ioctl and from the text alike; printed for
# the host in OpenMetrics and in the Prometheus text format, where
# scripts/tests/kernel/openmetrics.sh reads each with a parser of its format
for src in "" -t; do
	$at -o openmetrics -n 1 -l 0 $src -m alloctest -f alloctest_pages_node >/tmp/om.txt
	check_eq "OpenMetrics${src:+ (text)}: the node samples add up to the line's bytes" \
		"$(tag_counters 'func:alloctest_pages_node ' | cut -d' ' -f1)" \
		"$(awk '/^alloc_tag_node_bytes\{/ { b += $NF } END { print b + 0 }' /tmp/om.txt)"
	check_eq "OpenMetrics${src:+ (text)}: a sample a node" "$nodes" \
		"$(grep -c '^alloc_tag_node_calls{.*,node="[0-9]*"}' /tmp/om.txt)"
done
sed 's/^/# openmetrics-nodes: /' /tmp/om.txt
$at -o prometheus -n 1 -l 0 -t -m alloctest -f alloctest_pages_node >/tmp/prom.txt
grep -v '^#' /tmp/om.txt >/tmp/om.samples
grep -v '^#' /tmp/prom.txt >/tmp/prom.samples
check "Prometheus text: the samples of OpenMetrics" cmp -s /tmp/om.samples /tmp/prom.samples
sed 's/^/# prometheus-nodes: /' /tmp/prom.txt
echo free >$ctl
check_eq "freed: every node back to zero" "0 0 0 0" \
	"$(nodesum alloctest_pages_node) $(nodesum alloctest_kmalloc_node)"

check "off and nodes together are refused" \
	sh -c "$at -S off -m alloctest -f alloctest_pages_node 2>&1 | grep -q 'Invalid argument'"
check_eq "and change nothing" "" \
	"$(grep -F ' func:alloctest_pages_node ' /proc/allocinfo | grep ' counted:no' || true)"

$at -C nodes -m alloctest >/dev/null
check_eq "cleared: no line has node words" 0 "$(grep -c ' node0_bytes:' /proc/allocinfo || true)"
echo "pagesnode 0 2" >$ctl
check_eq "allocations counted on the line as ever" "$((2 * 4096)) 2" \
	"$(tag_counters 'func:alloctest_pages_node ')"
echo free >$ctl

# Migration: the anonymous fault site counted by node from here on
# (folio_prealloc: order-0 anonymous folios, zeroed or not)
anon=folio_prealloc
if [ $nodes -gt 1 ] && grep -q " func:$anon " /proc/allocinfo; then
	check "alloctop -S nodes -f $anon" sh -c "$at -S nodes -f $anon >/dev/null"
	if /guest/progs/movepages $anon 64 >/tmp/move.out 2>&1; then
		sed 's/^/# /' /tmp/move.out
		check_eq "move_pages put all 64 pages on node 1" "moved 64" "$(grep '^moved' /tmp/move.out)"
		check_eq "the lines had node words" "1 1" "$(move_field words before) $(move_field words after)"
		check_eq "the line is unchanged by the move" \
			"$(awk '$1 == "before" { print $2 }' /tmp/move.out)" \
			"$(awk '$1 == "after" { print $2 }' /tmp/move.out)"
		check_eq "node 1 gained the pages" $((64 * 4096)) \
			$(($(move_field node1_bytes after) - $(move_field node1_bytes before)))
		check_eq "node 0 lost them" $((-64 * 4096)) \
			$(($(move_field node0_bytes after) - $(move_field node0_bytes before)))
	else
		not_ok "movepages: $(cat /tmp/move.out)"
	fi
	$at -C nodes -f $anon >/dev/null
else
	skip "migration between nodes" "one node, or no $anon line"
fi

# GET_NODES takes the content id read before the index: once a module
# came or went, the index may be another tag's, and the answer is ESTALE
$at -S nodes -m alloctest -f alloctest_pages_node >/dev/null
set -- $(/guest/progs/nodes-id alloctest_pages_node 2>&1)
check_eq "GET_NODES asked with the content id read before the index" ok "${3:-$*}"
if insmod /modules/paramalloc.ko && rmmod paramalloc; then
	check_eq "GET_NODES asked with the id from before a module came and went" \
		ESTALE "$(/guest/progs/nodes-id "${2:-0}" "${1:-0}" 2>&1)"
else
	not_ok "load and unload paramalloc"
fi
$at -C nodes -m alloctest -f alloctest_pages_node >/dev/null

# 32 slots: the flag on every kernel site needs more, and fails with
# ENOSPC before it flags any
out=$($at -S nodes -m kernel 2>&1 || true)
check_eq "nodes on every kernel site: ENOSPC" \
	"alloctop: setting tag flags: No space left on device" "$out"
check_eq "and no kernel line flagged" "" \
	"$(grep -v ' \[' /proc/allocinfo | grep ' node0_bytes:' || true)"

# A thousand set-and-clear rounds: the counters go once drained
pcpu() { awk '/^Percpu:/ { print $2 }' /proc/meminfo; }
$at -S nodes -m alloctest -f alloctest_pages_node >/dev/null
$at -C nodes -m alloctest -f alloctest_pages_node >/dev/null
sleep 3
before=$(pcpu)
check_eq "set and cleared 1000 times (nodeflip), pages on it every 100th" \
	"1000 rounds" "$(/guest/progs/nodeflip alloctest_pages_node 1000 $ctl 2>&1)"
sleep 3
check_eq "set and cleared 1000 times: Percpu as before (kB)" "$before" "$(pcpu)"
# The flag keys no free: an alias's memory is uncounted as any tag's.  Only
# the allocation hooks' key is on while a tag has it, and clearing it turns
# that off at once, though its aliases still count live pages.
keys=/sys/kernel/debug/alloc_tag/keys
if [ -r $keys ]; then
	$at -S nodes -m alloctest -f alloctest_pages_node >/dev/null
	echo "pagesnode 0 3" >$ctl
	check_eq "nodes set: the allocation hooks' key alone" \
		"ctl:1 capture:0 flags_untraced:$untraced" "$(cut -d' ' -f1-3 $keys)"
	$at -C nodes -m alloctest -f alloctest_pages_node >/dev/null
	check_eq "cleared, its aliases' pages live: every key off" \
		"ctl:0 capture:0 flags_untraced:$untraced" "$(cut -d' ' -f1-3 $keys)"
	check_eq "and the line counts them" "$((3 * 4096)) 3" \
		"$(tag_counters 'func:alloctest_pages_node ')"
	echo free >$ctl
	check_eq "freed: the line back to zero" "0 0" \
		"$(tag_counters 'func:alloctest_pages_node ')"
else
	skip "the keys with the nodes flag" "no alloc_tag/keys (debug option off)"
fi

# Capture with nodes: the pages' frees, of an alias's memory, are traced
# as their tag's, with its index, as their allocations are
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs nodev $tr 2>/dev/null || true
if [ -d $tr/events/alloc_tag ]; then
	$at -S nodes -m alloctest -f alloctest_pages_node >/dev/null
	$at -S capture -m alloctest -f alloctest_pages_node >/dev/null
	echo >$tr/trace
	echo 1 >$tr/events/alloc_tag/enable
	echo "pagesnode 0 4" >$ctl
	echo free >$ctl
	echo 0 >$tr/events/alloc_tag/enable
	grep -F ' function=alloctest_pages_node ' $tr/trace |
		sed -n 's/.*alloc_tag_mem_\([a-z]*\): idx=\([0-9]*\) .*/\1 \2/p' >/tmp/nodes-ev
	check_eq "captured and counted by node: 4 allocations and 4 frees traced" \
		"4 4" "$(grep -c '^alloced ' /tmp/nodes-ev) $(grep -c '^freed ' /tmp/nodes-ev)"
	check_eq "all with one index, the tag's" 1 "$(cut -d' ' -f2 /tmp/nodes-ev | sort -u | wc -l)"
	$at -C capture -m alloctest -f alloctest_pages_node >/dev/null
	$at -C nodes -m alloctest -f alloctest_pages_node >/dev/null
else
	skip "capture with nodes" "no alloc_tag events in tracefs"
fi

# A module leaving with the flag set: its tags' aliases are looked up with
# the module list held for writing (PROVE_RCU checks how, on the debug
# kernel)
$at -S nodes -m alloctest -f alloctest_pages_node >/dev/null
check "unload alloctest with the flag set" rmmod alloctest
t=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$t"
ktap_done
