#!/bin/bash
# Boot a built kernel variant in QEMU, run one command in the guest and
# return its exit status.  Guest output (ttyS1) streams to stdout and to
# OUT/guest.log; the kernel console (ttyS0) goes to OUT/console.log.
# An arm64 variant (CONFIG_ARM64=y in its .config) boots on QEMU's virt
# machine (TCG, Cortex-A57): its one UART (ttyAMA0) is the console and the
# guest output goes to a virtio console (hvc0).
# With --icount a run repeats exactly: the guest sees a fixed initramfs
# (mtimes and inode numbers normalized), a fixed RTC on the virtual clock,
# and both serial ports write files (a stdio port wakes QEMU's main loop on
# the host's timing), so its output is printed when the guest ends.
set -eu
. "$(dirname "$0")/lib.sh"

usage() {
	cat <<USAGE
usage: ${0##*/} [options] [--] GUEST-COMMAND...
  -k, --variant V    kernel from $BUILD/kernel-V (default: fork)
  -m, --mem SIZE     guest memory, QEMU syntax (default: 1G)
  -d, --dimm SIZE    x86_64: one hot-pluggable pc-dimm of SIZE besides it, for
                     the guest to online, offline and eject through ACPI
  -s, --smp N        vCPUs (default: 1)
  -N, --numa N       x86_64: N NUMA nodes, the memory split evenly and the
                     vCPUs dealt out in turn, and with -d one more node
                     with no memory but the DIMM's (ACPI SRAT: the kernel
                     needs CONFIG_ACPI_NUMA to see them)
  -a, --accel A      auto, kvm or tcg (default: auto: KVM only if a probe boot works)
  -i, --icount       deterministic guest: TCG with -icount shift=0,sleep=off, a
                     fixed RTC and initramfs; guest output printed at the end
  -t, --timeout SEC  kill the guest after SEC seconds (default: 600)
  -A, --append ARGS  extra kernel command line
  -e, --env K=V      environment for the guest command (repeatable)
  -o, --out DIR      log directory (default: $BUILD/boot/VARIANT)
  -p, --perf         put perf into the initramfs
  -q, --quiet        do not stream guest output
environment: QEMU_EXTRA, more QEMU arguments (e.g. "-gdb tcp::1234");
QEMU_TCG, properties of the TCG accelerator (e.g. "thread=single")
exit status: the guest command's; 124 timeout (hang); 125 the kernel died
(panic, reboot) before the command finished; 126 harness error.
USAGE
	exit "${1:-126}"
}

variant=fork mem=1G smp=1 accel=auto icount=0 timeout=600 append=""
out="" perf="" quiet=0 envs=() dimm="" numa=0
while [ $# -gt 0 ]; do
	case "$1" in
	-k|--variant) variant=$2; shift 2 ;;
	-m|--mem) mem=$2; shift 2 ;;
	-d|--dimm) dimm=$2; shift 2 ;;
	-s|--smp) smp=$2; shift 2 ;;
	-N|--numa) numa=$2; shift 2 ;;
	-a|--accel) accel=$2; shift 2 ;;
	-i|--icount) icount=1; shift ;;
	-t|--timeout) timeout=$2; shift 2 ;;
	-A|--append) append="$append $2"; shift 2 ;;
	-e|--env) envs+=("$2"); shift 2 ;;
	-o|--out) out=$2; shift 2 ;;
	-p|--perf) perf=--perf; shift ;;
	-q|--quiet) quiet=1; shift ;;
	-h|--help) usage 0 ;;
	--) shift; break ;;
	-*) echo "${0##*/}: unknown option $1" >&2; usage ;;
	*) break ;;
	esac
done
[ $# -gt 0 ] || set -- true
trap 'exit 126' ERR

arch=$(variant_arch "$variant")
kernel=$BUILD/kernel-$variant/$(kernel_image "$arch")
[ -f "$kernel" ] || { log "no kernel $kernel (build it: make build VARIANTS=$variant)"; exit 126; }
out=${out:-$BUILD/boot/$variant}
mkdir -p "$out"
# The machine, its console and the guest command's output port.
case $arch in
arm64)
	qemu=qemu-system-aarch64 qemu_pkg=qemu-system-arm console=ttyAMA0 guest_tty=hvc0
	machine=(-M virt -cpu cortex-a57 -smp "$smp")
	;;
*)
	qemu=qemu-system-x86_64 qemu_pkg=qemu-system-x86 console=ttyS0 guest_tty=ttyS1
	# One vCPU a socket: SeaBIOS's MP table (the tiny config has no
	# ACPI) lists one entry a package, so "-smp 2" alone would show one CPU.
	machine=(-smp "$smp,sockets=$smp")
	;;
esac
memargs=(-m "$mem")
numaargs=() dimm_node=""
if [ "$numa" -gt 1 ]; then
	[ "$arch" = x86_64 ] || { log "--numa: x86_64 guests only"; exit 126; }
	case $mem in
	*G) mib=$((${mem%G} * 1024)) ;;
	*M) mib=${mem%M} ;;
	*) log "--numa: memory size '$mem' is not in M or G"; exit 126 ;;
	esac
	[ $((mib % numa)) = 0 ] || { log "--numa: $mem does not split into $numa nodes"; exit 126; }
	for ((i = 0; i < numa; i++)); do
		numaargs+=(-object "memory-backend-ram,id=numa$i,size=$((mib / numa))M"
			   -numa "node,nodeid=$i,memdev=numa$i")
	done
	for ((i = 0; i < smp; i++)); do
		numaargs+=(-numa "cpu,node-id=$((i % numa)),socket-id=$i")
	done
	# The DIMM's node: its memory only, so that it can go offline whole.
	if [ -n "$dimm" ]; then
		dimm_node=$numa
		numaargs+=(-numa "node,nodeid=$dimm_node")
	fi
fi
if [ -n "$dimm" ]; then
	[ "$arch" = x86_64 ] || { log "--dimm: x86_64 guests only"; exit 126; }
	# maxmem only reserves guest-physical room for the slot.
	memargs=(-m "$mem,slots=1,maxmem=64G"
		-object "memory-backend-ram,id=dimm0,size=$dimm"
		-device "pc-dimm,id=dimm0dev,memdev=dimm0${dimm_node:+,node=$dimm_node}")
fi
memargs+=(${numaargs[@]+"${numaargs[@]}"})
command -v $qemu >/dev/null || { log "$qemu missing (install $qemu_pkg)"; exit 126; }

# Initramfs: the variant's base archive plus a small one with the command.
base=$out/base.cpio
"$TOP/scripts/mkinitramfs.sh" "$variant" "$base" $perf
cmdroot=$(mktemp -d)
printf '%s\n' "$*" >"$cmdroot/cmd"
{
	echo "export VARIANT='$variant'"
	# init writes the command's output there (ttyS1 when unset).
	[ $guest_tty = ttyS1 ] || echo "export GUEST_TTY=$guest_tty"
	for e in ${envs[@]+"${envs[@]}"}; do printf 'export %q\n' "$e"; done
} >"$cmdroot/cmd.env"
(cd "$cmdroot" && printf 'cmd\ncmd.env\n' | cpio -o -H newc --quiet -R 0:0) >"$out/cmd.cpio"
rm -rf "$cmdroot"
cat "$base" "$out/cmd.cpio" >"$out/initramfs.cpio"
# Under icount the archive's bytes are guest input: make them repeat.
if [ $icount = 1 ]; then
	python3 "$TOP/scripts/cpio-normalize.py" "$out/initramfs.cpio" "$out/initramfs.tmp"
	mv "$out/initramfs.tmp" "$out/initramfs.cpio"
fi

# KVM only when a probe boot shows it works (nested KVM can hang here).
probe_kvm() {
	local cache=$BUILD/kvm-probe
	[ -f "$cache" ] && { cat "$cache"; return; }
	local r=tcg
	if [ -w /dev/kvm ]; then
		log "probing KVM with a 20 s test boot"
		if timeout -k 2 20 qemu-system-x86_64 -accel kvm -m 256M -kernel "$kernel" \
			-initrd "$out/initramfs.cpio" -append "console=ttyS0 panic=-1" \
			-display none -monitor none -no-reboot -serial null \
			-serial file:"$out/kvm-probe.log" </dev/null >/dev/null 2>&1 &&
			grep -q '@@GUEST-EXIT' "$out/kvm-probe.log"; then
			r=kvm
		fi
	fi
	echo "$r" >"$cache"
	echo "$r"
}
[ $icount = 1 ] && { [ "$accel" = kvm ] && { log "--icount needs TCG"; exit 126; }; accel=tcg; }
# A foreign architecture runs on TCG only.
if [ "$arch" != x86_64 ]; then
	[ "$accel" != kvm ] || { log "$arch guests run on TCG only"; exit 126; }
	accel=tcg
fi
[ "$accel" = auto ] && accel=$(probe_kvm)
case "$accel" in
kvm) accel_args=(-accel kvm -cpu host) ;;
tcg) accel_args=(-accel "tcg${QEMU_TCG:+,$QEMU_TCG}") ;;
*) log "unknown accelerator $accel"; exit 126 ;;
esac
# icount: guest time counts instructions, and the RTC runs on that clock
# from a fixed date instead of reading the host's wall clock at boot.
[ $icount = 1 ] && accel_args+=(-icount shift=0,sleep=off
	-rtc base=2025-01-01T00:00:00,clock=vm)
echo "$accel" >"$out/accel"

mode=$accel; [ $icount = 1 ] && mode="$accel, icount"
log "booting $variant ($arch): $mode, $mem, $smp vCPU(s), timeout ${timeout}s"
: >"$out/console.log"
# run_qemu GUEST-PORT: the console to console.log, the guest command's
# output to GUEST-PORT ("stdio" or "file:PATH"): the second serial port on
# x86, a virtio console on arm64's virt (a chardev of that backend).
run_qemu() {
	local port
	if [ $guest_tty = ttyS1 ]; then
		port=(-serial "$1")
	else
		case $1 in
		stdio) port=(-chardev stdio,id=guest) ;;
		file:*) port=(-chardev file,id=guest,path="${1#file:}") ;;
		esac
		port+=(-device virtio-serial-device -device virtconsole,chardev=guest)
	fi
	timeout -k 5 "$timeout" $qemu "${accel_args[@]}" "${machine[@]}" \
		"${memargs[@]}" -kernel "$kernel" -initrd "$out/initramfs.cpio" \
		-append "console=$console panic=-1 loglevel=7 $append" \
		-display none -monitor none -no-reboot -nodefaults \
		-serial file:"$out/console.log" "${port[@]}" ${QEMU_EXTRA:-} </dev/null
}
set +e
if [ $icount = 1 ]; then
	: >"$out/guest.log"
	qemu_rc=0
	run_qemu file:"$out/guest.log" || qemu_rc=$?
	[ $quiet = 1 ] || cat "$out/guest.log"
else
	run_qemu stdio |
		if [ $quiet = 1 ]; then cat >"$out/guest.log"; else tee "$out/guest.log"; fi
	qemu_rc=${PIPESTATUS[0]}
fi
set -e

console_tail() {
	log "last console lines ($out/console.log):"
	tail -n 25 "$out/console.log" | sed 's/^/    /' >&2
}
if [ "$qemu_rc" = 124 ] || [ "$qemu_rc" = 137 ]; then
	log "guest timed out after ${timeout}s and was killed"
	console_tail
	exit 124
fi
rc=$(sed -n 's/^@@GUEST-EXIT \([0-9]*\)$/\1/p' "$out/guest.log" | tail -1)
if [ -z "$rc" ]; then
	if grep -q 'Kernel panic' "$out/console.log"; then
		log "guest kernel panicked"
	else
		log "guest stopped before its command finished (QEMU exit $qemu_rc)"
	fi
	console_tail
	exit 125
fi
exit "$rc"
