#!/bin/bash
# Everything checked: host tests, link-tags, the patched kernel variants
# built, booted and tested in QEMU.  Prints one line per test and closes
# with "N passed, N failed, N skipped"; exits non-zero on any failure.
# Usage: scripts/test.sh   (VARIANTS and BOOTS from the environment)
set -eu
. "$(dirname "$0")/lib.sh"

# The fork's x86_64 test kernels.  make test-stock adds stock-distro: stock
# 7.3 on Debian's page-flag budget, booted as the reference the fork's
# accounting must match and to show "compressed" switching profiling off
# there (a seven-minute build that checks stock, not the series).
VARIANTS=${VARIANTS:-fork fork-distro}
# Guest test boots: NAME:VARIANT:FORM[:KERNEL ARGS], FORM being where pages
# keep their tag reference ("off": profiling switched off).  The fork in its
# pointer and flags forms, and on Debian's budget, where it falls back to
# page_ext (its third form) and runs under lockdep and KASAN
# (kernel/configs/prove.config); stock's boots when stock-distro is built.
if [ -z "${BOOTS:-}" ]; then
	case " $VARIANTS " in
	*" stock-distro "*) BOOTS="stock-pointer:stock-distro:pointer
	stock-compressed:stock-distro:off:sysctl.vm.mem_profiling=1,compressed" ;;
	*) BOOTS="" ;;
	esac
	BOOTS="$BOOTS
	pointer:fork:pointer
	flags:fork:flags:sysctl.vm.mem_profiling=1,compressed
	distro:fork-distro:page_ext:sysctl.vm.mem_profiling=1,compressed"
fi
# Other architectures.  arm64: the fork cross-built and booted on QEMU's
# virt machine (TCG) in its flags form, whose field sits in arm64's own
# page-flags layout, with the same guest tests, KUnit and harness checks
# (the pointer and page_ext forms are arch-independent code, booted on
# x86_64; ARM64_BOOTS="arm64-pointer:fork-arm64:pointer ..." adds the
# pointer form); ARM64_BOOTS as BOOTS (NAME:VARIANT:FORM[:KERNEL ARGS]),
# empty to skip (stock-arm64 is there to boot by hand).
# CROSS_BUILDS: variants only built (i386: an ELF32 vmlinux, 32-byte
# tags, the KUnit tests where a long is 32 bits), empty to skip.  Each gets
# the tag map and real-kernel checks.  COMPILE_CHECKS: fragments with a
# "# build:" line (configurations compiled, never linked).
ARM64_BOOTS=${ARM64_BOOTS-arm64-flags:fork-arm64:flags:sysctl.vm.mem_profiling=1,compressed}
CROSS_BUILDS=${CROSS_BUILDS-fork-i386}
COMPILE_CHECKS=${COMPILE_CHECKS-fork-nomodules fork-noprof}
arm64_variants=$(for b in $ARM64_BOOTS; do IFS=: read -r _ v _ <<<"$b"; echo "$v"; done |
	awk '!seen[$0]++')
# The guests run their vCPUs on one host thread.  Under QEMU 7.2's
# multi-threaded TCG, an x86 guest that switches static keys while it
# allocates on two vCPUs executes an int3 that the kernel had already
# replaced, its patch batch finished and every CPU synchronized ("Oops:
# int3" in a patched branch of the allocation hook): a stale translation,
# which the same kernel never runs into with one TCG thread or one vCPU.
export QEMU_TCG=${QEMU_TCG-thread=single}
build_lock
logdir=$BUILD/test
rm -rf "$logdir" && mkdir -p "$logdir"
passed=0 failed=0 skipped=0 failures=()
t0=$(date +%s)

# phase NAME: start the next phase; phase_table prints each with its
# seconds, so that a slower build or boot shows in every log.
phases=() phase_name="" phase_t=$t0
phase_end() {
	[ -z "$phase_name" ] || phases+=("$(( $(date +%s) - phase_t )) $phase_name")
	phase_name=""
}
phase() {
	phase_end
	phase_name=$* phase_t=$(date +%s)
	printf '\n== %s (%ss elapsed)\n' "$*" "$(( phase_t - t0 ))"
}
phase_table() {
	local p
	phase_end
	printf '\n%8s  %s\n' seconds phase
	for p in "${phases[@]}" ${builds[@]+"${builds[@]}"}; do
		printf '%8s  %s\n' "${p%% *}" "${p#* }"
	done
	printf '%8s  %s\n' "$(( $(date +%s) - t0 ))" total
}
record() { # record KIND NAME
	case $1 in
	pass) passed=$((passed + 1)); echo "PASS $2" ;;
	skip) skipped=$((skipped + 1)); echo "SKIP $2" ;;
	*) failed=$((failed + 1)); failures+=("$2"); echo "FAIL $2" ;;
	esac
}
# run_test NAME COMMAND...: exit 0 pass, 2 skip, else fail (log shown).
run_test() {
	local name=$1 rc=0 log
	shift
	log=$logdir/$(echo "$name" | tr -c 'A-Za-z0-9._\n-' _).log
	"$@" >"$log" 2>&1 || rc=$?
	case $rc in
	0) record pass "$name" ;;
	2) record skip "$name ($(tail -1 "$log"))" ;;
	*) record fail "$name"; sed 's/^/    | /' "$log" | tail -30 ;;
	esac
}
# add_counts LOG NAME: add a sub-suite's "N passed, N failed[, N skipped]".
add_counts() {
	local p="" f s
	read -r p f s < <(grep -E '[0-9]+ passed, [0-9]+ failed' "$1" | tail -1 |
		sed -E 's/^(.*[^0-9])?([0-9]+) passed, ([0-9]+) failed(, ([0-9]+) skipped)?.*$/\2 \3 \5/') || true
	if [ -z "$p" ]; then record fail "$2: no closing count line"; return 1; fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + ${s:-0}))
	[ "$f" = 0 ] || failures+=("$2 ($f)")
}

phase "dependencies"
"$TOP/scripts/deps.sh" build cross qemu fuzz plugin ${ARM64_BOOTS:+arm64}

# First: the link-tags host tests build the tool with the kernel's
# scripts/elf-parse.c from this tree.
phase "kernel source"
src_ok=true
if ! "$TOP/scripts/kernel-src.sh"; then
	record fail "kernel source: patch series"
	src_ok=false
fi

# Every kernel builds in the background, one at a time on every core, in
# the order the boots below need them, while the host tests and the boots
# of the kernels built so far run: a boot leaves much of the machine idle,
# which the builds (niced, so that the guests keep their pace) take up.
# build-VARIANT.log is each build's output; build-VARIANT.done its exit
# status and seconds, written when it ends.
builder() {
	local v t rc
	for v in "$@"; do
		t=$(date +%s) rc=0
		nice -n 10 "$TOP/scripts/build-kernel.sh" "$v" >"$logdir/build-$v.log" 2>&1 </dev/null ||
			rc=$?
		echo "$rc $(( $(date +%s) - t ))" >"$logdir/build-$v.tmp"
		mv "$logdir/build-$v.tmp" "$logdir/build-$v.done"
	done
}
builder_pid=""
all_builds=$(echo $VARIANTS $arm64_variants $CROSS_BUILDS $COMPILE_CHECKS)
if $src_ok; then
	# shellcheck disable=SC2086
	builder $all_builds &
	builder_pid=$!
	# On exit (an interrupt among them) the build stops too, not only the
	# builder: its make and compilers are the builder's descendants.
	kill_tree() {
		local c
		for c in $(pgrep -P "$1" || true); do kill_tree "$c"; done
		kill "$1" 2>/dev/null || true
	}
	trap 'kill_tree "$builder_pid"' EXIT
fi
# built VARIANT: wait for its build (once), record it and show its log's
# summary (its tail when it failed); status 1 when it failed.  A variant
# this run does not build (VARIANTS set by hand) is left to what is there.
declare -A build_rc
builds=()
built() {
	local f=$logdir/build-$1.done rc secs
	case " $all_builds " in *" $1 "*) ;; *) return 0 ;; esac
	[ -z "${build_rc[$1]:-}" ] || return "${build_rc[$1]}"
	if [ ! -f "$f" ]; then
		phase "waiting for build $1"
		while [ ! -f "$f" ] && kill -0 "$builder_pid" 2>/dev/null; do sleep 2; done
	fi
	if [ ! -f "$f" ]; then
		record fail "build: $1 (the builder stopped before it)"
		build_rc[$1]=1
		return 1
	fi
	read -r rc secs <"$f"
	builds+=("$secs build $1 (background)")
	grep '^\[build-kernel.sh\]' "$logdir/build-$1.log" || true
	if [ "$rc" = 0 ]; then
		record pass "build: $1"
		build_rc[$1]=0
	else
		record fail "build: $1"
		tail -30 "$logdir/build-$1.log" | sed 's/^/    | /'
		build_rc[$1]=1
	fi
	return "${build_rc[$1]}"
}

phase "host tests"
for t in "$TOP"/scripts/tests/*.sh; do
	run_test "host: $(basename "$t" .sh)" "$t"
done
if [ -f "$TOP/scripts/link-tags/Makefile" ] && $src_ok; then
	rc=0
	# real-kernel runs below, once the kernel it reads is built
	make -s -C "$TOP/scripts/link-tags" test KSRC="$FORK_SRC" TESTS="-x real-kernel" \
		>"$logdir/link-tags.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL|SKIP)' "$logdir/link-tags.log" | sed 's/^/link-tags: /' || true
	before=$failed
	add_counts "$logdir/link-tags.log" link-tags || true
	if [ $rc != 0 ]; then
		tail -30 "$logdir/link-tags.log" | sed 's/^/    | /'
		[ "$failed" != "$before" ] || record fail "link-tags: make test exited $rc"
	fi
fi

if ! $src_ok; then
	phase_table
	echo; echo "$passed passed, $failed failed, $skipped skipped"; exit 1
fi
phase "checkpatch"
run_test "kernel: checkpatch --strict" "$TOP/scripts/checkpatch.sh"

# Tests of built kernels and boots: scripts/tests/kernel/, each run here
# once what it reads exists.
phase "series checks"
ktest=$TOP/scripts/tests/kernel
# Variants built from the fork with profiling: the series ran link-tags.
indexed() { [ -f "$BUILD/kernel-$1/include/generated/alloc_tag_layout.h" ] &&
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$BUILD/kernel-$1/.config"; }
# kernel_checks VARIANT: once built, its tag map and the real-kernel test
kernel_checks() {
	indexed "$1" || return 0
	phase "checks of $1"
	run_test "kernel: $1 vmlinux.tagmap matches System.map" "$ktest/tagmap.sh" "$1"
	run_test "link-tags: real vmlinux of $1" env \
		LINK_TAGS_KBUILD="$BUILD/kernel-$1" sh "$TOP/scripts/link-tags/tests/lib/run.sh" real-kernel
}
# x86_built VARIANT: built (its checks run the first time); 1 if it failed
declare -A checked
x86_built() {
	built "$1" || return 1
	[ -n "${checked[$1]:-}" ] && return 0
	checked[$1]=1
	kernel_checks "$1"
	# make bench's initramfs: from the first x86_64 variant built
	[ -z "${bench_initramfs:-}" ] || return 0
	bench_initramfs=$1
	run_test "harness: a measured boot's initramfs leaves the guest tests out ($1)" \
		"$ktest/initramfs-bench.sh" "$1"
}
run_test "link-tags: the series carries scripts/link-tags/link-tags.c unchanged" \
	cmp "$TOP/scripts/link-tags/link-tags.c" "$FORK_SRC/scripts/link-tags.c"
# make bench builds the attribution row's kernel with this patch on the
# series: a series change that breaks it would stop make results.
run_test "benchmarks/kernel/number-tags-at-boot.patch applies on the series" \
	git -C "$FORK_SRC" apply --check "$TOP/benchmarks/kernel/number-tags-at-boot.patch"
# ... and the attribution rows' trees from the heads of postings (in a
# subshell: lib.sh's die exits).
postings_found() ( posting_commit "$FIXES_POSTING" >/dev/null && posting_commit "$PRETAG_POSTING" >/dev/null )
run_test "kernel/patches/series names postings $FIXES_POSTING and $PRETAG_POSTING, in the series" postings_found

# boot_tests NAME:VARIANT:FORM[:ARGS] [TEST...]: boot the x86_64 VARIANT
# and run the guest tests (all, or those named), each result one of ours.
boot_tests() {
	local name v form args rc=0
	IFS=: read -r name v form args <<<"$1"
	shift
	x86_built "$v" || true
	phase "boot $name ($v${args:+, $args})"
	[ -f "$BUILD/kernel-$v/arch/x86/boot/bzImage" ] || { record fail "boot $name: no kernel"; return; }
	# A 256 MiB DIMM for 58-hotremove, two NUMA nodes for 78-nodes and a
	# third with the DIMM's memory only (kernels without ACPI see none of
	# them).  The timeout is a hang's: the kernels build meanwhile, and
	# the lockdep and KASAN kernel (fork-distro) takes 8 to 12 minutes.
	"$TOP/scripts/boot.sh" -k "$v" -s 2 -N 2 -q -t 1800 -o "$logdir/boot-$name" -d 256M \
		-e BOOT="$name" -e FORM="$form" ${args:+-A "$args"} -- run-tests "$@" || rc=$?
	"$TOP/scripts/ktap.py" --prefix "$name" "$logdir/boot-$name/guest.log" \
		>"$logdir/boot-$name.ktap" || true
	grep -E '^(PASS|FAIL|SKIP)' "$logdir/boot-$name.ktap" || true
	add_counts "$logdir/boot-$name.ktap" "boot $name" || true
	[ $rc = 0 ] || [ $rc = 1 ] || record fail "boot $name: harness exit $rc"
	# Built-in KUnit suites report on the kernel console.
	if grep -q '^CONFIG_KUNIT=y' "$BUILD/kernel-$v/.config"; then
		"$TOP/scripts/ktap.py" --prefix "$name kunit" \
			"$logdir/boot-$name/console.log" >"$logdir/boot-$name.kunit" || true
		grep -E '^(PASS|FAIL|SKIP)' "$logdir/boot-$name.kunit" || true
		add_counts "$logdir/boot-$name.kunit" "boot $name kunit" || true
	fi
}
for b in $BOOTS; do
	boot_tests "$b"
done
# Selective profiling: the fork booted with "only=" in two forms, and with
# a bad term, for its test (74-only) and the dmesg check: the other tests
# count every tag.
ONLY_BOOTS=${ONLY_BOOTS-only-flags:fork:flags:sysctl.vm.mem_profiling=1,compressed,only=func:dup_mm;func:alloctest_pages;file:kernel/fork.c
	only-pointer:fork:pointer:sysctl.vm.mem_profiling=1,only=mod:alloctest;func:dup_mm;mod:shmem
	only-bad:fork:flags:sysctl.vm.mem_profiling=1,compressed,only=func:dup_mm;size:64}
for b in $ONLY_BOOTS; do
	boot_tests "$b" 74-only.sh 90-dmesg.sh
done

for v in $VARIANTS; do
	x86_built "$v" || true
done
# BOOTS unquoted: one argument a boot, as the loop above splits them.
phase "boot checks"
run_test "accounting identical in every representation" "$ktest/same-accounting.sh" "$logdir" $BOOTS
run_test "alloctop's OpenMetrics output: promtool, unique series, build ID" \
	"$ktest/openmetrics.sh" "$logdir" $BOOTS
case " $VARIANTS " in
*" fork "*) run_test "fleet: Prometheus sums a tag over two guests as they count it" \
	"$ktest/fleet.sh" "$logdir" fork ;;
esac

case " $VARIANTS " in
*" fork-distro "*) run_test "distro.config has Debian amd64's page-flag budget" "$ktest/distro-budget.sh" ;;
esac

phase "boot harness"
hv=${VARIANTS##* }
x86_built "$hv" || true
# harness NAME EXPECTED-RC EXPECTED-TEXT BOOT-ARGS...: the harness check on
# the last variant built (NAME documents the call).
harness() { shift; "$ktest/harness.sh" "$hv" "$logdir/harness" "$@"; }
run_test "harness: guest exit status comes back" harness exit 7 "" -- 'exit 7'
run_test "harness: panic is reported (125)" harness panic 125 "Kernel panic" \
	-A rdinit=/nonexistent -- true
run_test "harness: hang is killed at the timeout (124)" harness hang 124 "" \
	-t 15 -- 'sleep 600'

# Other architectures (ARM64_BOOTS, CROSS_BUILDS above).
# cross_build VARIANT: its build, and its tag map checked when it is indexed.
cross_build() {
	built "$1" || return 0
	kernel_checks "$1"
}
# ktap_count LOG PREFIX OUT: results of a KTAP log, counted.
ktap_count() {
	"$TOP/scripts/ktap.py" --prefix "$2" "$1" >"$3" || true
	grep -E '^(PASS|FAIL|SKIP)' "$3" || true
	add_counts "$3" "boot $2" || true
}
# harness_arm64 NAME EXPECTED-RC EXPECTED-TEXT BOOT-ARGS...: as harness, on
# the last arm64 variant of ARM64_BOOTS, in a directory of its own per NAME.
harness_arm64() { local o=$logdir/harness-arm64-$1; shift; "$ktest/harness.sh" "$a64" "$o" "$@"; }
if [ -n "$ARM64_BOOTS" ]; then
	seen=" "
	for b in $ARM64_BOOTS; do
		IFS=: read -r name a64 form args <<<"$b"
		case $seen in *" $a64 "*) ;; *)
			seen="$seen$a64 "
			cross_build "$a64" ;;
		esac
		phase "boot $name ($a64${args:+, $args})"
		[ -f "$BUILD/kernel-$a64/arch/arm64/boot/Image" ] || { record fail "boot $name: no kernel"; continue; }
		rc=0
		"$TOP/scripts/boot.sh" -k "$a64" -s 2 -q -t 1200 -o "$logdir/boot-$name" \
			-e BOOT="$name" -e FORM="$form" ${args:+-A "$args"} -- run-tests || rc=$?
		ktap_count "$logdir/boot-$name/guest.log" "$name" "$logdir/boot-$name.ktap"
		[ $rc = 0 ] || [ $rc = 1 ] || record fail "boot $name: harness exit $rc"
		! grep -q '^CONFIG_KUNIT=y' "$BUILD/kernel-$a64/.config" ||
			ktap_count "$logdir/boot-$name/console.log" "$name kunit" "$logdir/boot-$name.kunit"
	done
	phase "boot harness arm64"
	run_test "harness arm64: guest exit status comes back" harness_arm64 exit 7 "" -- 'exit 7'
	run_test "harness arm64: panic is reported (125)" harness_arm64 panic 125 "Kernel panic" \
		-A rdinit=/nonexistent -- true
	run_test "harness arm64: hang is killed at the timeout (124)" harness_arm64 hang 124 "" \
		-t 60 -- 'sleep 600'
fi
for v in $CROSS_BUILDS; do
	cross_build "$v"
done
for v in $COMPILE_CHECKS; do
	built "$v" || true
done
[ -z "$builder_pid" ] || wait "$builder_pid" || true

phase_table
echo
[ ${#failures[@]} = 0 ] || printf 'failed: %s\n' "${failures[@]}"
echo "test time: $(( $(date +%s) - t0 ))s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
