# Device-private migration (mm/migrate_device.c), through test_hmm: 64
# anonymous pages go to the driver's device memory and back, once by ioctl
# and once by CPU faults.  Device-private pages never come from the page
# allocator and carry no tag: a page that migrates to the device is freed
# (its tag drops), the system page that backs each device page is counted
# on dmirror_devmem_alloc_page, and a page that migrates back is a new
# allocation of dmirror_devmem_fault_alloc_and_copy.  Every count must
# return to zero once the pages are unmapped, the device closed (the
# device holds one page until then) and the CPUs' LRU batches drained, and
# the pages keep their data.  In
# the page-flags form, CONFIG_MEM_ALLOC_PROFILING_DEBUG once warned here
# that device pages had no tag (90-dmesg catches that).
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling off"; exit 2; }
# Stock 7.3 in its page-flags form (arm64's guest config has the bits)
# reads a device-private page's empty index in pgalloc_tag_swap(), and its
# debug checks warn "alloc_tag was not set" (pointer form: no page_ext
# there, no warning).  Upstream's defect, the fork's fix: not run there.
if [ "${VARIANT#stock}" != "$VARIANT" ] && [ "${FORM:-}" = flags ]; then
	diag "stock 7.3's page-flags form warns on device-private migration: not run on $VARIANT"
	exit 2
fi
[ -e /modules/test_hmm.ko ] || { diag "kernel built without CONFIG_TEST_HMM"; exit 2; }
prog=/guest/progs/hmm-migrate
[ -x $prog ] || { diag "no $prog"; exit 2; }
n=64 b=$((64 * 4096))

check "load test_hmm" insmod /modules/test_hmm.ko
rc=0
$prog $n >/tmp/hmm.out 2>&1 || rc=$?
sed 's/^/# /' /tmp/hmm.out
check_eq "hmm-migrate ran" 0 $rc
step() { awk -v s="$1" '$1 == s { print $2, $3, $4, $5 }' /tmp/hmm.out; }
check_eq "to device: a backing page each, counted" "$b $n 0 0" "$(step to_dev)"
check_eq "back by ioctl: backing pages freed, new pages counted" "0 0 $b $n" "$(step to_sys)"
check_eq "to device again: the new pages freed" "$b $n 0 0" "$(step to_dev_again)"
check_eq "back by CPU faults" "0 0 $b $n" "$(step cpu_fault)"
# A page faulted back on one CPU may still sit in another CPU's LRU batch,
# which holds a reference to it until that batch is drained: drain every
# CPU's (drop_caches does) before counting what is left.
echo 1 >/proc/sys/vm/drop_caches
left() {
	awk -v w="[test_hmm] func:$1 " 'index($0, w) { b += $1; c += $2 }
		END { print b + 0, c + 0 }' /proc/allocinfo
}
check_eq "unmapped and closed: nothing left" "0 0 0 0" \
	"$(left dmirror_devmem_alloc_page) $(left dmirror_devmem_fault_alloc_and_copy)"
check "unload test_hmm" rmmod test_hmm
check_eq "no test_hmm line left" 0 "$(grep -c '\[test_hmm\]' /proc/allocinfo || true)"
ktap_done
