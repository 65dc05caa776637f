# Per-tag "off" (ALLOCINFO_IOC_SET_FLAGS, through the series' kselftest and
# alloctop -S/-C): an allocation made while its tag is off is neither
# counted nor uncounted, in every form, for pages, bulk pages, vmalloc(),
# slab objects and per-cpu areas; flipping a tag on and off while its
# allocations come and go on every CPU, or while its module is unloaded
# and loaded again, never unbalances a line.
set -eu
. /guest/ktap.sh
need_tag_flags
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl
run_selftest flags

off() { $at -S off -m alloctest -f "$1" 2>&1; }

check "load alloctest" insmod /modules/alloctest.ko
rc=0; out=$($at -S off -m kernel -f alloctest_pages 2>&1) || rc=$?
check_eq "alloctop -m kernel -S off leaves a module's site alone" \
	"1 alloctop: no site matches" "$rc $out"
check_eq "alloctop -S off on alloctest_pages: one site" \
	"alloctop: 1 site(s) changed" "$(off alloctest_pages)"
check "its line says counted:no" \
	sh -c "grep -F 'func:alloctest_pages' /proc/allocinfo | grep -q ' counted:no'"
check "alloctop shows counted:no" \
	sh -c "$at -b -n 1 -m alloctest -f alloctest_pages | grep -q ' counted:no'"
for f in alloctest_kmalloc alloctest_bulk alloctest_vmalloc alloctest_percpu; do
	off $f >/dev/null
done
echo "pages 0 5" >$ctl
echo "pages 2 3" >$ctl
echo "kmalloc 64 10" >$ctl
echo "bulk 16" >$ctl
echo "vmalloc 16 2" >$ctl
echo "percpu 64 4" >$ctl
for f in pages kmalloc bulk vmalloc percpu; do
	check_eq "alloctest_$f while off: nothing counted" "0 0" \
		"$(tag_counters func:alloctest_$f)"
done

sites=$(grep -c '\[alloctest\]' /proc/allocinfo)
check_eq "alloctop -C off -m alloctest: every alloctest site" \
	"alloctop: $sites site(s) changed" "$($at -C off -m alloctest 2>&1)"
check "no line says counted:no any more" \
	sh -c "! grep -F '[alloctest]' /proc/allocinfo | grep -q ' counted:no'"
echo "pages 0 4" >$ctl
echo "kmalloc 64 10" >$ctl
check_eq "pages allocated once on again: counted" "$((4 * 4096)) 4" \
	"$(tag_counters func:alloctest_pages)"
check_eq "objects allocated once on again: counted" "$((10 * $(kmalloc_size 64))) 10" \
	"$(tag_counters func:alloctest_kmalloc)"
# Everything held goes: what was allocated while off uncounts nothing.
echo free >$ctl
for f in pages kmalloc bulk vmalloc percpu; do
	check_eq "alloctest_$f back to zero after free" "0 0" \
		"$(tag_counters func:alloctest_$f)"
done

# The stress site flipped off and on from two processes while every CPU
# allocates and frees there.
flip() { i=0; while [ $i -lt 100 ]; do $at "$1" off -m alloctest -f alloctest_stress >/dev/null; i=$((i + 1)); done; }
flip -S &
p1=$!
flip -C &
p2=$!
echo "stress 2000" >$ctl
wait $p1 $p2
$at -C off -m alloctest -f alloctest_stress >/dev/null
check_eq "stress while its tag flips off and on: zero at the end" "0 0" \
	"$(tag_counters func:alloctest_stress)"

# The module goes and comes back while its tags are set and cleared.
(
	i=0
	while [ $i -lt 30 ]; do
		$at -S off -m alloctest >/dev/null 2>&1 || true
		$at -C off -m alloctest >/dev/null 2>&1 || true
		i=$((i + 1))
	done
) &
p1=$!
i=0 reload=ok
while [ $i -lt 8 ]; do
	rmmod alloctest || reload=no
	insmod /modules/alloctest.ko || reload=no
	i=$((i + 1))
done
wait $p1
check_eq "unloaded and loaded again 8 times meanwhile" ok "$reload"
$at -C off -m alloctest >/dev/null
echo "pages 0 2" >$ctl
check_eq "the reloaded module's pages are counted" "$((2 * 4096)) 2" \
	"$(tag_counters func:alloctest_pages)"
echo free >$ctl
check_eq "and uncounted" "0 0" "$(tag_counters func:alloctest_pages)"
check "unload alloctest" rmmod alloctest
t=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$t"
ktap_done
