#!/bin/sh
# Files link-tags must refuse: each names the file, gives the cause and
# leaves the file byte-identical (see expect_fail in lib/common.sh).
set -eu
. "$TESTS_DIR/lib/common.sh"

# put_byte FILE OFFSET OCTAL: overwrite one byte of a copy (fixture crafting)
put_byte() { printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

build_vmlinux "$T/vmlinux"
build_object "$T/fixmod.ko"

echo 'hello, world' >"$T/text"
expect_fail "$T/text" "not an ELF file"
: >"$T/empty"
expect_fail "$T/empty" "not an ELF file"
mkdir "$T/dir"
expect_fail "$T/dir" "not a regular file"
expect_fail "$T/absent" "No such file or directory"

# truncated at several points: inside e_ident, inside the ELF header,
# before the section headers, inside them, one byte short
size=$(wc -c <"$T/vmlinux")
shoff=$(readelf -hW "$T/vmlinux" | awk '/Start of section headers/ { print $5 }')
for n in 3 40 100 "$shoff" $((shoff + 100)) $((size - 1)); do
	head -c "$n" "$T/vmlinux" >"$T/cut-$n"
	case $n in
	3)	expect_fail "$T/cut-$n" "not an ELF file" ;;
	*)	expect_fail "$T/cut-$n" "truncated" ;;
	esac
done
msize=$(wc -c <"$T/fixmod.ko")
head -c $((msize / 2)) "$T/fixmod.ko" >"$T/half.ko"
expect_fail "$T/half.ko" "truncated"

# 32-bit: a real ELFCLASS32 x86-64 (x32) object if objcopy can make one
if objcopy -O elf32-x86-64 "$T/fixmod.ko" "$T/x32.ko" 2>/dev/null; then :; else
	cp "$T/fixmod.ko" "$T/x32.ko"
	put_byte "$T/x32.ko" 4 001
fi
expect_fail "$T/x32.ko" "ELF class 1 is not ELFCLASS64"

cp "$T/fixmod.ko" "$T/be.ko"
put_byte "$T/be.ko" 5 002
expect_fail "$T/be.ko" "ELF data encoding 2 is not little-endian"

cp "$T/vmlinux" "$T/arm64"
put_byte "$T/arm64" 18 267		# e_machine = 183, EM_AARCH64
expect_fail "$T/arm64" "machine 183 is not x86-64 (62)"

(cd "$T" && echo 'int f(void) { return 1; }' >dso.c && gcc -shared -fPIC -o dso.so dso.c)
expect_fail "$T/dso.so" "ELF type 3 is neither ET_EXEC (vmlinux) nor ET_REL (module)"

# symbol trouble, made with edited copies of the fixture linker script
lds() { sed "$1" "$FIX/vmlinux.lds" >"$T/edited.lds"; }
lds '/__stop_alloc_tags/d'
LDS=$T/edited.lds build_vmlinux "$T/nostop"
expect_fail "$T/nostop" "missing symbol __stop_alloc_tags"
lds '/__start_alloc_tags/d'
LDS=$T/edited.lds build_vmlinux "$T/nostart"
expect_fail "$T/nostart" "missing symbol __start_alloc_tags"
lds '/_alloc_tags = \./d'
LDS=$T/edited.lds build_vmlinux "$T/nosyms"
expect_fail "$T/nosyms" "no alloc_tags section and no __start_alloc_tags/__stop_alloc_tags symbols"
cp "$T/vmlinux" "$T/stripped"
strip "$T/stripped" 2>/dev/null || skip "strip failed"
expect_fail "$T/stripped" "no alloc_tags section and no __start_alloc_tags/__stop_alloc_tags symbols"
lds 's/__start_alloc_tags/__x/; s/__stop_alloc_tags/__start_alloc_tags/; s/__x/__stop_alloc_tags/'
LDS=$T/edited.lds build_vmlinux "$T/swapped"
expect_fail "$T/swapped" "__start_alloc_tags (0xffffffff81001120) is above __stop_alloc_tags (0xffffffff81001008)"
lds '/_alloc_tags = \./d; s/^SECTIONS/__start_alloc_tags = 0x1000; __stop_alloc_tags = 0x1028;\nSECTIONS/'
LDS=$T/edited.lds build_vmlinux "$T/outside"
expect_fail "$T/outside" "tags 0x1000..0x1028 lie outside any section with file contents"
lds '/_alloc_tags = \./d; s/^\t\.bss : {/\t.bss : { __start_alloc_tags = .; . += 80; __stop_alloc_tags = .;/'
LDS=$T/edited.lds build_vmlinux "$T/inbss"
expect_fail "$T/inbss" "lie outside any section with file contents"

# tag bytes that are not a whole number of tags
gen_tags 2 >"$T/odd.c"
echo 'static int extra __attribute__((used, section("alloc_tags"))) = 1;' >>"$T/odd.c"
(cd "$T" && gcc $FIX_CFLAGS -c odd.c)
cp "$T/odd.o" "$T/odd.ko"
expect_fail "$T/odd.ko" "tags take 84 bytes, not a multiple of the tag size 40"
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/odd" "$T/odd.o"
expect_fail "$T/odd" "tags take 84 bytes, not a multiple of the tag size 40"
expect_fail "$T/vmlinux" "tags take 280 bytes, not a multiple of the tag size 48" --tag-size 48
