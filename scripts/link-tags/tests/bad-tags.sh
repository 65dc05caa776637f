#!/bin/sh
# Tag contents link-tags must refuse, built from assembly so that every
# field and relocation is exactly as written.  ET_EXEC: pointers are
# addresses.  ET_DYN (ld -shared): pointers may come from RELATIVE dynamic
# relocations, and no relocation may touch the index field.
set -eu
. "$TESTS_DIR/lib/common.sh"

# tag_asm NAME HEAD MODNAME FUNCTION FILENAME [ldflags]: NAME, a vmlinux
# with one 40-byte tag; HEAD is its first 8 bytes (flags, index, lineno)
# and the fields are assembler directives, so a test can put any value
# or relocation there.  ldflags -shared makes an ET_DYN.
tag_asm() {
	cat >"$T/$1.s" <<ASM
	.section .rodata.str,"aMS",@progbits,1
s_mod:	.asciz "m"
s_fn:	.asciz "f"
s_file:	.asciz "x.c"
	.section .rodata.raw,"a"
s_raw:	.ascii "abc"
	.bss
s_bss:	.zero 16
	.text
	.globl _start
_start:	ret
	.section alloc_tags,"aw"
	.balign 8
	$2
	$3
	$4
	$5
	.quad 0
ASM
	(cd "$T" && gcc -c -o "$1.o" "$1.s")
	# shellcheck disable=SC2086
	ld -nostdlib ${6:--static} -T "$FIX/vmlinux.lds" -o "$T/$1" "$T/$1.o"
}
HEAD='.short 0; .short 0; .long 1'

tag_asm good "$HEAD" '.quad s_mod' '.quad s_fn' '.quad s_file'
"$LINK_TAGS" -q "$T/good"
[ "$(sed -n 2p "$T/good.tagmap")" = "$(printf '2\tx.c:1\tf\tm')" ] ||
	fail "good: $(cat "$T/good.tagmap")"
tag_asm nullmod "$HEAD" '.quad 0' '.quad s_fn' '.quad s_file'
"$LINK_TAGS" -q "$T/nullmod"
[ "$(sed -n 2p "$T/nullmod.tagmap")" = "$(printf '2\tx.c:1\tf\t-')" ] ||
	fail "NULL modname: $(cat "$T/nullmod.tagmap")"

tag_asm wild "$HEAD" '.quad 0' '.quad s_fn' '.quad 0xdeadbeef'
expect_fail "$T/wild" "tag 0: filename pointer 0xdeadbeef is outside any section"
tag_asm past "$HEAD" '.quad s_mod' '.quad s_fn' '.quad s_file + 100'
expect_fail "$T/past" "tag 0: filename pointer 0xffffffff"
tag_asm nonul "$HEAD" '.quad s_mod' '.quad s_raw' '.quad s_file'
expect_fail "$T/nonul" "tag 0: function string in .rodata is not NUL-terminated"
tag_asm nobits "$HEAD" '.quad s_bss' '.quad s_fn' '.quad s_file'
expect_fail "$T/nobits" "tag 0: modname pointer 0xffffffff"
tag_asm self "$HEAD" '.quad 0' '.quad . - 16' '.quad s_file'
expect_fail "$T/self" "tag 0: function string overlaps the tags"

# ET_DYN: x86-64's ld fills the words and also emits RELATIVE relocations
tag_asm dyn "$HEAD" '.quad s_mod' '.quad s_fn' '.quad s_file' -shared
readelf -rW "$T/dyn" | grep -q R_X86_64_RELATIVE || fail "dyn: no RELATIVE relocations"
"$LINK_TAGS" -q "$T/dyn"
[ "$(sed -n 2p "$T/dyn.tagmap")" = "$(printf '2\tx.c:1\tf\tm')" ] ||
	fail "dyn: $(cat "$T/dyn.tagmap")"
tag_asm idxrel '.quad s_mod' '.quad s_mod' '.quad s_fn' '.quad s_file' -shared
expect_fail "$T/idxrel" "tag 0: relocation type 8 would change the index field"
tag_asm symrel "$HEAD" '.quad s_mod' '.quad s_fn' '.quad elsewhere' -shared
expect_fail "$T/symrel" "tag 0: filename has relocation type 1, not a RELATIVE one"
tag_asm halfrel "$HEAD" '.long 0; .quad s_mod; .long 0' '' '.quad s_file' -shared
expect_fail "$T/halfrel" "tag 0: a relocation at offset 12 straddles the modname field"
