# Slab objects charged to a memory cgroup: each one's extension holds the
# objcg pointer and, behind it, the tag reference.  A task in a child
# cgroup allocates with GFP_KERNEL_ACCOUNT: its objects are counted at their
# call site and charged to the cgroup (memory.current, which charges ahead
# in batches and keeps what the objects give back for the next); freeing
# them uncounts the line, and the cgroup, its objects gone, can be removed.
# Skipped on a kernel without memcg.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
cg=/sys/fs/cgroup
[ -d $cg ] || { diag "no cgroups"; exit 2; }
grep -q " $cg cgroup2 " /proc/mounts || mount -t cgroup2 none $cg
grep -qw memory $cg/cgroup.controllers || { diag "no memory cgroup controller"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
acct="[alloctest] func:alloctest_accounted"
check "enable the memory controller for children" sh -c "echo +memory >$cg/cgroup.subtree_control"
check "make a child cgroup" mkdir $cg/alloctest
check "load alloctest" insmod /modules/alloctest.ko
# A check that stops the script leaves no module behind for the next.
cleanup() {
	{ [ ! -e $ctl ] || echo free >$ctl; } 2>/dev/null || true
	rmmod alloctest 2>/dev/null || true
	rmdir $cg/alloctest 2>/dev/null || true
}
trap cleanup EXIT
before=$(cat $cg/alloctest/memory.current)
# The write runs in the child cgroup: its allocations are charged there.
check "kmalloc(512, GFP_KERNEL_ACCOUNT) x64 from the child cgroup" \
	sh -c "echo \$\$ >$cg/alloctest/cgroup.procs && echo 'kmalloccg 512 64' >$ctl"
check_eq "the call site counts them" "$((64 * $(kmalloc_size 512))) 64" "$(tag_counters "$acct")"
charged=$(( $(cat $cg/alloctest/memory.current) - before ))
diag "memory.current grew by $charged bytes"
check "the cgroup is charged for them" test "$charged" -ge 32768
echo free >$ctl
check_eq "free: the call site is back to zero" "0 0" "$(tag_counters "$acct")"
check "unload alloctest" rmmod alloctest
check "remove the child cgroup" rmdir $cg/alloctest
check_eq "no oops, BUG or warning" "" "$(trouble || true)"
ktap_done
