# Failing a call site's allocations on demand (ALLOCINFO_TAG_FAIL, through
# the series' kselftest and alloctop --fail and --walk), in every form:
# once, on every path a tag reaches (pages of order 0 and 3, on a node and
# in bulk, kmalloc() and kmalloc_node(), accounted objects, a cache's
# objects by kmem_cache_alloc(), _node() and _lru(), bulk objects,
# krealloc(), vmalloc() and per-cpu areas), each failure exactly the
# site's: nothing counted at it, its neighbours counted as ever, its
# flag gone once its policy ran out and the failure counted.  Then the
# walk: every site of alloctest failed in turn while a command runs, and
# every site of test_hmm (an in-tree module) failed in turn as the module
# loads, each load failing cleanly or succeeding, with no line left
# holding memory and no warning.
set -eu
. /guest/ktap.sh
need_tag_flags
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl
run_selftest fail

# last_line FUNCTION: the line of FUNCTION's last tag in alloctest's file
last_line() {
	awk -v f="func:$1" '{ for (i = 4; i <= NF; i++) if ($i == f) { split($3, a, ":"); print a[2] } }' \
		/proc/allocinfo | sort -n | tail -n 1
}
# fail_once FUNCTION [LINE]: alloctop --fail once on alloctest's site
fail_once() {
	$at -X once -m alloctest -f "$1" ${2:+-L "$2"} 2>&1
}
# failed_at FUNCTION: alloctop's failed:N of the site, or 0
failed_at() {
	$at -b -n 1 -l 0 -m alloctest -f "$1" |
		sed -n 's/.* failed:\([0-9]*\).*/\1/p' | head -n 1 | grep . || echo 0
}
# flag_of FUNCTION: "fail" while the site has the flag, "none" once not
flag_of() {
	if $at -b -n 1 -l 0 -m alloctest -f "$1" | grep -q ' fail:yes'; then
		echo fail
	else
		echo none
	fi
}
# op_fails CMD: the alloctest command fails with ENOMEM
op_fails() { ! echo "$1" >$ctl 2>/dev/null; }

check "load alloctest" insmod /modules/alloctest.ko
rc=0; out=$($at -X sometimes -m alloctest -f alloctest_pages 2>&1) || rc=$?
check_eq "alloctop --fail with a bad policy: usage error" 2 "$rc"
rc=0; out=$($at -S fail -m alloctest -f alloctest_pages 2>&1) || rc=$?
check_eq "alloctop -S fail: usage error, the policy is needed" 2 "$rc"
check_eq "alloctop --fail once on alloctest_kmalloc: one site" \
	"alloctop: 1 site(s) changed" "$(fail_once alloctest_kmalloc)"
check "alloctop shows fail:yes" \
	sh -c "$at -b -n 1 -m alloctest -f alloctest_kmalloc | grep -q ' fail:yes'"

# Each path: the op fails at once, nothing is held or counted at the site,
# the failure is counted and the flag clears itself; the next op succeeds.
# krealloc()'s own tag comes after its kmalloc()'s
krealloc_line=$(last_line alloctest_krealloc)
for t in "alloctest_kmalloc:kmalloc 64 5" "alloctest_pages:pages 0 3" \
	"alloctest_pages:pages 3 1" "alloctest_pages_node:pagesnode 0 2" \
	"alloctest_kmalloc_node:kmallocnode 0 2" "alloctest_accounted:kmalloccg 64 2" \
	"alloctest_cache_alloc:cache 3" "alloctest_cache_node:cachenode 0 2" \
	"alloctest_lru_alloc:lru 2" "alloctest_cache_bulk:cachebulk 8" \
	"alloctest_percpu:percpu 64 2" "alloctest_krealloc:krealloc 64 512"; do
	f=${t%%:*} op=${t#*:}
	line=""
	[ $f != alloctest_krealloc ] || line=$krealloc_line
	# the first call is alloctest's own; failed already, it stays set
	[ $f = alloctest_kmalloc ] || fail_once $f "$line" >/dev/null
	# a neighbour allocates while the site fails
	n=alloctest_kmalloc nop="kmalloc 8 1" nwant="$(kmalloc_size 8) 1"
	[ $f != alloctest_kmalloc ] || n=alloctest_pages nop="pages 0 1" nwant="4096 1"
	before=$(tag_counters "func:$f") failed=$(failed_at $f)
	echo "$nop" >$ctl
	check "$op: fails with the site's flag set" op_fails "$op"
	check_eq "$op: nothing more counted at $f" "$before" "$(tag_counters "func:$f")"
	check_eq "$op: the neighbour $n counted" "$nwant" "$(tag_counters "func:$n")"
	check_eq "$op: the failure is counted" $((failed + 1)) "$(failed_at $f)"
	check_eq "$op: the flag cleared itself" none "$(wait_for none flag_of $f)"
	check "$op: succeeds again" sh -c "echo '$op' >$ctl"
	echo free >$ctl
	check_eq "$op: every alloctest line back to zero" "0 0" \
		"$(tag_counters '[alloctest]')"
done

# bulk pages: alloc_pages_bulk()'s tag comes after the kvcalloc() of the
# array's
fail_once alloctest_bulk "$(last_line alloctest_bulk)" >/dev/null
check "bulk 16: fails on the bulk allocation" op_fails "bulk 16"
check_eq "bulk 16: no page counted" "0 0" "$(tag_counters func:alloctest_bulk)"
check_eq "bulk 16: the flag cleared itself" none "$(wait_for none flag_of alloctest_bulk)"
check "bulk 16: succeeds again" sh -c "echo 'bulk 16' >$ctl"
echo free >$ctl

# vmalloc() reports its failures as under memory pressure (warn_alloc(),
# with a stack), as do the loads of test_hmm that fail below: 90-dmesg
# leaves out the lines between these marks, in which only such reports
# may stand (checked at the end).
t=$(trouble || true)
check_eq "no warning, oops or BUG so far" "" "$t"
echo "81-fail: allocations fail on purpose from here" >/dev/kmsg
mark=$(dmesg | wc -l)

# vmalloc(): its page array, bulk pages and fallback page by page, so no
# limit, then cleared
$at -X always -m alloctest -f alloctest_vmalloc >/dev/null
check "vmalloc 4 1: fails while the site fails always" op_fails "vmalloc 4 1"
check "and a neighbour still allocates" sh -c "echo 'kmalloc 64 4' >$ctl"
check_eq "the neighbour's objects are counted" "$((4 * $(kmalloc_size 64))) 4" \
	"$(tag_counters func:alloctest_kmalloc)"
check_eq "vmalloc: nothing counted" "0 0" "$(tag_counters func:alloctest_vmalloc)"
check_eq "alloctop -C fail clears it" "alloctop: 1 site(s) changed" \
	"$($at -C fail -m alloctest -f alloctest_vmalloc 2>&1)"
check "vmalloc 4 1: succeeds again" sh -c "echo 'vmalloc 4 1' >$ctl"
echo free >$ctl
check_eq "every alloctest line back to zero" "0 0" "$(tag_counters '[alloctest]')"

# The walk over alloctest's sites while one command uses most of them:
# each named, failed or not reached, and nothing leaked.
cmd="for op in 'kmalloc 64 1' 'pages 0 1' 'cache 1' 'lru 1' 'percpu 64 1' \
'vmalloc 1 1' 'cachebulk 2'; do echo \$op >$ctl 2>/dev/null; done; echo free >$ctl"
sites=$(grep -c '\[alloctest\]' /proc/allocinfo)
$at --walk "$cmd" -m alloctest >/tmp/walk.out 2>&1 || true
sed 's/^/# /' /tmp/walk.out
check_eq "the walk reports every alloctest site" "$sites" \
	"$(grep -c ' \[alloctest\] func:' /tmp/walk.out)"
for f in alloctest_kmalloc alloctest_pages alloctest_cache_alloc \
	alloctest_lru_alloc alloctest_percpu alloctest_cache_bulk; do
	check "the walk failed $f" grep -q "func:$f: failed," /tmp/walk.out
done
check "the walk did not fail alloctest_stress (not run)" \
	grep -q "func:alloctest_stress: not reached," /tmp/walk.out
check "no site warned" sh -c "! grep -q 'warnings [1-9]' /tmp/walk.out"
check_eq "no site has the flag after the walk" "" \
	"$($at -b -n 1 -l 0 -m alloctest | grep ' fail:yes' || true)"
check_eq "every alloctest line at zero after the walk" "0 0" \
	"$(tag_counters '[alloctest]')"
check "unload alloctest" rmmod alloctest

# test_hmm's load, failed at each of its sites in turn
if [ -e /modules/test_hmm.ko ]; then
	check "load test_hmm" insmod /modules/test_hmm.ko
	sites=$(grep -c '\[test_hmm\]' /proc/allocinfo)
	diag "test_hmm has $sites allocation sites"
	$at --walk "rmmod test_hmm 2>/dev/null; /guest/progs/loadmod /modules/test_hmm.ko" \
		--at-load -m test_hmm >/tmp/walk.out 2>&1 || true
	sed 's/^/# /' /tmp/walk.out
	check_eq "the walk reports every test_hmm site" "$sites" \
		"$(grep -c ' \[test_hmm\] func:' /tmp/walk.out)"
	# loadmod tries once: BusyBox's insmod would try again, and load
	check "some site failed the load" grep -q ': failed, exit [1-9]' /tmp/walk.out
	check "every load failed cleanly or succeeded: no leak" \
		sh -c "! grep -q 'leaks [1-9]' /tmp/walk.out"
	check "and no warning" sh -c "! grep -q 'warnings [1-9]' /tmp/walk.out"
	rmmod test_hmm 2>/dev/null || true
	check_eq "test_hmm's lines gone once unloaded" 0 \
		"$(wait_for 0 grep -c '\[test_hmm\]' /proc/allocinfo)"
else
	skip "walk test_hmm's load" "kernel built without CONFIG_TEST_HMM"
fi
bad=$(dmesg | tail -n +$((mark + 1)) |
	grep -E 'WARNING:|BUG:|Oops|KASAN|general protection|alloc_tag was not' || true)
[ -z "$bad" ] || diag "$bad"
check "only allocation failure reports while they failed on purpose" test -z "$bad"
echo "81-fail: to here" >/dev/kmsg
dmesg_base=$(dmesg | wc -l)
if [ -e /sys/kernel/debug/alloc_tag/keys ]; then
	check_eq "the keys are off again" "$keys_off" \
		"$(wait_for "$keys_off" cat /sys/kernel/debug/alloc_tag/keys)"
fi
t=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$t"
ktap_done
