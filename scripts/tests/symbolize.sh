#!/bin/bash
# benchmarks/trace/symbolize.py with DWARF: every traced address gets the
# functions it was inlined through, innermost first, each with its line,
# the symbol's own last, and the source lines they name; without DWARF,
# the address and symbol alone.  Each address once, in the order it first
# ran, with the times it ran.  On a host program built with -g, whose
# addresses lie below the kernel's module area as vmlinux's do.
set -eu
top=$(cd "$(dirname "$0")/../.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/t.c" <<'C'
static inline __attribute__((always_inline)) int twice(int x)
{
	return x * 2 + 1;
}

__attribute__((noinline)) int outer(int x)
{
	return twice(x) ^ x;
}

int main(int argc, char **argv)
{
	(void)argv;
	return outer(argc);
}
C
gcc -std=c11 -g -O2 -no-pie -o "$tmp/t" "$tmp/t.c"
nm --defined-only "$tmp/t" | grep -v "^ " >"$tmp/System.map"
objdump -d --no-show-raw-insn "$tmp/t" |
	awk '/^[0-9a-f]+ <outer>:/ { on = 1; next } on && NF == 0 { on = 0 }
		on && $1 ~ /:$/ { sub(":", "", $1); print $1 }' >"$tmp/pcs"
[ -s "$tmp/pcs" ] || { echo "no instruction of outer() in objdump's output"; exit 1; }
python3 "$top/benchmarks/trace/symbolize.py" "$tmp/System.map" "$tmp/pcs" "$tmp/t" "$tmp" >"$tmp/out"
n=$(wc -l <"$tmp/pcs")
[ "$(grep -c '^[0-9a-f]* 1 outer	' "$tmp/out")" = "$n" ] || { echo "not every address is outer's:"; cat "$tmp/out"; exit 1; }
# each address's frames end in outer's own
[ "$(grep -c '	\(.*;\)\?outer@t\.c:[0-9]*$' "$tmp/out")" = "$n" ] || { echo "a frame list does not end in outer:"; cat "$tmp/out"; exit 1; }
grep -q '	twice@t\.c:3;outer@t\.c:8$' "$tmp/out" || { echo "no instruction inlined from twice() at line 3:"; cat "$tmp/out"; exit 1; }
grep -qF "# src t.c:3	return x * 2 + 1;" "$tmp/out" || { echo "no source line for t.c:3:"; cat "$tmp/out"; exit 1; }
python3 "$top/benchmarks/trace/symbolize.py" "$tmp/System.map" "$tmp/pcs" >"$tmp/plain"
[ "$(grep -c '^[0-9a-f]* 1 outer$' "$tmp/plain")" = "$n" ] || { echo "without DWARF:"; cat "$tmp/plain"; exit 1; }
# A loop: the same addresses three times over are each one line, counted 3.
cat "$tmp/pcs" "$tmp/pcs" "$tmp/pcs" >"$tmp/pcs3"
python3 "$top/benchmarks/trace/symbolize.py" "$tmp/System.map" "$tmp/pcs3" >"$tmp/plain3"
[ "$(cut -d' ' -f1 "$tmp/plain3")" = "$(cat "$tmp/pcs")" ] &&
	[ "$(grep -c '^[0-9a-f]* 3 outer$' "$tmp/plain3")" = "$n" ] ||
	{ echo "a loop's addresses, not once each with their count in first-run order:"; cat "$tmp/plain3"; exit 1; }
