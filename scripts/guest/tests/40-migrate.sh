# Migration keeps every tag's counters: fill tmpfs with page cache, compact
# memory (which migrates those pages), and compare /proc/allocinfo.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ -w /proc/sys/vm/compact_memory ] || { diag "no compaction"; exit 2; }
migrated() { awk '/^pgmigrate_success/ { print $2 }' /proc/vmstat; }

# Fragment: write 128 MiB of files, delete every other one.
fragment() {
	mkdir -p /tmp/frag
	i=0
	while [ $i -lt 64 ]; do
		dd if=/dev/zero of=/tmp/frag/$1-$i bs=64k count=32 2>/dev/null
		i=$((i + 1))
	done
	i=0
	while [ $i -lt 64 ]; do rm /tmp/frag/$1-$i; i=$((i + 2)); done
	sync
}

snapshot() { sed 1,2d /proc/allocinfo | awk '{ print $1, $2, $3, $4, $5 }' | sort; }
# Where the page cache lands depends on which vCPU's lists served it, and
# compaction moves nothing when it all sits where the free scanner looks:
# fragment and compact again, up to three rounds, until pages move.
# Snapshots stay in shell variables: a file in tmpfs would add shmem pages.
round=0 moved=0
while [ $round -lt 3 ] && [ $moved -eq 0 ]; do
	fragment $round
	before_m=$(migrated)
	before=$(snapshot)
	echo 1 >/proc/sys/vm/compact_memory
	after=$(snapshot)
	after_m=$(migrated)
	moved=$((after_m - before_m))
	round=$((round + 1))
	diag "round $round: pages migrated: $moved"
done
check "compaction migrated pages" test "$moved" -gt 0
# Only the page-cache tags matter: the rest of the system moves on.
shmem_tag() { echo "$1" | grep -E 'func:(shmem_alloc_folio|filemap_alloc_folio)' || true; }
check_eq "page-cache tags unchanged by migration" "$(shmem_tag "$before")" "$(shmem_tag "$after")"
rm -rf /tmp/frag
ktap_done
