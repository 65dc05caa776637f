# Every way a slab object's tag is set, moved and cleared, beyond kmalloc()
# and kfree() (20-module-tags): kmem_cache_alloc() and kmem_cache_free() on
# a cache of the module's own; kmem_cache_alloc_node();
# kmem_cache_alloc_lru() on an accounted, unmerged cache of 192-byte
# objects, as dentries are allocated, from the first object of its first
# slab on (with memcg, its slabs keep objcg pointers after the
# references); a cache whose object extensions sit in each object's
# padding; bulk allocation and free; krealloc() in place (the object keeps
# its first tag) and moving (the new object counts at krealloc()'s caller,
# the old one is uncounted); kfree_rcu(), whose objects are freed in
# batches after a grace period.  Each line counts exactly what is held,
# and drains to zero.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
ctl=/sys/kernel/debug/alloctest/ctl
check "load alloctest" insmod /modules/alloctest.ko
# A check that stops the script leaves no module behind for the next.
cleanup() { { [ ! -e $ctl ] || echo free >$ctl; rmmod alloctest; } 2>/dev/null || true; }
trap cleanup EXIT
cache="[alloctest] func:alloctest_cache_alloc"
bulk="[alloctest] func:alloctest_cache_bulk"
kre="[alloctest] func:alloctest_krealloc"
rcu="[alloctest] func:alloctest_kfree_rcu"
node="[alloctest] func:alloctest_cache_node"
lru="[alloctest] func:alloctest_lru_alloc"
# bytes COUNTERS: the bytes of "BYTES CALLS"
bytes() { echo "${1% *}"; }

# One object first, for the size the cache gives it (its s->size).
echo "cache 1" >$ctl
one=$(bytes "$(tag_counters "$cache")")
check "an object of the 96-byte cache counts at least 96 bytes" test "$one" -ge 96
echo "cache 99" >$ctl
check_eq "kmem_cache_alloc() x100 counted" "$((100 * one)) 100" "$(tag_counters "$cache")"
echo "inobj 1" >$ctl
in=$(bytes "$(tag_counters "$cache")")
in=$((in - 100 * one))
check_eq "an object of the in-object cache counts 64 bytes" 64 "$in"
echo "inobj 99" >$ctl
check_eq "its 100 objects are counted too" "$((100 * one + 100 * in)) 200" \
	"$(tag_counters "$cache")"
echo "cachenode 0 30" >$ctl
check_eq "kmem_cache_alloc_node() x30 counted" "$((30 * one)) 30" "$(tag_counters "$node")"
echo "lru 1" >$ctl
l=$(bytes "$(tag_counters "$lru")")
check "an object of the 192-byte lru cache counts at least 192 bytes" test "$l" -ge 192
echo "lru 149" >$ctl
check_eq "kmem_cache_alloc_lru() x150 counted" "$((150 * l)) 150" "$(tag_counters "$lru")"
echo "cachebulk 50" >$ctl
check_eq "kmem_cache_alloc_bulk() of 50: 50 calls" "$((50 * one)) 50" "$(tag_counters "$bulk")"
k128=$(kmalloc_size 128) k1024=$(kmalloc_size 1024)
echo "krealloc 100 120" >$ctl
check_eq "krealloc(100 -> 120) in place: one kmalloc-128 object" "$k128 1" \
	"$(tag_counters "$kre")"
echo "krealloc 100 1000" >$ctl
check_eq "krealloc(100 -> 1000) moved: kmalloc-1024, the first one uncounted" \
	"$((k128 + k1024)) 2" "$(tag_counters "$kre")"
# By line number: the kmalloc() site, then the krealloc() site below it.
check_eq "the kmalloc() site keeps the first, krealloc()'s the moved one" \
	"$k128 1,$k1024 1" "$(grep -F "$kre" /proc/allocinfo |
		awk '{ split($3, at, ":"); print at[2], $1, $2 }' | sort -n |
		awk '{ printf "%s%s %s", (NR > 1 ? "," : ""), $2, $3 }')"
echo "kfreercu 200" >$ctl
# Freed after a grace period, in batches that may wait to fill: destroying
# the objects' cache waits for all of them.
set -- $(tag_counters "$rcu")
check "kfree_rcu() x200: at most 200 still counted" test "$2" -le 200
check "destroy their cache: it waits for their kfree_rcu()" sh -c "echo rcuflush >$ctl"
check_eq "kfree_rcu() x200: the line drains" "0 0" "$(tag_counters "$rcu")"
echo free >$ctl
check_eq "kmem_cache_free(): the cache line back to zero" "0 0" "$(tag_counters "$cache")"
check_eq "kmem_cache_free_bulk(): the bulk line back to zero" "0 0" "$(tag_counters "$bulk")"
check_eq "kmem_cache_alloc_node()'s line back to zero" "0 0" "$(tag_counters "$node")"
check_eq "kmem_cache_alloc_lru()'s line back to zero" "0 0" "$(tag_counters "$lru")"
check_eq "kfree() of the krealloc()ed: back to zero" "0 0" "$(tag_counters "$kre")"
check_eq "no line went negative" "" "$(awk 'NR > 2 && ($1 < 0 || $2 < 0)' /proc/allocinfo)"
check "unload alloctest" rmmod alloctest
check_eq "no oops, BUG or warning" "" "$(trouble || true)"
ktap_done
