// SPDX-License-Identifier: GPL-2.0-only
/*
 * link-tags - give every allocation tag a compact index after the link.
 *
 * vmlinux (ET_EXEC): the tags are the bytes between __start_alloc_tags and
 * __stop_alloc_tags.  They get indices 2, 3, ... in section order; 0 means
 * "no tag" and 1 means "empty".
 *
 * module (ET_REL): the tags are the section "alloc_tags" or, in a .ko linked
 * with the module linker script, the bytes between the same two symbols.
 * They get module-local indices 0 .. n-1; the module loader rebases them
 * into the range it hands the module (it knows n = tag bytes / tag size).
 *
 * The index is written into each tag in place, little-endian.  The file is
 * read into memory, checked completely, patched in memory and written back
 * through a temporary file and rename(), so an error leaves it untouched.
 * A text map (index, file:line, function, module) is written beside it.
 *
 * The layout of a tag comes from the command line; see print_usage().
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <gelf.h>
#include <libelf.h>
#include <linux/types.h>

#define TOOL		"link-tags"
#define START_SYM	"__start_alloc_tags"
#define STOP_SYM	"__stop_alloc_tags"
#define TAG_SECTION	"alloc_tags"
#define FIRST_INDEX	2	/* 0 = no tag, 1 = empty */

/* The kernel's type names; the uapi header has only the __u64 forms. */
typedef __u32 u32;
typedef __u64 u64;
typedef __s64 s64;

/* As tools/include/linux/compiler-gcc.h has it, which a host tool cannot use. */
#ifndef __printf
#define __attr(x)		__attribute__((x))
#define __printf(a, b)		__attr(format(printf, a, b))
#endif

/* The one way this tool complains: tool, kind, file, cause. */
static int report(const char *kind, const char *file, const char *fmt, ...)
	__printf(3, 4);
#define ERROR(file, ...)	report("error", (file), __VA_ARGS__)
#define WARN(file, ...)		((void)report("warning", (file), __VA_ARGS__))

static bool silent;	/* the fuzz harness turns messages off */

static int report(const char *kind, const char *file, const char *fmt, ...)
{
	va_list ap;

	if (silent)
		return -1;
	fprintf(stderr, "%s: %s: %s: ", TOOL, kind, file);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

enum { F_MODNAME, F_FUNCTION, F_FILENAME, NR_PTRS };
static const char *const ptr_names[NR_PTRS] = { "modname", "function", "filename" };

struct layout {
	unsigned long size;		/* bytes per tag */
	unsigned long idx_off;		/* offset of the index field */
	unsigned long idx_width;	/* bytes: 1, 2 or 4 */
	unsigned long idx_bits;		/* bits the kernel can use */
	unsigned long lineno_off;	/* u32 */
	unsigned long ptr_off[NR_PTRS];	/* u64 pointers */
};

struct options {
	struct layout l;
	unsigned long module_reserve;
	bool missing_ok;
};

struct section {
	u64 addr, size, offset, flags;
	u32 type;
	const char *name;
	const unsigned char *data;	/* loaded on demand */
	bool loaded;
};

struct tag {
	u64 stored;			/* index found in the file */
	u32 lineno;
	const char *str[NR_PTRS];	/* NULL for a NULL pointer */
};

struct image {
	const char *name;		/* for messages */
	unsigned char *buf;
	size_t len;
	Elf *elf;
	bool module;
	size_t nsec;
	struct section *sec;
	size_t tag_sec;			/* section holding the tags */
	u64 tag_start;			/* their offset in that section */
	u64 tag_bytes;
	size_t ntags;
	struct tag *tags;
	u64 first;			/* index given to tags[0] */
	u64 limit;			/* most indices this file may use */
};

/* Little-endian reads and writes of n bytes. */
static u64 get_le(const unsigned char *p, unsigned long n)
{
	u64 v = 0;

	while (n--)
		v = (v << 8) | p[n];
	return v;
}

static void put_le(unsigned char *p, unsigned long n, u64 v)
{
	for (unsigned long i = 0; i < n; i++, v >>= 8)
		p[i] = v & 0xff;
}

/* Do byte ranges [a, a+alen) and [b, b+blen) meet?  Lengths are nonzero. */
static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
	return a < b ? b - a < alen : a - b < blen;
}

static int load_section(struct image *im, size_t i)
{
	struct section *s = &im->sec[i];
	Elf_Data *d;

	if (s->loaded)
		return 0;
	if (s->type == SHT_NOBITS)
		return ERROR(im->name, "section %s has no file contents", s->name);
	if (s->flags & SHF_COMPRESSED)
		return ERROR(im->name, "section %s is compressed", s->name);
	d = elf_getdata(elf_getscn(im->elf, i), NULL);
	if (!d || (s->size && !d->d_buf) || d->d_size != s->size)
		return ERROR(im->name, "cannot read section %s: %s", s->name,
			     elf_errmsg(-1));
	s->data = d->d_buf;
	s->loaded = true;
	return 0;
}

/* A NUL-terminated string at offset off of section i, or NULL + message. */
static const char *string_at(struct image *im, size_t i, u64 off,
			     size_t tag, int field)
{
	struct section *s = &im->sec[i];
	const unsigned char *nul;

	if (off >= s->size) {
		ERROR(im->name, "tag %zu: %s points past the end of section %s",
		      tag, ptr_names[field], s->name);
		return NULL;
	}
	if (load_section(im, i))
		return NULL;
	nul = memchr(s->data + off, 0, s->size - off);
	if (!nul) {
		ERROR(im->name, "tag %zu: %s string in %s is not NUL-terminated",
		      tag, ptr_names[field], s->name);
		return NULL;
	}
	/* writing the indices must not change any string */
	if (i == im->tag_sec && im->tag_bytes &&
	    overlaps(off, nul - (s->data + off) + 1, im->tag_start, im->tag_bytes)) {
		ERROR(im->name, "tag %zu: %s string overlaps the tags", tag,
		      ptr_names[field]);
		return NULL;
	}
	return (const char *)s->data + off;
}

static int read_sections(struct image *im, u64 shoff)
{
	size_t shstrndx;
	Elf_Scn *scn = NULL;

	if (elf_getshdrnum(im->elf, &im->nsec) || elf_getshdrstrndx(im->elf, &shstrndx))
		return ERROR(im->name, "truncated or corrupt section headers: %s",
			     elf_errmsg(-1));
	if (im->nsec > (im->len - shoff) / sizeof(Elf64_Shdr))
		return ERROR(im->name, "truncated: %zu section headers do not fit",
			     im->nsec);
	if (im->nsec < 2)
		return ERROR(im->name, "no sections");
	im->sec = calloc(im->nsec, sizeof(*im->sec));
	if (!im->sec)
		return ERROR(im->name, "out of memory");
	while ((scn = elf_nextscn(im->elf, scn))) {
		size_t i = elf_ndxscn(scn);
		struct section *s;
		GElf_Shdr sh;

		if (i >= im->nsec || !gelf_getshdr(scn, &sh))
			return ERROR(im->name, "corrupt section header: %s",
				     elf_errmsg(-1));
		s = &im->sec[i];
		s->addr = sh.sh_addr;
		s->size = sh.sh_size;
		s->offset = sh.sh_offset;
		s->flags = sh.sh_flags;
		s->type = sh.sh_type;
		s->name = elf_strptr(im->elf, shstrndx, sh.sh_name);
		if (!s->name)
			s->name = "(unnamed)";
		if (s->type != SHT_NOBITS &&
		    (s->offset > im->len || s->size > im->len - s->offset))
			return ERROR(im->name,
				     "truncated: section %s ends at byte %llu, file has %zu",
				     s->name,
				     (unsigned long long)(s->offset + s->size), im->len);
	}
	for (size_t i = 1; i < im->nsec; i++)
		if (!im->sec[i].name)
			im->sec[i].name = "(missing)";
	return 0;
}

/* First symbol called name in the symbol table; 1 if there is none. */
static int find_symbol(struct image *im, const char *name, GElf_Sym *out)
{
	for (size_t i = 1; i < im->nsec; i++) {
		Elf_Scn *scn = elf_getscn(im->elf, i);
		GElf_Shdr sh;
		Elf_Data *d;

		if (im->sec[i].type != SHT_SYMTAB || !gelf_getshdr(scn, &sh))
			continue;
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			return ERROR(im->name, "cannot read symbol table: %s",
				     elf_errmsg(-1));
		for (size_t j = 1; j < sh.sh_size / sh.sh_entsize && j <= INT_MAX; j++) {
			const char *n;

			if (!gelf_getsym(d, (int)j, out))
				break;
			n = elf_strptr(im->elf, sh.sh_link, out->st_name);
			if (n && !strcmp(n, name))
				return 0;
		}
		return 1;
	}
	return 1;
}

/* vmlinux: the allocated section holding [start, stop). */
static int locate_exec(struct image *im, u64 start, u64 stop)
{
	for (size_t i = 1; i < im->nsec; i++) {
		struct section *s = &im->sec[i];

		if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS ||
		    start < s->addr || stop - s->addr > s->size)
			continue;
		im->tag_sec = i;
		im->tag_start = start - s->addr;
		return 0;
	}
	return ERROR(im->name,
		     "tags 0x%llx..0x%llx lie outside any section with file contents",
		     (unsigned long long)start, (unsigned long long)stop);
}

/* module linked with the module linker script: symbols are section offsets. */
static int locate_rel(struct image *im, const GElf_Sym *a, const GElf_Sym *b)
{
	size_t i = a->st_shndx;

	if (a->st_shndx != b->st_shndx || i == SHN_UNDEF || i >= im->nsec ||
	    i >= SHN_LORESERVE)
		return ERROR(im->name, "%s and %s are not defined in one section",
			     START_SYM, STOP_SYM);
	if (b->st_value > im->sec[i].size)
		return ERROR(im->name, "tags 0x%llx..0x%llx lie outside section %s",
			     (unsigned long long)a->st_value,
			     (unsigned long long)b->st_value, im->sec[i].name);
	im->tag_sec = i;
	im->tag_start = a->st_value;
	return 0;
}

/* Find the tags; 1 if the file has none at all. */
static int locate_tags(struct image *im, const struct layout *l)
{
	GElf_Sym a, b;
	u64 bytes;
	int ra, rb;

	im->tag_sec = 0;
	if (im->module) {
		for (size_t i = 1; i < im->nsec; i++) {
			if (strcmp(im->sec[i].name, TAG_SECTION))
				continue;
			if (im->tag_sec)
				return ERROR(im->name, "more than one %s section",
					     TAG_SECTION);
			im->tag_sec = i;
		}
	}
	if (im->tag_sec) {
		im->tag_start = 0;
		bytes = im->sec[im->tag_sec].size;
	} else {
		ra = find_symbol(im, START_SYM, &a);
		rb = find_symbol(im, STOP_SYM, &b);
		if (ra < 0 || rb < 0)
			return -1;
		if (ra && rb)
			return 1;
		if (ra || rb || a.st_shndx == SHN_UNDEF || b.st_shndx == SHN_UNDEF)
			return ERROR(im->name, "missing symbol %s",
				     ra || a.st_shndx == SHN_UNDEF ? START_SYM : STOP_SYM);
		if (a.st_value > b.st_value)
			return ERROR(im->name, "%s (0x%llx) is above %s (0x%llx)",
				     START_SYM, (unsigned long long)a.st_value,
				     STOP_SYM, (unsigned long long)b.st_value);
		if (im->module ? locate_rel(im, &a, &b) :
				 locate_exec(im, a.st_value, b.st_value))
			return -1;
		bytes = b.st_value - a.st_value;
	}
	if (im->sec[im->tag_sec].type == SHT_NOBITS)
		return ERROR(im->name, "section %s holding the tags has no file contents",
			     im->sec[im->tag_sec].name);
	if (bytes % l->size)
		return ERROR(im->name, "tags take %llu bytes, not a multiple of the tag size %lu",
			     (unsigned long long)bytes, l->size);
	im->ntags = bytes / l->size;
	im->tag_bytes = bytes;
	return 0;
}

/* The tag bytes must not share file bytes with anything else. */
static int check_tag_bytes(struct image *im, const GElf_Ehdr *eh)
{
	u64 at = im->sec[im->tag_sec].offset + im->tag_start;
	u64 n = im->tag_bytes;

	if (!n)
		return 0;
	if (overlaps(at, n, 0, sizeof(Elf64_Ehdr)))
		return ERROR(im->name, "tags overlap the ELF header");
	if (eh->e_phnum && overlaps(at, n, eh->e_phoff,
				    (u64)eh->e_phnum * eh->e_phentsize))
		return ERROR(im->name, "tags overlap the program headers");
	if (overlaps(at, n, eh->e_shoff, im->nsec * sizeof(Elf64_Shdr)))
		return ERROR(im->name, "tags overlap the section headers");
	for (size_t i = 1; i < im->nsec; i++) {
		const struct section *s = &im->sec[i];

		if (i != im->tag_sec && s->type != SHT_NOBITS && s->size &&
		    overlaps(at, n, s->offset, s->size))
			return ERROR(im->name, "tags overlap section %s in the file",
				     s->name);
	}
	return 0;
}

/* vmlinux: pointers are addresses; find the section and read the string. */
static const char *resolve_addr(struct image *im, u64 addr, size_t tag, int field)
{
	if (!addr)
		return NULL;
	for (size_t i = 1; i < im->nsec; i++) {
		struct section *s = &im->sec[i];

		if ((s->flags & SHF_ALLOC) && s->type != SHT_NOBITS &&
		    addr >= s->addr && addr - s->addr < s->size)
			return string_at(im, i, addr - s->addr, tag, field);
	}
	ERROR(im->name, "tag %zu: %s pointer 0x%llx is outside any section",
	      tag, ptr_names[field], (unsigned long long)addr);
	return NULL;
}

struct reloc {
	size_t symtab;		/* 0: no relocation for this field */
	size_t sym;
	s64 addend;
};

static unsigned int reloc_bytes(unsigned int type)
{
	switch (type) {
	case R_X86_64_NONE:
		return 0;
	case R_X86_64_8: case R_X86_64_PC8:
		return 1;
	case R_X86_64_16: case R_X86_64_PC16:
		return 2;
	case R_X86_64_32: case R_X86_64_32S: case R_X86_64_PC32:
	case R_X86_64_PLT32: case R_X86_64_GOTPCREL: case R_X86_64_GOTPCRELX:
	case R_X86_64_REX_GOTPCRELX: case R_X86_64_GOT32: case R_X86_64_TPOFF32:
	case R_X86_64_DTPOFF32:
		return 4;
	default:
		return 8;
	}
}

/* module: collect the relocations that fill the string pointers. */
static int collect_relocs(struct image *im, const struct layout *l, struct reloc *rel)
{
	u64 end = im->tag_start + (u64)im->ntags * l->size;

	for (size_t i = 1; i < im->nsec; i++) {
		Elf_Scn *scn = elf_getscn(im->elf, i);
		GElf_Shdr sh;
		Elf_Data *d;

		if ((im->sec[i].type != SHT_RELA && im->sec[i].type != SHT_REL) ||
		    !gelf_getshdr(scn, &sh) || sh.sh_info != im->tag_sec)
			continue;
		if (sh.sh_type == SHT_REL)
			return ERROR(im->name, "SHT_REL section %s: only RELA is supported",
				     im->sec[i].name);
		if (sh.sh_link == 0 || sh.sh_link >= im->nsec ||
		    im->sec[sh.sh_link].type != SHT_SYMTAB)
			return ERROR(im->name, "relocation section %s has no symbol table",
				     im->sec[i].name);
		d = elf_getdata(scn, NULL);
		if (!d || !sh.sh_entsize)
			return ERROR(im->name, "cannot read %s: %s", im->sec[i].name,
				     elf_errmsg(-1));
		for (size_t j = 0; j < sh.sh_size / sh.sh_entsize && j <= INT_MAX; j++) {
			unsigned int type, n;
			u64 off, in;
			size_t t;
			GElf_Rela r;
			int f;

			if (!gelf_getrela(d, (int)j, &r))
				return ERROR(im->name, "cannot read %s: %s",
					     im->sec[i].name, elf_errmsg(-1));
			type = GELF_R_TYPE(r.r_info);
			n = reloc_bytes(type);
			if (n == 0 || r.r_offset >= end ||
			    (r.r_offset < im->tag_start &&
			     im->tag_start - r.r_offset >= n))
				continue;
			if (r.r_offset < im->tag_start || end - r.r_offset < n)
				return ERROR(im->name,
					     "relocation at 0x%llx straddles the tag bounds",
					     (unsigned long long)r.r_offset);
			off = r.r_offset - im->tag_start;
			t = off / l->size;
			in = off % l->size;
			if (overlaps(in, n, l->idx_off, l->idx_width))
				return ERROR(im->name,
					     "tag %zu: relocation %u would overwrite the index field",
					     t, type);
			for (f = 0; f < NR_PTRS && l->ptr_off[f] != in; f++)
				;
			if (f == NR_PTRS)
				continue;	/* counters and the like */
			if (type != R_X86_64_64)
				return ERROR(im->name,
					     "tag %zu: %s has relocation type %u, want R_X86_64_64",
					     t, ptr_names[f], type);
			if (rel[t * NR_PTRS + f].symtab)
				return ERROR(im->name, "tag %zu: %s is relocated twice",
					     t, ptr_names[f]);
			rel[t * NR_PTRS + f] = (struct reloc){
				sh.sh_link, GELF_R_SYM(r.r_info), r.r_addend };
		}
	}
	return 0;
}

static const char *resolve_reloc(struct image *im, const struct reloc *r,
				 u64 raw, size_t tag, int field)
{
	Elf_Scn *scn;
	Elf_Data *d;
	GElf_Sym sym;
	u64 off;

	if (!r->symtab) {
		if (raw)
			ERROR(im->name, "tag %zu: %s is 0x%llx with no relocation",
			      tag, ptr_names[field], (unsigned long long)raw);
		return NULL;
	}
	scn = elf_getscn(im->elf, r->symtab);
	d = scn ? elf_getdata(scn, NULL) : NULL;
	if (!d || r->sym > INT_MAX || !gelf_getsym(d, (int)r->sym, &sym)) {
		ERROR(im->name, "tag %zu: %s: bad symbol %zu", tag, ptr_names[field], r->sym);
		return NULL;
	}
	if (sym.st_shndx == SHN_UNDEF || sym.st_shndx >= SHN_LORESERVE ||
	    sym.st_shndx >= im->nsec) {
		ERROR(im->name, "tag %zu: %s refers to a symbol in no section",
		      tag, ptr_names[field]);
		return NULL;
	}
	off = sym.st_value + (u64)r->addend;
	return string_at(im, sym.st_shndx, off, tag, field);
}

static int read_tags(struct image *im, const struct layout *l)
{
	struct reloc *rel = NULL;
	int ret = -1;

	if (load_section(im, im->tag_sec))
		return -1;
	im->tags = calloc(im->ntags ? im->ntags : 1, sizeof(*im->tags));
	if (im->module)
		rel = calloc(im->ntags ? im->ntags * NR_PTRS : 1, sizeof(*rel));
	if (!im->tags || (im->module && !rel)) {
		ERROR(im->name, "out of memory");
		goto out;
	}
	if (im->module && collect_relocs(im, l, rel))
		goto out;
	for (size_t t = 0; t < im->ntags; t++) {
		/* data is NULL for an empty section: only index it with tags */
		const unsigned char *p = im->sec[im->tag_sec].data +
					 im->tag_start + t * l->size;
		struct tag *tag = &im->tags[t];

		tag->stored = get_le(p + l->idx_off, l->idx_width);
		tag->lineno = (u32)get_le(p + l->lineno_off, 4);
		for (int f = 0; f < NR_PTRS; f++) {
			u64 raw = get_le(p + l->ptr_off[f], 8);

			tag->str[f] = im->module ?
				resolve_reloc(im, &rel[t * NR_PTRS + f], raw, t, f) :
				resolve_addr(im, raw, t, f);
			if (!tag->str[f] && (raw || (im->module && rel[t * NR_PTRS + f].symtab)))
				goto out;
		}
	}
	ret = 0;
out:
	free(rel);
	return ret;
}

static int check_capacity(struct image *im, const struct options *o)
{
	u64 cap = UINT64_C(1) << o->l.idx_bits;

	if (!im->module) {
		u64 need = FIRST_INDEX + (u64)im->ntags + o->module_reserve;

		im->first = FIRST_INDEX;
		im->limit = cap - FIRST_INDEX - o->module_reserve;
		if (need > cap)
			return ERROR(im->name,
				     "too many tags: %d reserved + %zu tags + %lu module reserve = %llu, capacity of %lu bits is %llu",
				     FIRST_INDEX, im->ntags, o->module_reserve,
				     (unsigned long long)need, o->l.idx_bits,
				     (unsigned long long)cap);
		return 0;
	}
	im->first = 0;
	im->limit = o->module_reserve ? o->module_reserve : cap - FIRST_INDEX;
	if (im->ntags > im->limit)
		return ERROR(im->name,
			     "too many tags for a module: %zu tags, limit %llu (%s)",
			     im->ntags, (unsigned long long)im->limit,
			     o->module_reserve ? "module reserve" : "capacity minus 2 reserved");
	return 0;
}

/*
 * Validate buf completely and fill im.  Changes nothing in buf.
 * Returns 0, 1 if the file has no tags at all, or -1 after a message.
 */
static int image_scan(struct image *im, const struct options *o)
{
	const unsigned char *id = im->buf;
	GElf_Ehdr eh;
	int ret;

	if (im->len < SELFMAG || memcmp(id, ELFMAG, SELFMAG))
		return ERROR(im->name, "not an ELF file");
	if (im->len < sizeof(Elf64_Ehdr))
		return ERROR(im->name, "truncated: %zu bytes, shorter than an ELF header",
			     im->len);
	if (id[EI_CLASS] != ELFCLASS64)
		return ERROR(im->name, "ELF class %u is not ELFCLASS64", id[EI_CLASS]);
	if (id[EI_DATA] != ELFDATA2LSB)
		return ERROR(im->name, "ELF data encoding %u is not little-endian",
			     id[EI_DATA]);
	im->elf = elf_memory((char *)im->buf, im->len);
	if (!im->elf || elf_kind(im->elf) != ELF_K_ELF || !gelf_getehdr(im->elf, &eh))
		return ERROR(im->name, "cannot read ELF header: %s", elf_errmsg(-1));
	if (eh.e_machine != EM_X86_64)
		return ERROR(im->name, "machine %u is not x86-64 (%u)", eh.e_machine,
			     EM_X86_64);
	if (eh.e_type != ET_EXEC && eh.e_type != ET_REL)
		return ERROR(im->name,
			     "ELF type %u is neither ET_EXEC (vmlinux) nor ET_REL (module)",
			     eh.e_type);
	im->module = eh.e_type == ET_REL;
	if (!eh.e_shoff)
		return ERROR(im->name, "no section headers");
	if (eh.e_shentsize != sizeof(Elf64_Shdr))
		return ERROR(im->name, "section header size %u, want %zu",
			     eh.e_shentsize, sizeof(Elf64_Shdr));
	/* e_shnum 0: the count is in the first header, which must be there */
	if (eh.e_shoff > im->len ||
	    (eh.e_shnum ? eh.e_shnum : 1) > (im->len - eh.e_shoff) / sizeof(Elf64_Shdr))
		return ERROR(im->name, "truncated: %u section headers at byte %llu, file has %zu",
			     eh.e_shnum, (unsigned long long)eh.e_shoff, im->len);
	if (read_sections(im, eh.e_shoff))
		return -1;
	ret = locate_tags(im, &o->l);
	if (ret)
		return ret;
	if (check_tag_bytes(im, &eh) || read_tags(im, &o->l) || check_capacity(im, o))
		return -1;
	return 0;
}

/* Write the indices into buf (or only count); returns how many change. */
static size_t image_assign(struct image *im, const struct options *o, bool write)
{
	const struct section *s = &im->sec[im->tag_sec];
	unsigned char *p = im->buf + s->offset + im->tag_start + o->l.idx_off;
	size_t changed = 0;

	for (size_t t = 0; t < im->ntags; t++, p += o->l.size) {
		u64 idx = im->first + t;

		if (im->tags[t].stored == idx)
			continue;
		if (write)
			put_le(p, o->l.idx_width, idx);
		changed++;
	}
	return changed;
}

static void image_free(struct image *im)
{
	if (im->elf)
		elf_end(im->elf);
	free(im->sec);
	free(im->tags);
	im->elf = NULL;
	im->sec = NULL;
	im->tags = NULL;
}

static void put_field(FILE *f, const char *s)
{
	if (!s) {
		fputc('-', f);
		return;
	}
	while (*s) {
		size_t n = 0;
		unsigned char c;

		/* copy runs of plain bytes; escape controls and backslash */
		while ((c = s[n]) && c >= 0x20 && c != 0x7f && c != '\\')
			n++;
		fwrite(s, 1, n, f);
		s += n;
		if (*s)
			fprintf(f, "\\x%02x", (unsigned char)*s++);
	}
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

/* The map: one line per tag, by index.  stored: print what the file holds. */
static void map_print(FILE *f, const struct image *im, bool stored)
{
	fprintf(f, "# link-tags map of %s (%s; - = NULL): %s\tfile:line\tfunction\tmodule\n",
		base_name(im->name),
		im->module ? "module-local indices, rebased at load" :
			     "0 = no tag, 1 = empty",
		im->module ? "local-index" : "index");
	for (size_t t = 0; t < im->ntags; t++) {
		const struct tag *tag = &im->tags[t];

		fprintf(f, "%llu\t", (unsigned long long)(stored ? tag->stored : im->first + t));
		put_field(f, tag->str[F_FILENAME]);
		fprintf(f, ":%lu\t", (unsigned long)tag->lineno);
		put_field(f, tag->str[F_FUNCTION]);
		fputc('\t', f);
		put_field(f, tag->str[F_MODNAME]);
		fputc('\n', f);
	}
}

#ifndef LINK_TAGS_NO_MAIN

/* What open(O_CREAT, 0666) would give: mkstemp() makes 0600 files. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* A temporary file beside path holding data, synced; its name in *tmp. */
static int write_temp(const char *path, const void *data, size_t len,
		      const struct stat *like, char **tmp)
{
	const char *base = base_name(path);
	size_t dirlen = base - path;
	const char *p = data;
	int fd;

	*tmp = malloc(dirlen + strlen(base) + 32);
	if (!*tmp)
		return ERROR(path, "out of memory");
	sprintf(*tmp, "%.*s.%s.link-tags.XXXXXX", (int)dirlen, path, base);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		ERROR(path, "cannot create a temporary file: %s", strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			goto fail;
		p += n;
		len -= n;
	}
	if (like && geteuid() == 0 && fchown(fd, like->st_uid, like->st_gid))
		goto fail;
	if (fchmod(fd, like ? like->st_mode & 07777 : new_file_mode()) || fsync(fd))
		goto fail;
	if (close(fd)) {
		fd = -1;
		goto fail;
	}
	return 0;
fail:
	ERROR(path, "cannot write %s: %s", *tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(*tmp);
	free(*tmp);
	*tmp = NULL;
	return -1;
}

/* Test hook: wait (at most 10 s) for a file to appear before committing. */
static void test_barrier(void)
{
	const char *go = getenv("LINK_TAGS_TEST_BARRIER");
	struct timespec ts = { 0, 10 * 1000 * 1000 };

	for (int i = 0; go && i < 1000 && access(go, F_OK); i++)
		nanosleep(&ts, NULL);
}

static int read_file(const char *path, bool writing, struct image *im, struct stat *st)
{
	size_t got = 0;
	int fd;

	if (lstat(path, st))
		return ERROR(path, "%s", strerror(errno));
	if (S_ISLNK(st->st_mode) && writing)
		return ERROR(path, "is a symbolic link; pass the file it points to");
	if (!S_ISREG(st->st_mode))
		return ERROR(path, "not a regular file");
	/* root passes access(W_OK) on anything, so look at the mode too */
	if (writing && (!(st->st_mode & 0200) || access(path, W_OK)))
		return ERROR(path, "not writable (mode %04o); refusing to change it",
			     (unsigned int)(st->st_mode & 07777));
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ERROR(path, "cannot open: %s", strerror(errno));
	if (fstat(fd, st)) {
		close(fd);
		return ERROR(path, "cannot stat: %s", strerror(errno));
	}
	im->len = st->st_size;
	im->buf = malloc(im->len ? im->len : 1);
	if (!im->buf) {
		close(fd);
		return ERROR(path, "out of memory for %zu bytes", im->len);
	}
	while (got < im->len) {
		ssize_t n = read(fd, im->buf + got, im->len - got);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			close(fd);
			return ERROR(path, "short read: %s", n ? strerror(errno) : "file shrank");
		}
		got += n;
	}
	close(fd);
	return 0;
}

/* Is path still the file we read? */
static int unchanged_since(const char *path, const struct stat *was)
{
	struct stat now;

	if (stat(path, &now))
		return ERROR(path, "vanished while link-tags ran (%s); not replacing it",
			     strerror(errno));
	if (now.st_dev != was->st_dev || now.st_ino != was->st_ino ||
	    now.st_size != was->st_size ||
	    now.st_mtim.tv_sec != was->st_mtim.tv_sec ||
	    now.st_mtim.tv_nsec != was->st_mtim.tv_nsec)
		return ERROR(path, "changed while link-tags ran; not replacing it");
	return 0;
}

static void sync_dir(const char *path)
{
	const char *base = base_name(path);
	char *dir = strndup(path, base - path);
	int fd;

	if (!dir)
		return;
	fd = open(*dir ? dir : ".", O_RDONLY);
	if (fd >= 0) {
		fsync(fd);
		close(fd);
	}
	free(dir);
}

/* Bits to tell apart this many values. */
static unsigned int bits_for(u64 values)
{
	unsigned int b = 0;

	while (b < 64 && (UINT64_C(1) << b) < values)
		b++;
	return b;
}

static void summary(const struct image *im, const struct options *o, size_t changed,
		    bool check)
{
	char range[64] = "none";

	if (im->ntags)
		snprintf(range, sizeof(range), "%llu..%llu",
			 (unsigned long long)im->first,
			 (unsigned long long)(im->first + im->ntags - 1));
	printf("%s: %s: %zu tags, ", TOOL, im->name, im->ntags);
	if (im->module) {
		printf("local indices %s (loader rebases; count = %llu bytes / %lu), ",
		       range, (unsigned long long)im->ntags * o->l.size, o->l.size);
		printf("%u bits needed, %lu bits available, module limit %llu, ",
		       bits_for(im->ntags), o->l.idx_bits, (unsigned long long)im->limit);
	} else {
		printf("indices %s, %u bits needed, %lu bits available, module reserve %lu, ",
		       range, bits_for(FIRST_INDEX + (u64)im->ntags), o->l.idx_bits,
		       o->module_reserve);
	}
	printf("headroom %llu", (unsigned long long)(im->limit - im->ntags));
	printf(check ? ", %zu to update (--check)\n" : ", %zu updated\n", changed);
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: link-tags [options] FILE\n"
		"Give each allocation tag in FILE (vmlinux or a .ko) a compact index.\n"
		"\n"
		"  --tag-size N        bytes per tag (default 40)\n"
		"  --index-offset N    byte offset of the index field in a tag (default 2)\n"
		"  --index-width N     bytes of the index field: 1, 2 or 4 (default 2)\n"
		"  --index-bits N      index bits the kernel can use, at most 8 * width (default 16)\n"
		"  --fields L,M,F,P    offsets of lineno (u32) and of the modname, function and\n"
		"                      filename pointers (u64) (default 4,8,16,24)\n"
		"  --module-reserve N  vmlinux: indices kept free for modules; module: most\n"
		"                      tags one module may have, 0 = 2^bits - 2 (default 0)\n"
		"  --map FILE          write the tag map to FILE (default: FILE.tagmap)\n"
		"  --no-map            write no tag map\n"
		"  --missing-ok        a file with no tags at all is not an error\n"
		"  --check             validate and report, write nothing\n"
		"  --dump              print the map with the indices FILE holds, write nothing\n"
		"  -q, --quiet         no summary line\n"
		"  -h, --help          this text\n"
		"\n"
		"vmlinux gets indices 2.. in section order (0 = no tag, 1 = empty); a module\n"
		"gets local indices 0..n-1.  Map lines: index, file:line, function, module\n"
		"(\"-\" for NULL, i.e. built-in), tab-separated.  Exit status 0 ok, 1 error.\n");
}

static int parse_ulong(const char *opt, const char *s, unsigned long *v)
{
	char *end;

	errno = 0;
	*v = strtoul(s, &end, 0);
	if (errno || end == s || *end || *s == '-')
		return ERROR("command line", "bad number '%s' for %s", s, opt);
	return 0;
}

static int parse_fields(const char *s, struct layout *l)
{
	unsigned long v[4];
	char *end;
	int n;

	for (n = 0; n < 4; n++) {
		errno = 0;
		v[n] = strtoul(s, &end, 0);
		if (errno || end == s || *s == '-' || *end != (n < 3 ? ',' : '\0'))
			return ERROR("command line", "--fields wants four offsets L,M,F,P");
		s = end + 1;
	}
	l->lineno_off = v[0];
	for (n = 0; n < NR_PTRS; n++)
		l->ptr_off[n] = v[n + 1];
	return 0;
}

static int check_layout(const struct options *o)
{
	const struct layout *l = &o->l;
	unsigned long off[5] = { l->idx_off, l->lineno_off, l->ptr_off[0],
				 l->ptr_off[1], l->ptr_off[2] };
	unsigned long len[5] = { l->idx_width, 4, 8, 8, 8 };
	static const char *const name[5] = { "index", "lineno", "modname",
					     "function", "filename" };
	const char *what = "command line";

	if (l->size < 1 || l->size > 1 << 20)
		return ERROR(what, "--tag-size %lu out of range 1..%d", l->size, 1 << 20);
	if (l->idx_width != 1 && l->idx_width != 2 && l->idx_width != 4)
		return ERROR(what, "--index-width must be 1, 2 or 4");
	if (l->idx_bits < 1 || l->idx_bits > 8 * l->idx_width)
		return ERROR(what, "--index-bits %lu out of range 1..%lu",
			     l->idx_bits, 8 * l->idx_width);
	for (int i = 0; i < 5; i++) {
		if (off[i] > l->size || len[i] > l->size - off[i])
			return ERROR(what, "the %s field at offset %lu does not fit a %lu-byte tag",
				     name[i], off[i], l->size);
		for (int j = 0; j < i; j++)
			if (overlaps(off[i], len[i], off[j], len[j]))
				return ERROR(what,
					     "the %s field at offset %lu overlaps the %s field at %lu",
					     name[j], off[j], name[i], off[i]);
	}
	if (o->module_reserve > (UINT64_C(1) << l->idx_bits) - FIRST_INDEX)
		return ERROR(what, "--module-reserve %lu exceeds the %llu indices of %lu bits",
			     o->module_reserve,
			     (unsigned long long)(UINT64_C(1) << l->idx_bits) - FIRST_INDEX,
			     l->idx_bits);
	return 0;
}

enum {
	O_TAG_SIZE = 256, O_INDEX_OFFSET, O_INDEX_WIDTH, O_INDEX_BITS, O_FIELDS,
	O_MODULE_RESERVE, O_MAP, O_NO_MAP, O_MISSING_OK, O_CHECK, O_DUMP
};

static const struct option long_opts[] = {
	{ "tag-size",		required_argument,	NULL, O_TAG_SIZE },
	{ "index-offset",	required_argument,	NULL, O_INDEX_OFFSET },
	{ "index-width",	required_argument,	NULL, O_INDEX_WIDTH },
	{ "index-bits",		required_argument,	NULL, O_INDEX_BITS },
	{ "fields",		required_argument,	NULL, O_FIELDS },
	{ "module-reserve",	required_argument,	NULL, O_MODULE_RESERVE },
	{ "map",		required_argument,	NULL, O_MAP },
	{ "no-map",		no_argument,		NULL, O_NO_MAP },
	{ "missing-ok",		no_argument,		NULL, O_MISSING_OK },
	{ "check",		no_argument,		NULL, O_CHECK },
	{ "dump",		no_argument,		NULL, O_DUMP },
	{ "quiet",		no_argument,		NULL, 'q' },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

int main(int argc, char **argv)
{
	struct options o = {
		.l = { .size = 40, .idx_off = 2, .idx_width = 2, .idx_bits = 16,
		       .lineno_off = 4, .ptr_off = { 8, 16, 24 } },
	};
	bool no_map = false, check = false, dump = false, quiet = false;
	char *map_path = NULL, *map_owned = NULL, *tmp = NULL, *map_tmp = NULL;
	char *map_text = NULL;
	size_t map_len = 0, changed = 0;
	struct image im = { 0 };
	const char *path;
	struct stat st;
	int c, ret = 1, found;

	while ((c = getopt_long(argc, argv, "qh", long_opts, NULL)) != -1) {
		unsigned long *num = NULL;

		switch (c) {
		case O_TAG_SIZE:
			num = &o.l.size;
			break;
		case O_INDEX_OFFSET:
			num = &o.l.idx_off;
			break;
		case O_INDEX_WIDTH:
			num = &o.l.idx_width;
			break;
		case O_INDEX_BITS:
			num = &o.l.idx_bits;
			break;
		case O_MODULE_RESERVE:
			num = &o.module_reserve;
			break;
		case O_FIELDS:
			if (parse_fields(optarg, &o.l))
				return 1;
			break;
		case O_MAP:
			map_path = optarg;
			break;
		case O_NO_MAP:
			no_map = true;
			break;
		case O_MISSING_OK:
			o.missing_ok = true;
			break;
		case O_CHECK:
			check = true;
			break;
		case O_DUMP:
			dump = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 1;
		}
		/* the first entries of long_opts follow the enum */
		if (num && parse_ulong(long_opts[c - O_TAG_SIZE].name, optarg, num))
			return 1;
	}
	if (optind != argc - 1) {
		print_usage(stderr);
		return 1;
	}
	path = argv[optind];
	if (check_layout(&o))
		return 1;
	if (elf_version(EV_CURRENT) == EV_NONE) {
		ERROR(path, "libelf is out of date");
		return 1;
	}

	im.name = path;
	if (read_file(path, !check && !dump, &im, &st))
		goto out;
	found = image_scan(&im, &o);
	if (found < 0)
		goto out;
	if (found) {
		if (!o.missing_ok) {
			ERROR(path, "no %s section and no %s/%s symbols",
			      TAG_SECTION, START_SYM, STOP_SYM);
			goto out;
		}
		if (!quiet)
			printf("%s: %s: no alloc tags, nothing to do\n", TOOL, path);
		ret = 0;
		goto out;
	}
	if (dump) {
		map_print(stdout, &im, true);
		ret = fflush(stdout) ? 1 : 0;
		goto out;
	}
	for (size_t t = 0, other = 0; t < im.ntags; t++) {
		if (im.tags[t].stored && im.tags[t].stored != im.first + t &&
		    !other++)
			WARN(path, "tag %zu already had index %llu; a different layout or an old run?",
			     t, (unsigned long long)im.tags[t].stored);
	}
	if (!no_map && !check) {
		FILE *f = open_memstream(&map_text, &map_len);

		if (!f) {
			ERROR(path, "out of memory");
			goto out;
		}
		map_print(f, &im, false);
		if (fclose(f)) {
			ERROR(path, "cannot format the tag map");
			goto out;
		}
	}
	/* the map text is formatted: the strings in im may now go stale */
	changed = image_assign(&im, &o, !check);
	if (check) {
		ret = 0;
		goto report;
	}
	if (!map_path && !no_map) {
		map_owned = malloc(strlen(path) + sizeof(".tagmap"));
		if (!map_owned) {
			ERROR(path, "out of memory");
			goto out;
		}
		sprintf(map_owned, "%s.tagmap", path);
		map_path = map_owned;
	}
	if (changed && write_temp(path, im.buf, im.len, &st, &tmp))
		goto out;
	if (!no_map && write_temp(map_path, map_text, map_len, NULL, &map_tmp))
		goto out;
	test_barrier();
	if (tmp && unchanged_since(path, &st))
		goto out;
	if (tmp && rename(tmp, path)) {
		ERROR(path, "cannot replace: %s", strerror(errno));
		goto out;
	}
	free(tmp);
	tmp = NULL;
	if (map_tmp && rename(map_tmp, map_path)) {
		ERROR(map_path, "cannot replace: %s", strerror(errno));
		goto out;
	}
	sync_dir(path);
	ret = 0;
report:
	if (!quiet)
		summary(&im, &o, changed, check);
out:
	if (tmp)
		unlink(tmp);
	if (map_tmp && ret)
		unlink(map_tmp);
	free(tmp);
	free(map_tmp);
	free(map_text);
	free(map_owned);
	image_free(&im);
	free(im.buf);
	return ret;
}

#endif /* LINK_TAGS_NO_MAIN */
