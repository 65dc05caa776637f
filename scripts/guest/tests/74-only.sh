# Selective profiling (sysctl.vm.mem_profiling=...,only=TERM;TERM): in a
# boot with "only=", every line of /proc/allocinfo is counted if and only
# if a term names it (mod: a module, loaded or built in by the name Kbuild
# gives its code, or "kernel"; file:, func:; the overflow line always),
# the kernel's lines and a module's loaded later alike; the lines left off
# count nothing new while the guest forks and allocates, the named ones
# do, and the ioctl still switches them.  Skips in a boot without "only="
# (test.sh boots the fork with it in two forms).
set -eu
. /guest/ktap.sh
only=$(tr ' ' '\n' </proc/cmdline | sed -n 's/^sysctl\.vm\.mem_profiling=.*only=\([^,]*\).*/\1/p')
[ -n "$only" ] || { diag "not booted with sysctl.vm.mem_profiling=...,only="; exit 2; }
at=/guest/progs/alloctop
ctl=/sys/kernel/debug/alloctest/ctl
diag "only=$only"

# A term that is none of the three: the kernel names it, drops "only=" and
# takes the rest of the parameter (the boot's "compressed"): every tag counts.
bad=$(echo "$only" | tr ';' '\n' | grep -Evx '(mod|file|func):.+' | head -1 || true)
if [ -n "$bad" ]; then
	check "the kernel log names the bad term" \
		sh -c "dmesg | grep -qF \"bad only= term '$bad': every tag is counted\""
	check_eq "no line counted:no" "" "$(grep ' counted:no' /proc/allocinfo || true)"
	case $(cat /proc/cmdline) in *mem_profiling=*,compressed*)
		check_eq "the rest of the parameter took effect (compressed)" 1 \
			"$(cat /proc/sys/vm/mem_profiling_compressed)" ;;
	esac
	ktap_done
	exit
fi

# Every line as "named off calls file func module build-module", named
# and off 0 or 1; the build module (the ioctl's build_modname, by line:
# allocinfo-build walks the tags in the text's order) is what mod: names
# of built-in code besides "kernel"
lines() {
	/guest/progs/allocinfo-build >/tmp/only-build || : >/tmp/only-build
	tail -n +3 /proc/allocinfo | awk -v only="$only" '
		BEGIN { n = split(only, term, ";") }
		NR == FNR { build[NR] = $1; next }
		{
			file = $3; sub(/:[0-9]+$/, "", file); mod = "kernel"; fn = ""; off = 0
			for (i = 4; i <= NF; i++) {
				if ($i ~ /^\[.*\]$/) mod = substr($i, 2, length($i) - 2)
				if ($i ~ /^func:/) fn = substr($i, 6)
				if ($i == "counted:no") off = 1
			}
			bmod = build[FNR]
			# the overflow line counts for the named tags of modules
			# with no index of their own, whatever the terms
			named = fn == "module_tags_overflow"
			for (j = 1; j <= n; j++)
				if (term[j] == "mod:" mod || term[j] == "file:" file || term[j] == "func:" fn ||
				    (mod == "kernel" && term[j] == "mod:" bmod))
					named = 1
			print named, off, $2, file, fn, mod, bmod
		}' /tmp/only-build -
}
check "the ioctl names each tag's build module (allocinfo-build)" \
	sh -c '/guest/progs/allocinfo-build >/tmp/only-build'
# Lines whose flag disagrees with the terms
wrong() { lines | awk '$1 == $2 { print }'; }
# The calls of the named (1) or the other (0) lines, summed
calls() { lines | awk -v n="$1" '$1 == n { c += $3 } END { print c + 0 }'; }
# The calls of the lines of function $1, summed
fn_calls() { lines | awk -v f="$1" '$5 == f { c += $3 } END { print c + 0 }'; }

check "the kernel log says how many tags are counted" \
	sh -c "dmesg | grep -q 'selective profiling: [0-9]* of [0-9]* tags counted'"
w=$(wrong)
check_eq "every kernel line counted:no unless a term names it" "" "$w"
# mod:NAME names built-in code by the module Kbuild builds it into: a
# term for built-in code has lines, all of them counted
for m in $(echo "$only" | tr ';' '\n' | sed -n 's/^mod://p' | grep -vx kernel || true); do
	n=$(lines | awk -v m="$m" '$6 == "kernel" && $7 == m' | wc -l)
	if [ "$m" = alloctest ]; then
		check_eq "mod:$m (a module) names no built-in line" 0 "$n"
	else
		check "mod:$m names built-in lines ($n)" test "$n" -gt 0
	fi
done
check "some kernel line is named" sh -c "[ $(lines | awk '$1 == 1' | wc -l) -gt 0 ]"

# Subshells that stay, each a fork() whose mm (dup_mm()) is held, and
# their children, which exec.  The counters are what is held, so what the
# lines left off held at boot can only go down.
# The mms of the processes that measured before may still be dropped
# meanwhile (a CPU keeps an exited task's mm as its lazy one until it
# switches): let them go first, and allow one that goes after.
sleep 1
named0=$(calls 1) other0=$(calls 0) dup0=$(fn_calls dup_mm)
pids=""
i=0
while [ $i -lt 8 ]; do (sleep 600; :) & pids="$pids $!"; i=$((i + 1)); done
sleep 1
ls /proc >/dev/null
named1=$(calls 1) other1=$(calls 0) dup1=$(fn_calls dup_mm)
kill $pids 2>/dev/null || true
diag "calls of the named lines: $named0 -> $named1 (dup_mm's: $dup0 -> $dup1); of the rest: $other0 -> $other1"
case ";$only;" in
*";func:dup_mm;"*)
	check "8 live forks counted on dup_mm's lines" \
		sh -c "[ $dup1 -ge $((dup0 + 7)) ]" ;;
esac
check "the lines left off count nothing new" sh -c "[ $other1 -le $other0 ]"

check "load alloctest" insmod /modules/alloctest.ko
w=$(wrong)
check_eq "a module loaded later: its lines follow the terms too" "" "$w"
echo "pages 0 3" >$ctl
echo "kmalloc 64 3" >$ctl
for f in alloctest_pages alloctest_kmalloc; do
	n=$(lines | awk -v f=$f '$5 == f { print $1 }')
	c=$(tag_counters "func:$f ")
	if [ "$n" = 1 ]; then
		check "$f, named: counted" sh -c "[ '${c#* }' = 3 ]"
	else
		check_eq "$f, not named: not counted" "0 0" "$c"
	fi
done
echo free >$ctl
check_eq "alloctop -C off -m alloctest: the ioctl turns every site on" \
	"alloctop: $(grep -c '\[alloctest\]' /proc/allocinfo) site(s) changed" \
	"$($at -C off -m alloctest 2>&1)"
echo "kmalloc 64 2" >$ctl
check_eq "alloctest_kmalloc counted once on" "128 2" "$(tag_counters 'func:alloctest_kmalloc ')"
echo free >$ctl
check "unload alloctest" rmmod alloctest

# A module with no index of its own (the debug limit forces it): its tags
# still follow the terms one by one, and the pages of the named ones are
# counted on the overflow line, which stays on.
dbg=/sys/kernel/debug/alloc_tag
named_overflow() {
	limit=$(cat $dbg/module_idx_limit)
	before=$(tag_counters func:module_tags_overflow)
	echo 2 >$dbg/module_idx_limit
	check "load alloctest with no index left for it" insmod /modules/alloctest.ko
	echo "$limit" >$dbg/module_idx_limit
	check "dmesg says it overflowed" \
		sh -c "dmesg | grep -q 'alloctest: no room for .* allocation tag indexes'"
	w=$(wrong)
	check_eq "its lines follow the terms, each its own" "" "$w"
	echo "pages 0 3" >$ctl
	echo "kmalloc 64 3" >$ctl
	after=$(tag_counters func:module_tags_overflow)
	check_eq "its named page line counted on the overflow line" 3 \
		"$((${after#* } - ${before#* }))"
	check_eq "its object line, not named, not counted" "0 0" \
		"$(tag_counters 'func:alloctest_kmalloc ')"
	echo free >$ctl
	check "unload alloctest" rmmod alloctest
}
case "${FORM:-}:;$only;" in
flags:*";func:alloctest_pages;"*|page_ext:*";func:alloctest_pages;"*)
	if [ -w $dbg/module_idx_limit ]; then named_overflow
	else diag "no $dbg/module_idx_limit: a named module with no index not checked"
	fi ;;
esac
tr=$(trouble || true)
check_eq "no warning, oops or BUG meanwhile" "" "$tr"
ktap_done
