#!/bin/sh
# Files link-tags must refuse: each names the file, gives the cause and
# leaves the file byte-identical (see expect_fail in lib/common.sh).
set -eu
. "$TESTS_DIR/lib/common.sh"

# put_byte FILE OFFSET OCTAL: overwrite one byte of a copy (fixture crafting)
put_byte() { printf "\\$3" | dd of="$1" bs=1 seek="$2" conv=notrunc 2>/dev/null; }

build_vmlinux "$T/vmlinux"

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

# identification and header fields
for b in 0:000:"not an ELF file" 4:003:"ELF class 3 is neither ELFCLASS32 nor ELFCLASS64" \
	 5:000:"ELF data encoding 0 is neither LSB nor MSB" 6:002:"ELF version 2 is not 1" \
	 52:070:"ELF header size is not 64" 58:070:"section header size is not 64"; do
	off=${b%%:*} rest=${b#*:}
	cp "$T/vmlinux" "$T/hdr-$off"
	put_byte "$T/hdr-$off" "$off" "${rest%%:*}"
	expect_fail "$T/hdr-$off" "${rest#*:}"
done
cp "$T/vmlinux" "$T/badshoff"
put_byte "$T/badshoff" 40 003			# e_shoff no longer 8-byte aligned
expect_fail "$T/badshoff" "section headers at a misaligned offset"

# not a vmlinux: an object file and a core-like type
cc_fixture -c -o "$T/fixture.o"
expect_fail "$T/fixture.o" "ELF type 1 is neither ET_EXEC nor ET_DYN (vmlinux)"
cp "$T/vmlinux" "$T/core"
put_byte "$T/core" 16 004
expect_fail "$T/core" "ELF type 4 is neither ET_EXEC nor ET_DYN (vmlinux)"
(cd "$T" && echo 'int f(void) { return 1; }' >dso.c && gcc -shared -fPIC -o dso.so dso.c)
expect_fail "$T/dso.so" "no __start_alloc_tags/__stop_alloc_tags symbols"

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
expect_fail "$T/nosyms" "no __start_alloc_tags/__stop_alloc_tags symbols"
cp "$T/vmlinux" "$T/stripped"
strip "$T/stripped" 2>/dev/null || skip "strip failed"
expect_fail "$T/stripped" "no symbol table (stripped?)"
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
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/odd" "$T/odd.o"
expect_fail "$T/odd" "tags take 84 bytes, not a multiple of the tag size 40"
expect_fail "$T/vmlinux" "tags take 280 bytes, not a multiple of the tag size 48" --tag-size 48

# a symbol table linked to section 0 for its names, section 0 made to look
# like a string table far outside the file: refused, not read
shoff=$(readelf -hW "$T/vmlinux" | awk '/Start of section headers/ { print $5 }')
symidx=$(readelf -SW "$T/vmlinux" | sed -n 's/^ *\[ *\([0-9]*\)\] \.symtab .*/\1/p')
cp "$T/vmlinux" "$T/link0"
for i in 0 1 2 3; do put_byte "$T/link0" $((shoff + symidx * 64 + 40 + i)) 000; done
put_byte "$T/link0" $((shoff + 4)) 003		# section 0: SHT_STRTAB
put_byte "$T/link0" $((shoff + 29)) 177		# at offset 0x7f0000000000
put_byte "$T/link0" $((shoff + 32)) 020		# of 16 bytes
expect_fail "$T/link0" "symbol table .symtab is malformed"
