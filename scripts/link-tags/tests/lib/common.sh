# Sourced by every test: a scratch directory, fixture builders and checks.
# Needs LINK_TAGS (the tool) and TESTS_DIR (this directory's parent).
T=$(mktemp -d "${TMPDIR:-/tmp}/link-tags-test.XXXXXX")
trap 'rm -rf "$T"' EXIT
FIX=$TESTS_DIR/fixtures
GOLD=$TESTS_DIR/golden
FIX_CFLAGS="-O2 -fno-pic -mcmodel=kernel -fno-asynchronous-unwind-tables -fno-toplevel-reorder"

fail() { echo "FAIL: $*" >&2; exit 1; }
skip() { echo "$*"; exit 2; }
need() {
	for c; do
		command -v "$c" >/dev/null 2>&1 || skip "$c is not installed"
	done
}
need gcc ld objcopy readelf od cmp awk

# Fixtures are compiled from inside $T so that __FILE__ is "fixture.c".
cp "$FIX/fixture.c" "$T/fixture.c"
cc_fixture() { (cd "$T" && gcc $FIX_CFLAGS "$@" fixture.c); }

# build_vmlinux OUT [cflags]: an ET_EXEC with tags inside .data
build_vmlinux() {
	out=$1; shift
	cc_fixture "$@" -c -o "$out.o"
	ld -static -nostdlib -T "${LDS:-$FIX/vmlinux.lds}" -o "$out" "$out.o"
	rm -f "$out.o"
}
# build_object OUT [cflags]: gcc -c output, tags in section alloc_tags
build_object() { out=$1; shift; cc_fixture -DMODULE "$@" -c -o "$out"; }
# build_ko OUT [cflags]: partial link like a .ko, tags in .data between symbols
build_ko() {
	out=$1; shift
	cc_fixture -DMODULE "$@" -c -o "$out.o"
	ld -r -T "$FIX/module.lds" -o "$out" "$out.o"
	rm -f "$out.o"
}
# gen_tags N [MODNAME]: C source with N tags (for size tests)
gen_tags() {
	awk -v n="$1" -v mod="${2:-}" 'BEGIN {
		print "struct alloc_tag { unsigned short flags, idx; unsigned int lineno;"
		print "  const char *modname, *function, *filename; long *counters; }"
		print "  __attribute__((aligned(8)));"
		m = mod == "" ? "0" : "\"" mod "\""
		for (i = 0; i < n; i++)
			printf "static struct alloc_tag t%d __attribute__((used, section(\"alloc_tags\"), aligned(8))) = { 0, 0, %d, %s, \"fn_%d\", \"gen.c\", 0 };\n", i, i + 1, m, i
		print "void _start(void) { }"
	}'
}

# sec_field FILE SECTION addr|offset: a section's address or file offset,
# low 32 bits only (shell arithmetic is signed 64-bit; tests need offsets)
sec_field() {
	readelf -SW "$1" | awk -v name="$2" -v what="$3" '
		{ sub(/^ *\[ *[0-9]+\] */, "") }
		$1 == name { v = what == "addr" ? $3 : $4
			     print "0x" substr(v, length(v) - 7); exit }'
}
# sym_value FILE SYMBOL: st_value as printed by readelf, low 32 bits
sym_value() {
	readelf -sW "$1" | awk -v name="$2" '
		$8 == name { print "0x" substr($2, length($2) - 7); exit }'
}

# indices FILE SECTION START COUNT [SIZE OFFSET WIDTH]: each tag's index,
# read with objcopy and od rather than with the tool itself
indices() {
	objcopy -O binary --only-section="$2" "$1" "$T/section.bin"
	od -An -v -tu1 "$T/section.bin" | awk -v start="$(($3))" -v n="$4" \
		-v size="${5:-40}" -v off="${6:-2}" -v w="${7:-2}" '
		{ for (i = 1; i <= NF; i++) b[k++] = $i }
		END {
			for (t = 0; t < n; t++) {
				v = 0
				for (j = w - 1; j >= 0; j--)
					v = v * 256 + b[start + t * size + off + j]
				print v
			}
		}' | tr '\n' ' ' | sed 's/ $//'
}

# only_index_bytes ORIG NEW BASE COUNT [SIZE OFFSET WIDTH]: the files differ
# only inside the index fields of the COUNT tags at file offset BASE
only_index_bytes() {
	cmp -l "$1" "$2" | awk -v base="$(($3))" -v n="$4" -v size="${5:-40}" \
		-v off="${6:-2}" -v w="${7:-2}" '
		{ o = $1 - 1 - base; r = o % size
		  if (o < 0 || o >= n * size || r < off || r >= off + w) bad++ }
		END { exit bad > 0 }' || fail "$2: bytes outside the index fields changed"
}

# no_leftovers DIR: no temporary files left behind
no_leftovers() {
	left=$(find "$1" -maxdepth 1 -name '.*.link-tags.*')
	[ -z "$left" ] || fail "temporary files left: $left"
}

# expect_fail FILE MESSAGE [options]: link-tags must exit 1, name FILE and
# say MESSAGE, and leave FILE byte-identical with no map and no temp files
expect_fail() {
	f=$1 msg=$2; shift 2
	rm -f "$T/saved" "$f.tagmap"
	if [ -f "$f" ]; then cp "$f" "$T/saved"; fi
	if "$LINK_TAGS" "$@" "$f" >"$T/out" 2>"$T/err"; then rc=0; else rc=$?; fi
	[ "$rc" -eq 1 ] || fail "$f: exit $rc, wanted 1 ($msg)"
	grep -qF -- "link-tags: error: $f: " "$T/err" ||
		fail "$f: error does not name the file: $(cat "$T/err")"
	grep -qF -- "$msg" "$T/err" ||
		fail "$f: wanted '$msg', got: $(cat "$T/err")"
	if [ -e "$T/saved" ]; then
		cmp -s "$f" "$T/saved" || fail "$f: changed by a failed run"
	fi
	[ ! -e "$f.tagmap" ] || fail "$f: a failed run wrote a map"
	no_leftovers "$(dirname "$f")"
	echo "ok: $f: $(cat "$T/err")"
}
