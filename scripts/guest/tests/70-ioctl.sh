# Upstream's kselftest of the /proc/allocinfo ioctls
# (tools/testing/selftests/alloc_tag/allocinfo_ioctl_test.c, built static by
# mkinitramfs.sh from the variant's source).  It takes no arguments and
# needs no module: it compares what the ioctls return, filtered by file
# (mm/memory.c), function (dup_mm, do_init_module) and line, against
# /proc/allocinfo, which only root may open.  Each of its results becomes
# one of ours; its whole output is shown as diagnostics.
set -eu
. /guest/ktap.sh
[ -e /proc/allocinfo ] || { diag "profiling compiled out"; exit 2; }
[ "$(id -u)" = 0 ] || { diag "the selftest must run as root"; exit 2; }

run_selftest ioctl
ktap_done
