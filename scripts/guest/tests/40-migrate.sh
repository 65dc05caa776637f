# Migration keeps every tag's counters: fill tmpfs with page cache, compact
# memory (which migrates those pages), and compare /proc/allocinfo.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ -w /proc/sys/vm/compact_memory ] || { diag "no compaction"; exit 2; }
migrated() { awk '/^pgmigrate_success/ { print $2 }' /proc/vmstat; }

# Fragment: write files, delete every other one.
mkdir -p /tmp/frag
i=0
while [ $i -lt 64 ]; do
	dd if=/dev/zero of=/tmp/frag/$i bs=64k count=16 2>/dev/null
	i=$((i + 1))
done
i=0
while [ $i -lt 64 ]; do rm /tmp/frag/$i; i=$((i + 2)); done
sync

snapshot() { sed 1,2d /proc/allocinfo | awk '{ print $1, $2, $3, $4, $5 }' | sort; }
# Snapshots stay in shell variables: a file in tmpfs would add shmem pages.
before_m=$(migrated)
before=$(snapshot)
echo 1 >/proc/sys/vm/compact_memory
after=$(snapshot)
after_m=$(migrated)
diag "pages migrated: $((after_m - before_m))"
check "compaction migrated pages" test "$after_m" -gt "$before_m"
# Only the page-cache tags matter: the rest of the system moves on.
shmem_tag() { echo "$1" | grep -E 'func:(shmem_alloc_folio|filemap_alloc_folio)' || true; }
check_eq "page-cache tags unchanged by migration" "$(shmem_tag "$before")" "$(shmem_tag "$after")"
rm -rf /tmp/frag
ktap_done
