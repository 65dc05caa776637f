# Flags that leave with their module, and who may set them.
# - A captured tag's flags leave when its module is unloaded, or once the
#   module's last allocation is freed after the unload: the static keys
#   follow (debug option's alloc_tag/keys), so that frees stop testing
#   for capture and the page-flags free hook's key comes back.
# - An unloaded module's lines go once its allocations are freed, with no
#   reader of /proc/allocinfo to trigger it: module_area (debugfs) is read,
#   never /proc/allocinfo, between the free and the check.
# - ALLOCINFO_IOC_SET_FLAGS takes CAP_SYS_ADMIN from the file's opener, not
#   from the caller (setflags-cred drops and restores it with capset).
set -eu
. /guest/ktap.sh
need_tag_flags
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl
keep=/sys/kernel/debug/tagkeep/ctl
keys=/sys/kernel/debug/alloc_tag/keys
why="no alloc_tag/keys (debug option off)"
aliases() { sed -n 's/.* aliases:\([0-9]*\).*/\1/p' $keys; }

# The nodes aliases an earlier test left go once their memory is freed
# and the reaper has run; while one is left, alloc_tag/keys counts it.
if [ -r $keys ] && [ "$(wait_for 0 aliases)" != 0 ]; then
	diag "nodes aliases still count live memory: $(cat $keys)"
	keys=/nonexistent why="an earlier test's nodes aliases still count live memory"
fi

check "load alloctest" insmod /modules/alloctest.ko
sites=$(grep -c '\[alloctest\]' /proc/allocinfo)
check_eq "capture on every alloctest site" "alloctop: $sites site(s) changed" \
	"$($at -S capture -m alloctest 2>&1)"
if [ -r $keys ]; then
	check_eq "the capture key on" "ctl:1 capture:1 flags_untraced:0 flagged:$sites captured:$sites aliases:0" \
		"$(cat $keys)"
	check "unload alloctest, nothing allocated" rmmod alloctest
	check_eq "its flags gone with it: every key off" "$keys_off" "$(wait_for "$keys_off" cat $keys)"
else
	skip "the keys follow a module's unload" "$why"
	check "unload alloctest, nothing allocated" rmmod alloctest
fi

check "load tagkeep and alloctest" sh -c \
	"insmod /modules/tagkeep.ko && insmod /modules/alloctest.ko"
$at -S capture -m alloctest >/dev/null
echo "pages 0 4" >$ctl
check "pages handed to tagkeep" sh -c "echo stash >$ctl"
check "unload alloctest with its pages alive" rmmod alloctest
check_eq "its range of the tag area is kept" 1 "$(unloaded_ranges)"
echo free >$keep
check_eq "freed: the range goes with no reader of /proc/allocinfo" 0 \
	"$(wait_for 0 unloaded_ranges)"
if [ -r $keys ]; then
	check_eq "and the flags with it: every key off" "$keys_off" "$(wait_for "$keys_off" cat $keys)"
else
	skip "the keys follow a module's reaping" "$why"
fi
check_eq "no alloctest line left" 0 "$(grep -cF '[alloctest]' /proc/allocinfo || true)"

check "load alloctest" insmod /modules/alloctest.ko
if [ -x /guest/progs/setflags-cred ]; then
	/guest/progs/setflags-cred alloctest >/tmp/cred.out 2>&1 || true
	sed 's/^/# /' /tmp/cred.out
	check_eq "opened with CAP_SYS_ADMIN, called without: allowed" ok \
		"$(awk '$1 == "opened-with" { print $3 }' /tmp/cred.out)"
	check_eq "opened without, called with: refused" EPERM \
		"$(awk '$1 == "opened-without" { print $3 }' /tmp/cred.out)"
else
	skip "SET_FLAGS asks the opener" "no /guest/progs/setflags-cred"
fi
check "unload alloctest and tagkeep" sh -c "rmmod alloctest && rmmod tagkeep"
if [ -r $keys ]; then
	check_eq "every key off at the end" "$keys_off" "$(wait_for "$keys_off" cat $keys)"
fi
tr=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$tr"
ktap_done
