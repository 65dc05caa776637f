#!/bin/bash
# Everything checked: host tests, link-tags, the patched kernel variants
# built, booted and tested in QEMU.  Prints one line per test and closes
# with "N passed, N failed, N skipped"; exits non-zero on any failure.
# Usage: scripts/test.sh   (VARIANTS and BOOTS from the environment)
set -eu
. "$(dirname "$0")/lib.sh"

VARIANTS=${VARIANTS:-off pointer}
# Guest test boots: NAME:VARIANT[:KERNEL ARGS]
BOOTS=${BOOTS:-off:off pointer:pointer
	compact:pointer:sysctl.vm.mem_profiling=1,compact
	compact-ext:pointer:sysctl.vm.mem_profiling=1,compact-ext}
logdir=$BUILD/test
rm -rf "$logdir" && mkdir -p "$logdir"
passed=0 failed=0 skipped=0 failures=()
t0=$(date +%s)

phase() { printf '\n== %s (%ss elapsed)\n' "$*" "$(( $(date +%s) - t0 ))"; }
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
"$TOP/scripts/deps.sh" build qemu fuzz

phase "host tests"
for t in "$TOP"/scripts/tests/*.sh; do
	run_test "host: $(basename "$t" .sh)" "$t"
done
if [ -f "$TOP/scripts/link-tags/Makefile" ]; then
	rc=0
	# real-kernel runs below, once the kernel it reads is built
	make -s -C "$TOP/scripts/link-tags" test TESTS="-x real-kernel" \
		>"$logdir/link-tags.log" 2>&1 || rc=$?
	grep -E '^(PASS|FAIL|SKIP)' "$logdir/link-tags.log" | sed 's/^/link-tags: /' || true
	before=$failed
	add_counts "$logdir/link-tags.log" link-tags || true
	if [ $rc != 0 ]; then
		tail -30 "$logdir/link-tags.log" | sed 's/^/    | /'
		[ "$failed" != "$before" ] || record fail "link-tags: make test exited $rc"
	fi
fi

phase "kernel source"
if ! "$TOP/scripts/kernel-src.sh"; then
	record fail "kernel source: patch series"
	echo; echo "$passed passed, $failed failed, $skipped skipped"; exit 1
fi
run_test "kernel: checkpatch --strict" "$TOP/scripts/checkpatch.sh"

for v in $VARIANTS; do
	phase "build $v"
	if "$TOP/scripts/build-kernel.sh" "$v"; then
		record pass "build: $v"
	else
		record fail "build: $v"
	fi
done

# The series runs link-tags in the kernel build: its tag map must cover
# exactly the tags between the start and stop symbols of System.map.
tagmap_check() {
	local kb=$BUILD/kernel-$1 size start stop n
	size=$(awk '$2 == "ALLOC_TAG_SIZE" { print $3 }' "$kb/include/generated/alloc_tag_layout.h")
	start=$(awk '$3 == "__start_alloc_tags" { print $1 }' "$kb/System.map")
	stop=$(awk '$3 == "__stop_alloc_tags" { print $1 }' "$kb/System.map")
	n=$(( (0x$stop - 0x$start) / size ))
	echo "System.map: $n tags of $size bytes"
	[ "$n" -gt 100 ] && [ "$(grep -vc '^#' "$kb/vmlinux.tagmap")" = "$n" ] &&
		[ "$(sed -n 2p "$kb/vmlinux.tagmap" | cut -f1)" = 2 ] &&
		[ "$(tail -1 "$kb/vmlinux.tagmap" | cut -f1)" = $((n + 1)) ] &&
		[ -f "$kb/extmod/alloctest/alloctest.ko.tagmap" ]
}
for v in $VARIANTS; do
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$BUILD/kernel-$v/.config" 2>/dev/null || continue
	run_test "kernel: $v vmlinux.tagmap matches System.map" tagmap_check "$v"
done

for v in $VARIANTS; do
	grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$BUILD/kernel-$v/.config" 2>/dev/null || continue
	run_test "link-tags: real vmlinux and modules of $v" env \
		LINK_TAGS_KBUILD="$BUILD/kernel-$v" sh "$TOP/scripts/link-tags/tests/lib/run.sh" real-kernel
done

for b in $BOOTS; do
	IFS=: read -r name v args <<<"$b"
	phase "boot $name ($v${args:+, $args})"
	[ -f "$BUILD/kernel-$v/arch/x86/boot/bzImage" ] || { record fail "boot $name: no kernel"; continue; }
	rc=0
	"$TOP/scripts/boot.sh" -k "$v" -s 2 -q -t 600 -o "$logdir/boot-$name" \
		-e BOOT="$name" ${args:+-A "$args"} -- run-tests || rc=$?
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
done

# The same workload must account the same in every representation: the
# values that the accounting tests read back (check_eq prints each as
# "# got: ...") must match line for line across the boots that profile.
got_values() { # got_values GUEST-LOG: the values of the accounting tests
	awk '/^    # Subtest: / { t = $3 }
		/^    # got: / && (t == "20-module-tags" || t == "45-thp") { print t ": " substr($0, 12) }' "$1"
}
same_accounting() {
	local ref="" b name v args
	for b in $BOOTS; do
		IFS=: read -r name v args <<<"$b"
		grep -q '^CONFIG_MEM_ALLOC_PROFILING=y' "$BUILD/kernel-$v/.config" 2>/dev/null || continue
		got_values "$logdir/boot-$name/guest.log" >"$logdir/got-$name.txt"
		[ -s "$logdir/got-$name.txt" ] || { echo "$name: no values"; return 1; }
		if [ -z "$ref" ]; then
			ref=$name
		elif ! diff -u "$logdir/got-$ref.txt" "$logdir/got-$name.txt"; then
			return 1
		fi
		echo "$name: $(wc -l <"$logdir/got-$name.txt") values"
	done
	[ -n "$ref" ]
}
run_test "accounting identical in every representation" same_accounting

phase "boot harness"
hv=${VARIANTS##* }
harness() { # harness NAME EXPECTED-RC EXPECTED-TEXT BOOT-ARGS...
	local rc=0 want=$2 text=$3
	shift 3
	"$TOP/scripts/boot.sh" -k "$hv" -q -o "$logdir/harness" "$@" || rc=$?
	[ "$rc" = "$want" ] || { echo "exit $rc, expected $want"; return 1; }
	[ -z "$text" ] || grep -q "$text" "$logdir/harness/console.log"
}
run_test "harness: guest exit status comes back" harness exit 7 "" -- 'exit 7'
run_test "harness: panic is reported (125)" harness panic 125 "Kernel panic" \
	-A rdinit=/nonexistent -- true
run_test "harness: hang is killed at the timeout (124)" harness hang 124 "" \
	-t 15 -- 'sleep 600'

echo
[ ${#failures[@]} = 0 ] || printf 'failed: %s\n' "${failures[@]}"
echo "test time: $(( $(date +%s) - t0 ))s"
echo "$passed passed, $failed failed, $skipped skipped"
[ "$failed" = 0 ]
