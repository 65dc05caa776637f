# A page allocated by a module parameter's set callback while the module
# loads ("insmod paramalloc.ko alloc=1"), before the kernel has set up the
# module's allocation tags, must be counted once on the module's line in
# /proc/allocinfo and uncounted when freed, with no oops or warning.
# Stock 7.3 oopses in __pgalloc_tag_add here (module tags get their per-cpu
# counters only after parameters are parsed), so stock variants skip it.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
case ${VARIANT:-} in
stock*)
	diag "stock 7.3 oopses on a parameter's allocation at load: not run on $VARIANT"
	exit 2 ;;
esac
site="[paramalloc] func:paramalloc_set"
param=/sys/module/paramalloc/parameters/alloc

# After an oops the kernel may be unusable: say what happened and stop.
bail_if_trouble() {
	if trouble >/tmp/trouble.out; then
		not_ok "$1: no oops, BUG or warning"
		dmesg | tail -n +$((dmesg_base + 1)) | sed 's/^/# /' | head -n 60
		ktap_done
		exit 1
	fi
}

# insmod runs in the background so an oops (which kills it, or leaves it
# stuck) is reported instead of hanging the test.
insmod /modules/paramalloc.ko alloc=1 >/tmp/insmod.out 2>&1 &
pid=$!
waited=0
while kill -0 $pid 2>/dev/null && [ $waited -lt 60 ]; do
	trouble >/dev/null && break
	sleep 1
	waited=$((waited + 1))
done
bail_if_trouble "insmod paramalloc.ko alloc=1"
if kill -0 $pid 2>/dev/null; then
	not_ok "insmod paramalloc.ko alloc=1 finished within 60 s"
	ktap_done
	exit 1
fi
rc=0
wait $pid || rc=$?
sed 's/^/# insmod: /' /tmp/insmod.out
check_eq "insmod paramalloc.ko alloc=1 exit status" 0 "$rc"
[ $rc = 0 ] || { ktap_done; exit 1; }

grep -F "$site" /proc/allocinfo | sed 's/^/# /' || true
check_eq "one allocinfo line for the call site" 1 "$(grep -cF "$site" /proc/allocinfo || true)"
check_eq "page from the load-time parameter counted once" \
	"4096 1" "$(tag_counters "$site")"
check_eq "parameter reads back 1" 1 "$(cat $param)"
echo 0 >$param
check_eq "freed through the parameter: back to zero" "0 0" "$(tag_counters "$site")"
echo 1 >$param
check_eq "allocated through sysfs after load: counted once" \
	"4096 1" "$(tag_counters "$site")"
check "unload paramalloc (frees its page)" rmmod paramalloc
check_eq "call site zero or gone after unload" "0 0" "$(tag_counters "$site")"
bail_if_trouble "the whole test"
ok "no oops, BUG or warning in dmesg"
ktap_done
