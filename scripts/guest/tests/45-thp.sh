# A transparent huge page is counted once at its call site (2 MiB, one
# call); split to order-0 pages it keeps its bytes and every new page
# carries the tag and one call (512); unmapped, the tag is back where it
# started.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
split=/sys/kernel/debug/split_huge_pages
[ -e $split ] || { diag "no transparent huge pages in this kernel"; exit 2; }
# "always": the guest config has no madvise().
echo always >/sys/kernel/mm/transparent_hugepage/enabled

# delta OLD NEW: "BYTES CALLS TAG" for every tag whose counters moved.
delta() {
	awk 'function key(s) { sub(/^ *-?[0-9]+ +[0-9]+ /, "", s); return s }
		NR == FNR { k = key($0); b[k] = $1; c[k] = $2; next }
		{ k = key($0); db = $1 - b[k]; dc = $2 - c[k]
		  if (db || dc) print db, dc, k }' "$1" "$2"
}
# now OLD TAG: "BYTES CALLS" of TAG now, relative to file OLD.
now() {
	cat /proc/allocinfo >/tmp/thp.now
	delta "$1" /tmp/thp.now | awk -v t="$2" '{ k = $0; sub(/^-?[0-9]+ -?[0-9]+ /, "", k) }
		k == t { print $1, $2; found = 1 } END { if (!found) print "0 0" }'
}

cat /proc/allocinfo >/tmp/thp.0
/guest/progs/thp >/tmp/thp.out &
pid=$!
i=0
until grep -q '^State:.*stopped' /proc/$pid/status 2>/dev/null || [ $i -ge 300 ]; do
	sleep 0.1; i=$((i + 1))
done
check "thp program stopped with its huge page mapped" test -s /tmp/thp.out
set -- $(cat /tmp/thp.out)
cat /proc/allocinfo >/tmp/thp.1
tag=$(delta /tmp/thp.0 /tmp/thp.1 | awk '$1 == 2097152 && $2 == 1 { sub(/^[0-9]+ [0-9]+ /, ""); print; exit }')
diag "huge page tag: ${tag:-none}"
check "one huge page counted: 2 MiB, one call" test -n "$tag"
if [ -n "$tag" ]; then
	echo "$1,$2,$3" >$split
	check_eq "split: bytes kept, one call a page" "2097152 512" "$(now /tmp/thp.0 "$tag")"
fi
kill -CONT "$pid"
wait "$pid" || true
if [ -n "$tag" ]; then
	# Freed pages may wait in per-cpu LRU batches: compaction drains them.
	got=$(now /tmp/thp.0 "$tag")
	[ "$got" = "0 0" ] || { echo 1 >/proc/sys/vm/compact_memory; got=$(now /tmp/thp.0 "$tag"); }
	check_eq "unmapped: tag back to its baseline" "0 0" "$got"
fi
ktap_done
