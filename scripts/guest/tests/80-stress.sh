# Per-tag control under load, everything at once for STRESS_SECONDS (30 on
# a kernel with lockdep, the fork-distro test kernel, 10 elsewhere):
# - flags set and cleared (off, capture, nodes) on alloctest's sites and
#   on dup_mm and folio_prealloc, which forks and faults keep allocating;
# - alloctest loaded, allocating pages and objects, handing some to
#   tagkeep and unloaded with them alive, over and over, and tagkeep
#   freeing them (unloaded modules and nodes aliases reaped meanwhile);
# - /proc/allocinfo read, and queried through the ioctls, by three tasks;
# - the ioctl fuzzer (allocinfo-fuzz, setting off and capture only), whose
#   last act clears every flag.
# Then every flag is cleared and everything freed.  Pass: nothing in dmesg
# (no lockdep report, KASAN report, WARN or RCU warning), no line below
# zero or above MemTotal, every key off, no unloaded module left.
# Where the page allocator's fault injection is built in (prove.config),
# the nodes flag is then set on every kernel site by a task whose page
# allocations all fail: no slot table or counters can be had, so the ioctl
# fails, and profiling must stay on and /proc/allocinfo answer.
set -eu
. /guest/ktap.sh
need_tag_flags
at=/guest/progs/alloctop
fuzz=/guest/progs/allocinfo-fuzz
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
keys=/sys/kernel/debug/alloc_tag/keys
[ -x $fuzz ] || { diag "no $fuzz"; exit 2; }
secs=${STRESS_SECONDS:-10}
[ -n "${STRESS_SECONDS:-}" ] || [ ! -e /proc/lockdep ] || secs=30
nodes=nodes
$at -S nodes -m nosuchmodule 2>&1 | grep -q 'not supported' && nodes=capture
diag "$secs s of stress; flags: off capture $nodes"

check "load tagkeep" insmod /modules/tagkeep.ko
stop=/tmp/stress.stop
rm -f $stop
loop() { while [ ! -e $stop ]; do "$@" >/dev/null 2>&1 || true; done; }
loop sh -c "insmod /modules/alloctest.ko; echo 'pages 1 2' >$ctl; echo 'kmalloc 64 3' >$ctl; echo 'percpu 64 2' >$ctl; echo stash >$ctl; echo 'pages 0 1' >$ctl; rmmod alloctest" &
pids=$!
loop sh -c "echo free >$keep; sleep 0.3" &
pids="$pids $!"
for f in off capture; do
	loop sh -c "$at -S $f -m alloctest; $at -S $f -f dup_mm; $at -S $f -f folio_prealloc; $at -C $f -m alloctest; $at -C $f -f dup_mm; $at -C $f -f folio_prealloc" &
	pids="$pids $!"
done
# The nodes flag on kernel sites and on those of the module loaded and
# unloaded meanwhile: a drained alias may outlive its module's tags.
loop sh -c "$at -S $nodes -m alloctest; $at -S $nodes -f dup_mm; $at -S $nodes -f folio_prealloc; $at -C $nodes -m alloctest; $at -C $nodes -f dup_mm; $at -C $nodes -f folio_prealloc" &
pids="$pids $!"

loop sh -c "/bin/true & wait; head -c 2000000 /dev/urandom | sort >/dev/null" &
pids="$pids $!"
loop cat /proc/allocinfo &
pids="$pids $!"
loop /guest/progs/allocinfo-mod alloctest &
pids="$pids $!"
loop $at -n 1 -l 0 -m alloctest &
pids="$pids $!"
loop sh -c "$fuzz 300 \$\$ 3" &
pids="$pids $!"
sleep "$secs"
touch $stop
for p in $pids; do wait "$p" || true; done
diag "stress over"

# Everything cleared and freed
rmmod alloctest 2>/dev/null || true
$fuzz 0 0 >/tmp/fuzz.out 2>&1 || true
check_eq "every flag cleared" "rounds 0" "$(head -1 /tmp/fuzz.out)"
echo free >$keep
check "unload tagkeep" rmmod tagkeep
check_eq "no unloaded module left" 0 "$(wait_for 0 unloaded_ranges)"
memtotal=$(awk '/^MemTotal:/ { print $2 * 1024 }' /proc/meminfo)
check_eq "no line below zero or above MemTotal" "" \
	"$(awk -v m="$memtotal" 'NR > 2 && ($1 < 0 || $2 < 0 || $1 > m)' /proc/allocinfo)"
# Every key off once every flag is cleared, though a nodes alias (the
# fuzzer sets the flag on kernel sites as well) may count live memory
# still: its frees are uncounted as any tag's, with no key.
if [ -r $keys ]; then
	k=$(wait_for "$keys_off" cat $keys)
	check_eq "every key off" "${keys_off% aliases:*}" "${k% aliases:*}"
fi

# The fuzzer alone, with its counts of each outcome
$fuzz 5000 42 >/tmp/fuzz.out 2>&1 || true
sed 's/^/# fuzz: /' /tmp/fuzz.out
check_eq "5000 fuzzed ioctls, every flag cleared after" "rounds 5000" "$(head -1 /tmp/fuzz.out)"

# No page for a nodes flag's slot table or counters: ENOMEM, profiling on
fpa=/sys/kernel/debug/fail_page_alloc
if [ -d $fpa ] && [ "$nodes" = nodes ]; then
	echo Y >$fpa/task-filter
	echo 100 >$fpa/probability
	echo 1 >$fpa/interval
	echo -1 >$fpa/times
	echo 0 >$fpa/verbose
	echo N >$fpa/ignore-gfp-wait
	echo N >$fpa/ignore-gfp-highmem
	sh -c "echo 1 >/proc/self/make-it-fail; exec $at -S nodes -m kernel" >/tmp/fail.out 2>&1 &
	p=$!
	_i=0
	while kill -0 $p 2>/dev/null && [ $_i -lt 100 ]; do sleep 0.2; _i=$((_i + 1)); done
	echo 0 >$fpa/probability
	if kill -0 $p 2>/dev/null; then
		not_ok "nodes on every kernel site with no page to allocate: ioctl returned"
	else
		sed 's/^/# /' /tmp/fail.out
		ok "nodes on every kernel site with no page to allocate: ioctl returned"
		check_eq "profiling on" 1 "$(cat /proc/sys/vm/mem_profiling)"
		check "/proc/allocinfo answers" sh -c "head -3 /proc/allocinfo >/dev/null"
		$at -C nodes -m kernel >/dev/null 2>&1 || true
	fi
else
	skip "no page for a nodes flag" "no fail_page_alloc or no nodes"
fi
tr=$(trouble || true)
check_eq "no lockdep, KASAN, RCU or other report, no warning" "" "$tr"
ktap_done
