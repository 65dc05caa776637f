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
# build_cross ARCH DIR [cflags]: DIR/vmlinux for another architecture, made
# with its cross compiler (skips when that is missing):
#   i386   ELF32, little-endian, ET_EXEC (tags 32 bytes, see LAYOUT_i386)
#   s390x  ELF64, big-endian, ET_EXEC
#   arm64  ELF64, little-endian, ET_DYN linked as arm64's relocatable
#          kernel is: pointers left zero, values in RELATIVE relocations
build_cross() {
	arch=$1 dir=$2; shift 2
	case $arch in
	i386)	cross=i686-linux-gnu- base=0xc1000000 ldflags="-static" ;;
	s390x)	cross=s390x-linux-gnu- base=0xffffffff81000000 ldflags="-static" ;;
	arm64)	cross=aarch64-linux-gnu- base=0xffff800080000000
		ldflags="-shared -Bsymbolic -z notext --no-apply-dynamic-relocs" ;;
	*)	fail "build_cross: unknown arch $arch" ;;
	esac
	need "${cross}gcc" "${cross}ld"
	mkdir -p "$dir"
	sed "s/0xffffffff81000000/$base/" "$FIX/vmlinux.lds" >"$T/$arch.lds"
	(cd "$T" && "${cross}gcc" -O2 -fno-pic -fno-asynchronous-unwind-tables \
		-fno-toplevel-reorder "$@" -c -o "$arch.o" fixture.c)
	# shellcheck disable=SC2086
	"${cross}ld" $ldflags -nostdlib -T "$T/$arch.lds" -o "$dir/vmlinux" \
		"$T/$arch.o" 2>"$T/ld.err" || { cat "$T/ld.err"; fail "$arch: link failed"; }
	rm -f "$T/$arch.o"
}
# The fixture's tag on i386: u16, u16, u32, three 4-byte pointers, a
# 4-byte counters pointer, padded to its 8-byte alignment
LAYOUT_i386="--tag-size 32 --fields 4,8,12,16"

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

# indices FILE START COUNT [SIZE OFFSET WIDTH]: each tag's index, tags
# starting at file offset START, read with od rather than with the tool
# itself; BIG_ENDIAN=1 reads big-endian fields
indices() {
	od -An -v -tu1 -j "$(($2))" -N "$(($3 * ${4:-40}))" "$1" |
		awk -v n="$3" -v size="${4:-40}" -v off="${5:-2}" -v w="${6:-2}" \
		    -v be="${BIG_ENDIAN:-0}" '
		{ for (i = 1; i <= NF; i++) b[k++] = $i }
		END {
			for (t = 0; t < n; t++) {
				v = 0
				for (j = 0; j < w; j++)
					v = v * 256 + b[t * size + off + (be ? j : w - 1 - j)]
				print v
			}
		}' | tr '\n' ' ' | sed 's/ $//'
}
# tags_at FILE: file offset of the first tag (__start_alloc_tags)
tags_at() {
	sec=$(readelf -sW "$1" | awk '$8 == "__start_alloc_tags" { print $7; exit }')
	readelf -SW "$1" | awk -v sec="$sec" -v start="$(sym_value "$1" __start_alloc_tags)" '
		{ line = $0; sub(/^ *\[ */, "", line); split(line, f, /[] ]+/) }
		f[1] == sec { print "0x" substr(f[4], length(f[4]) - 7), "0x" substr(f[5], length(f[5]) - 7), start; exit }' |
		{ read -r addr off start; echo $((off + start - addr)); }
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
