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
# compact PREFIX: sets before, after and moved; PREFIX names the files.
compact() {
	round=0 moved=0
	while [ $round -lt 3 ] && [ $moved -eq 0 ]; do
		fragment $1$round
		before_m=$(migrated)
		before=$(snapshot)
		echo 1 >/proc/sys/vm/compact_memory
		after=$(snapshot)
		after_m=$(migrated)
		moved=$((after_m - before_m))
		round=$((round + 1))
		diag "$1round $round: pages migrated: $moved"
	done
}
# Only the page-cache tags matter: the rest of the system moves on.
shmem_tag() { echo "$1" | grep -E 'func:(shmem_alloc_folio|filemap_alloc_folio)' || true; }

compact ""
check "compaction migrated pages" test "$moved" -gt 0
check_eq "page-cache tags unchanged by migration" "$(shmem_tag "$before")" "$(shmem_tag "$after")"
rm -rf /tmp/frag

# With per-tag control: the folios compaction migrates to are allocated at
# its own tag, compaction_alloc(); switched off, they come uncounted, and
# the page cache they take over must stay on its own lines all the same.
at=/guest/progs/alloctop
case ${VARIANT:-} in
stock*) diag "stock 7.3 has no per-tag flags: migration to an uncounted folio not checked" ;;
*)
	if [ -x $at ]; then
		check "alloctop -S off compaction_alloc" \
			sh -c "$at -S off -m kernel -f compaction_alloc >/dev/null"
		compact off-
		check "compaction migrated pages to uncounted folios" test "$moved" -gt 0
		check_eq "page-cache tags unchanged by migration to uncounted folios" \
			"$(shmem_tag "$before")" "$(shmem_tag "$after")"
		check "alloctop -C off compaction_alloc" \
			sh -c "$at -C off -m kernel -f compaction_alloc >/dev/null"
		rm -rf /tmp/frag
	else
		diag "no $at: migration to an uncounted folio not checked"
	fi
	;;
esac
ktap_done
