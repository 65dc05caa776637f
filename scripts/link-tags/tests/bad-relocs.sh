#!/bin/sh
# Tag contents link-tags must refuse, built from assembly so that every
# field and relocation is exactly as written.
set -eu
. "$TESTS_DIR/lib/common.sh"

# tag_asm NAME IDX MODNAME FUNCTION FILENAME: one 40-byte tag; the fields
# are assembler directives, so a test can put any value or relocation there
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
	.short 0
	$2
	.long 1
	$3
	$4
	$5
	.quad 0
ASM
	(cd "$T" && gcc -c -o "$1.ko" "$1.s")
}

tag_asm good '.short 0' '.quad s_mod' '.quad s_fn' '.quad s_file'
"$LINK_TAGS" -q "$T/good.ko"
[ "$(sed -n 2p "$T/good.ko.tagmap")" = "$(printf '0\tx.c:1\tf\tm')" ] ||
	fail "good: $(cat "$T/good.ko.tagmap")"

tag_asm nullmod '.short 0' '.quad 0' '.quad s_fn' '.quad s_file'
"$LINK_TAGS" -q "$T/nullmod.ko"
[ "$(sed -n 2p "$T/nullmod.ko.tagmap")" = "$(printf '0\tx.c:1\tf\t-')" ] ||
	fail "NULL modname: $(cat "$T/nullmod.ko.tagmap")"

tag_asm idxrel '.short s_mod' '.quad s_mod' '.quad s_fn' '.quad s_file'
expect_fail "$T/idxrel.ko" "tag 0: relocation 12 would overwrite the index field"
tag_asm norel '.short 0' '.quad 0x1234' '.quad s_fn' '.quad s_file'
expect_fail "$T/norel.ko" "tag 0: modname is 0x1234 with no relocation"
tag_asm rel32 '.short 0' '.quad s_mod' '.long s_fn; .long 0' '.quad s_file'
expect_fail "$T/rel32.ko" "tag 0: function has relocation type 10, want R_X86_64_64"
tag_asm undef '.short 0' '.quad s_mod' '.quad s_fn' '.quad elsewhere'
expect_fail "$T/undef.ko" "tag 0: filename refers to a symbol in no section"
tag_asm past '.short 0' '.quad s_mod' '.quad s_fn' '.quad s_file + 100'
expect_fail "$T/past.ko" "tag 0: filename points past the end of section .rodata.str"
tag_asm nonul '.short 0' '.quad s_mod' '.quad s_raw' '.quad s_file'
expect_fail "$T/nonul.ko" "tag 0: function string in .rodata.raw is not NUL-terminated"
tag_asm nobits '.short 0' '.quad s_bss' '.quad s_fn' '.quad s_file'
expect_fail "$T/nobits.ko" "section .bss has no file contents"

# vmlinux: pointers are plain addresses
tag_asm exec '.short 0' '.quad 0' '.quad s_fn' '.quad 0xdeadbeef'
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/exec" "$T/exec.ko"
expect_fail "$T/exec" "tag 0: filename pointer 0xdeadbeef is outside any section"
tag_asm exec2 '.short 0' '.quad 0' '.quad s_fn' '.quad s_file'
ld -static -nostdlib -T "$FIX/vmlinux.lds" -o "$T/exec2" "$T/exec2.ko"
"$LINK_TAGS" -q "$T/exec2"
[ "$(sed -n 2p "$T/exec2.tagmap")" = "$(printf '2\tx.c:1\tf\t-')" ] ||
	fail "exec2: $(cat "$T/exec2.tagmap")"
