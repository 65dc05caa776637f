# Per-tag "capture" (ALLOCINFO_TAG_CAPTURE, set with alloctop -S capture):
# every allocation and free at a captured tag emits alloc_tag_mem_alloced
# or alloc_tag_mem_freed, for pages, bulk pages, vmalloc(), slab objects,
# per-cpu areas and the tail pages of a shared high-order page; the events
# add up, per call site, to what /proc/allocinfo counts, and pair up once
# everything is freed.  No other tag emits anything, a tag that is also
# off emits nothing, and a cleared tag stops.
set -eu
. /guest/ktap.sh
need_tag_flags
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t 2>/dev/null || true
[ -d $t/events ] || t=/sys/kernel/debug/tracing
[ -d $t/events/alloc_tag ] || { diag "no alloc_tag events in tracefs (CONFIG_FTRACE off?)"; exit 2; }
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl

# events KIND FUNCTION [ORDER]: "COUNT BYTES" of the KIND (alloced or
# freed) events in the trace buffer that name FUNCTION (and have ORDER;
# "pages": any order but -1).
events() {
	cat $t/trace >/tmp/trace
	awk -v k="alloc_tag_mem_$1:" -v f="function=$2" -v o="${3:+order=$3}" '
		index($0, k) {
			hit = 0; bytes = 0; order = ""
			for (i = 1; i <= NF; i++) {
				if ($i == f) hit = 1
				if ($i ~ /^bytes=/) bytes = substr($i, 7)
				if ($i ~ /^order=/) order = $i
			}
			if (o == "order=pages") pick = order != "order=-1"
			else pick = o == "" || o == order
			if (hit && pick) { n++; b += bytes }
		}
		END { printf "%d %d\n", n, b }' /tmp/trace
}
# held FUNCTION: what the events say the site holds, alloced less freed
held() {
	a=$(events alloced "$1") f=$(events freed "$1")
	echo $((${a#* } - ${f#* }))
}
counted() { c=$(tag_counters "func:$1 "); echo "${c% *}"; }
calls() { c=$(tag_counters "func:$1 "); echo "${c#* }"; }

check "load alloctest" insmod /modules/alloctest.ko
sites=$(grep -c '\[alloctest\]' /proc/allocinfo)
check_eq "alloctop -S capture -m alloctest: every site" \
	"alloctop: $sites site(s) changed" "$($at -S capture -m alloctest 2>&1)"
check "alloctop shows capture:yes" \
	sh -c "$at -b -n 1 -l 0 -m alloctest -f alloctest_pages | grep -q ' capture:yes'"
check "the text of /proc/allocinfo is unchanged (no suffix)" \
	sh -c "! grep -F '[alloctest]' /proc/allocinfo | grep -q 'capture'"
# Per-tag control's keys (debug option's alloc_tag/keys) follow the flags:
# on while a tag has one; the page-flags form's free hook key off meanwhile.
keys=/sys/kernel/debug/alloc_tag/keys
keys_on="ctl:1 capture:1 flags_untraced:0 flagged:$sites captured:$sites aliases:0"
if [ -r $keys ]; then
	check_eq "capture set: the capture key on" "$keys_on" "$(cat $keys)"
else
	skip "capture set: the capture key on" "no alloc_tag/keys (debug option off)"
fi

echo 4096 >$t/buffer_size_kb
echo >$t/trace
echo 1 >$t/events/alloc_tag/enable
echo "pages 0 5" >$ctl
echo "pages 2 3" >$ctl
echo "kmalloc 64 10" >$ctl
echo "bulk 16" >$ctl
echo "vmalloc 16 2" >$ctl
# Enough areas that most come from chunks past the first one.
echo "percpu 4096 32" >$ctl
echo "shared 2 2" >$ctl

check_eq "alloctest_pages: 5 order-0 allocations traced" "5 $((5 * 4096))" \
	"$(events alloced alloctest_pages 0)"
check_eq "alloctest_pages: 3 order-2 allocations traced" "3 $((3 * 16384))" \
	"$(events alloced alloctest_pages 2)"
check "page events carry the gfp flags" grep -q 'function=alloctest_pages .*gfp_flags=GFP_KERNEL' /tmp/trace
check_eq "alloctest_kmalloc: 10 object allocations traced" 10 \
	"$(events alloced alloctest_kmalloc -1 | cut -d' ' -f1)"
check_eq "alloctest_bulk: 16 pages traced one by one" "16 $((16 * 4096))" \
	"$(events alloced alloctest_bulk 0)"
# vmalloc() takes high-order blocks where it can, and splits them.
check_eq "alloctest_vmalloc: its 32 pages traced" $((32 * 4096)) \
	"$(events alloced alloctest_vmalloc pages | cut -d' ' -f2)"
# Areas the first chunk serves are not counted (the line says accurate:no),
# and not traced either.
check "alloctest_percpu: areas past the first chunk counted" test "$(calls alloctest_percpu)" -gt 0
check_eq "alloctest_percpu: an event for each area counted" \
	"$(calls alloctest_percpu)" "$(events alloced alloctest_percpu -1 | cut -d' ' -f1)"
check_eq "alloctest_shared: the tail pages' free traced" "2 $((2 * 12288))" \
	"$(events freed alloctest_shared -1)"
# What each event of FUNCTION names, once each: "page" (a pfn, no address)
# or "object" (an address, no pfn).  The sites of pages alone, and of
# objects alone (alloctest_bulk and alloctest_vmalloc allocate an array
# or an area beside their pages, at the same tag).
names() {
	awk -v f="function=$1" 'index($0, "alloc_tag_mem_") && index($0, f " ") {
			pfn = addr = ""
			for (i = 1; i <= NF; i++) {
				if ($i ~ /^pfn=/) pfn = substr($i, 5)
				if ($i ~ /^addr=/) addr = substr($i, 6)
			}
			nopfn = pfn ~ /^0xf+$/; noaddr = addr ~ /^(0+|\(null\))$/
			print nopfn && !noaddr ? "object" : !nopfn && noaddr ? "page" : "both:" pfn "," addr
		}' /tmp/trace | sort -nu | tr '\n' ' '
}
for f in pages shared; do
	check_eq "alloctest_$f: its events name a page frame, no address" "page " "$(names alloctest_$f)"
done
for f in kmalloc percpu; do
	check_eq "alloctest_$f: its events name an address, no page frame" "object " "$(names alloctest_$f)"
done
for f in pages kmalloc bulk vmalloc percpu shared; do
	check_eq "alloctest_$f: the events add up to its line" \
		"$(counted alloctest_$f)" "$(held alloctest_$f)"
done
others=$(grep -E 'alloc_tag_mem_(alloced|freed):' /tmp/trace | grep -vc ' function=alloctest_' || true)
check_eq "no event from a tag without the flag" 0 "$others"

# Who allocated: an allocation names the cgroup it is charged to (memcg=,
# a cgroup id: its directory's inode number; the root cgroup's for a task
# there), 0 for an unaccounted one.  A SLAB_ACCOUNT cache's objects are
# charged with no __GFP_ACCOUNT: dup_mm()'s mm_struct, for one.
memcg_of() {
	cat $t/trace >/tmp/trace
	awk -v f="function=$1" 'index($0, "alloc_tag_mem_alloced:") && index($0, f " ") {
			for (i = 1; i <= NF; i++) if ($i ~ /^memcg=/) print substr($i, 7)
		}' /tmp/trace | sort -nu | tr '\n' ' '
}
check_eq "unaccounted: charged to no cgroup" "0 " "$(memcg_of alloctest_kmalloc)"
cg=/sys/fs/cgroup
if [ -d $cg ] && { grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg; } &&
	grep -qw memory $cg/cgroup.controllers; then
	echo +memory >$cg/cgroup.subtree_control
	mkdir $cg/capture
	id=$(stat -c %i $cg/capture) root=$(stat -c %i $cg)
	echo "kmalloccg 512 2" >$ctl
	sh -c "echo \$\$ >$cg/capture/cgroup.procs && echo 'kmalloccg 512 3' >$ctl"
	check_eq "GFP_KERNEL_ACCOUNT: the child cgroup's id, the root's in the root" \
		"$root $id " "$(memcg_of alloctest_accounted)"
	# The root shell's forks, and one from the child cgroup.
	$at -S capture -f dup_mm >/dev/null
	sh -c "echo \$\$ >$cg/capture/cgroup.procs && { sleep 0 & wait; }"
	$at -C capture -f dup_mm >/dev/null
	check_eq "SLAB_ACCOUNT (dup_mm's mm_struct): the child cgroup's id, the root's in the root" \
		"$root $id " "$(memcg_of dup_mm)"
	echo free >$ctl
	check "remove the child cgroup" rmdir $cg/capture
else
	# No memcg to charge: an accounted allocation is charged to none.
	echo "kmalloccg 512 2" >$ctl
	check_eq "no memory cgroup controller: GFP_KERNEL_ACCOUNT charged to none" "0 " \
		"$(memcg_of alloctest_accounted)"
	skip "SLAB_ACCOUNT: the child cgroup's id" "no memory cgroup controller"
fi

echo free >$ctl
for f in pages kmalloc bulk vmalloc percpu shared; do
	check_eq "alloctest_$f: every allocation's free traced" 0 "$(held alloctest_$f)"
	a=$(events alloced alloctest_$f) f2=$(events freed alloctest_$f)
	# Split pages are freed one by one: not vmalloc()'s, not the shared ones.
	case $f in vmalloc|shared) continue ;; esac
	check_eq "alloctest_$f: as many frees as allocations" "${a% *}" "${f2% *}"
done

# Off and captured: not counted, not traced.  Cleared: not traced.
$at -S off -m alloctest -f alloctest_pages >/dev/null
echo >$t/trace
echo "pages 0 3" >$ctl
check_eq "a tag that is also off: nothing traced" "0 0" "$(events alloced alloctest_pages)"
check_eq "and nothing counted" "0 0" "$(tag_counters func:alloctest_pages)"
echo free >$ctl
check_eq "nor its frees" "0 0" "$(events freed alloctest_pages)"
$at -C off -m alloctest >/dev/null
# Counted and traced, then off: what was counted is still traced when freed.
echo >$t/trace
echo "pages 0 3" >$ctl
$at -S off -m alloctest -f alloctest_pages >/dev/null
echo free >$ctl
a=$(events alloced alloctest_pages)
check_eq "counted and traced, then off: 3 allocations traced" 3 "${a% *}"
check_eq "and every free traced" "$a" "$(events freed alloctest_pages)"
$at -C off -m alloctest >/dev/null
check_eq "alloctop -C capture -m alloctest" \
	"alloctop: $sites site(s) changed" "$($at -C capture -m alloctest 2>&1)"
echo >$t/trace
echo "pages 0 2" >$ctl
echo "kmalloc 64 2" >$ctl
echo free >$ctl
check_eq "cleared: nothing traced" 0 "$(grep -c 'alloc_tag_mem_' $t/trace || true)"
echo 0 >$t/events/alloc_tag/enable
if [ -r $keys ]; then
	check_eq "no flag left: every key off, the free hook's back on" "$keys_off" "$(cat $keys)"
else
	skip "no flag left: every key off" "no alloc_tag/keys (debug option off)"
fi
check "unload alloctest" rmmod alloctest
tr=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$tr"
ktap_done
