// SPDX-License-Identifier: GPL-2.0-only
/*
 * link-tags - give each allocation tag of vmlinux a compact index.
 *
 * The tags are the bytes between __start_alloc_tags and __stop_alloc_tags.
 * They get indices 2, 3, ... in section order (0 means "no tag", 1 means
 * "empty"), written into each tag's index field in the byte order of the
 * file.  Module tags are not touched: the module loader numbers them.
 *
 * The file is read with scripts/elf-parse.c, so any ELF class and byte
 * order works.  It is checked completely before anything is written; the
 * new contents go to a temporary file beside it, which is then renamed
 * over it, so an error leaves the file as it was.  A text map (index,
 * file:line, function, module) is written beside it.
 *
 * The layout of a tag comes from the command line; see print_usage().
 */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <linux/types.h>

#include "elf-parse.h"

#define TOOL		"link-tags"
#define START_SYM	"__start_alloc_tags"
#define STOP_SYM	"__stop_alloc_tags"
#define FIRST_INDEX	2	/* 0 = no tag, 1 = empty */

/* What tools/include/linux/compiler-gcc.h has, which a host tool cannot use */
#ifndef __printf
#define __gcc_attr(x)		__attribute__((x))
#define __printf(a, b)		__gcc_attr(format(printf, a, b))
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
	unsigned long ptr_off[NR_PTRS];	/* pointers, as wide as the ELF class */
};

struct options {
	struct layout l;
	unsigned long module_reserve;
	bool fit;			/* --fit: warn, never fail, on capacity */
};

struct section {
	u64 addr, offset, size, flags, entsize;
	u32 type, link, name_off;
	const char *name;
};

struct tag {
	u64 stored;			/* index found in the file */
	u32 lineno;
	u64 ptr[NR_PTRS];		/* addresses */
	bool relocated[NR_PTRS];	/* ptr came from a dynamic relocation */
	const char *str[NR_PTRS];	/* NULL for a NULL pointer */
};

struct image {
	const char *name;		/* for messages */
	unsigned char *buf;		/* the mapped file: only ever read */
	size_t len;
	bool big;			/* big-endian */
	unsigned int word;		/* pointer bytes: 4 or 8 */
	unsigned int machine;
	size_t nsec;
	struct section *sec;
	u64 tag_addr;			/* address of the first tag */
	u64 tag_off;			/* its file offset */
	u64 tag_bytes;
	size_t ntags;
	struct tag *tags;
	unsigned char *out;		/* the tag bytes with the new indices */
	u64 limit;			/* indices left for this file's tags */
	bool unindexed;			/* --fit: too many tags, nothing to write */
};

/* n bytes at p, in the byte order of the file */
static u64 get_uint(const struct image *im, const unsigned char *p, unsigned int n)
{
	u64 v = 0;

	for (unsigned int i = 0; i < n; i++)
		v = v << 8 | p[im->big ? i : n - 1 - i];
	return v;
}

static void put_uint(const struct image *im, unsigned char *p, unsigned int n, u64 v)
{
	for (unsigned int i = 0; i < n; i++, v >>= 8)
		p[im->big ? n - 1 - i : i] = v & 0xff;
}

/* Do byte ranges [a, a+alen) and [b, b+blen) meet?  Lengths are nonzero. */
static bool overlaps(u64 a, u64 alen, u64 b, u64 blen)
{
	return a < b ? b - a < alen : a - b < blen;
}

/* Does [off, off+size) lie inside the file? */
static bool in_file(const struct image *im, u64 off, u64 size)
{
	return off <= im->len && size <= im->len - off;
}

/* Header fields elf-parse.h has no accessor for */
static u64 ehdr_phoff(const struct image *im, Elf_Ehdr *eh)
{
	return im->word == 8 ? elf_parser.r8(&eh->e64.e_phoff) :
			       elf_parser.r(&eh->e32.e_phoff);
}

static u64 ehdr_phsize(const struct image *im, Elf_Ehdr *eh)
{
	return im->word == 8 ?
		(u64)elf_parser.r2(&eh->e64.e_phnum) * elf_parser.r2(&eh->e64.e_phentsize) :
		(u64)elf_parser.r2(&eh->e32.e_phnum) * elf_parser.r2(&eh->e32.e_phentsize);
}

static u64 shdr_flags(const struct image *im, Elf_Shdr *sh)
{
	return im->word == 8 ? elf_parser.r8(&sh->e64.sh_flags) :
			       elf_parser.r(&sh->e32.sh_flags);
}

/*
 * The identification and the few header fields elf-parse.c relies on
 * without checking them.  hdr holds the first n bytes of a file of len
 * bytes; elf_parser is not set up yet, so this reads the bytes itself.
 */
static int check_header(const char *name, const unsigned char *hdr, size_t n,
			size_t len)
{
	const struct image im = { .big = n > EI_DATA && hdr[EI_DATA] == ELFDATA2MSB };
	size_t ehsize, shentsize;
	unsigned int type;

	if (n < EI_NIDENT || memcmp(hdr, ELFMAG, SELFMAG))
		return ERROR(name, "not an ELF file");
	if (hdr[EI_CLASS] != ELFCLASS32 && hdr[EI_CLASS] != ELFCLASS64)
		return ERROR(name, "ELF class %u is neither ELFCLASS32 nor ELFCLASS64",
			     hdr[EI_CLASS]);
	if (hdr[EI_DATA] != ELFDATA2LSB && hdr[EI_DATA] != ELFDATA2MSB)
		return ERROR(name, "ELF data encoding %u is neither LSB nor MSB",
			     hdr[EI_DATA]);
	if (hdr[EI_VERSION] != EV_CURRENT)
		return ERROR(name, "ELF version %u is not %u", hdr[EI_VERSION], EV_CURRENT);
	ehsize = hdr[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr);
	shentsize = hdr[EI_CLASS] == ELFCLASS64 ? sizeof(Elf64_Shdr) : sizeof(Elf32_Shdr);
	if (n < ehsize || len < ehsize)
		return ERROR(name, "truncated: %zu bytes, shorter than an ELF header", len);
	type = get_uint(&im, hdr + offsetof(Elf32_Ehdr, e_type), 2);
	if (type != ET_EXEC && type != ET_DYN)
		return ERROR(name, "ELF type %u is neither ET_EXEC nor ET_DYN (vmlinux)",
			     type);
	/* e_ehsize and e_shentsize sit at different offsets in the two classes */
	if (get_uint(&im, hdr + (ehsize == sizeof(Elf64_Ehdr) ?
				 offsetof(Elf64_Ehdr, e_ehsize) :
				 offsetof(Elf32_Ehdr, e_ehsize)), 2) != ehsize)
		return ERROR(name, "ELF header size is not %zu", ehsize);
	if (get_uint(&im, hdr + (ehsize == sizeof(Elf64_Ehdr) ?
				 offsetof(Elf64_Ehdr, e_shentsize) :
				 offsetof(Elf32_Ehdr, e_shentsize)), 2) != shentsize)
		return ERROR(name, "section header size is not %zu", shentsize);
	return 0;
}

/* Check the header, then map the file with elf-parse.c. */
static int image_open(struct image *im, const char *path)
{
	unsigned char hdr[sizeof(Elf64_Ehdr)];
	struct stat st;
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return ERROR(path, "cannot open: %s", strerror(errno));
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n < 0 || fstat(fd, &st)) {
		ERROR(path, "cannot read: %s", strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	if (check_header(path, hdr, n, st.st_size))
		return -1;
	/* Read only: the new image goes to a copy, even when writing */
	im->buf = elf_map_ro(path, &im->len, 1 << ET_EXEC | 1 << ET_DYN);
	if (!im->buf)
		return ERROR(path, "elf_map_ro() failed");
	return 0;
}

static int read_sections(struct image *im)
{
	Elf_Ehdr *eh = (Elf_Ehdr *)im->buf;
	u64 shoff = ehdr_shoff(eh), shentsize = ehdr_shentsize(eh);
	size_t nsec = ehdr_shnum(eh), strndx = ehdr_shstrndx(eh);
	const struct section *str;

	if (!shoff)
		return ERROR(im->name, "no section headers");
	/* every structure is read in place: keep them naturally aligned */
	if (shoff % im->word)
		return ERROR(im->name, "section headers at a misaligned offset");
	if (!in_file(im, shoff, shentsize))
		return ERROR(im->name, "truncated: section headers at byte %llu, file has %zu",
			     (unsigned long long)shoff, im->len);
	/* 0 and SHN_XINDEX: the real values are in section header 0 */
	if (!nsec)
		nsec = shdr_size((Elf_Shdr *)(im->buf + shoff));
	if (strndx == SHN_XINDEX)
		strndx = shdr_link((Elf_Shdr *)(im->buf + shoff));
	if (nsec < 2)
		return ERROR(im->name, "no sections");
	if (nsec > (im->len - shoff) / shentsize)
		return ERROR(im->name, "truncated: %zu section headers do not fit", nsec);
	if (!strndx || strndx >= nsec)
		return ERROR(im->name, "no section name table");
	im->nsec = nsec;
	im->sec = calloc(nsec, sizeof(*im->sec));
	if (!im->sec)
		return ERROR(im->name, "out of memory");
	for (size_t i = 0; i < nsec; i++) {
		Elf_Shdr *sh = (Elf_Shdr *)(im->buf + shoff + i * shentsize);
		struct section *s = &im->sec[i];

		s->addr = shdr_addr(sh);
		s->offset = shdr_offset(sh);
		s->size = shdr_size(sh);
		s->flags = shdr_flags(im, sh);
		s->entsize = shdr_entsize(sh);
		s->type = shdr_type(sh);
		s->link = shdr_link(sh);
		s->name_off = shdr_name(sh);
		if (i && s->type != SHT_NOBITS && !in_file(im, s->offset, s->size))
			return ERROR(im->name,
				     "truncated: section %zu ends at byte %llu, file has %zu",
				     i, (unsigned long long)(s->offset + s->size), im->len);
	}
	str = &im->sec[strndx];
	if (str->type != SHT_STRTAB || !str->size ||
	    im->buf[str->offset + str->size - 1])
		return ERROR(im->name, "the section name table is not a string table");
	for (size_t i = 0; i < nsec; i++)
		im->sec[i].name = im->sec[i].name_off < str->size ?
			(const char *)im->buf + str->offset + im->sec[i].name_off :
			"(bad name)";
	return 0;
}

/* Values of the two tag symbols from the symbol table. */
static int find_symbols(struct image *im, u64 *start, u64 *stop)
{
	size_t symsize = im->word == 8 ? sizeof(Elf64_Sym) : sizeof(Elf32_Sym);
	const struct section *s = NULL, *str;
	bool have_start = false, have_stop = false;

	for (size_t i = 1; i < im->nsec && !s; i++)
		if (im->sec[i].type == SHT_SYMTAB)
			s = &im->sec[i];
	if (!s)
		return ERROR(im->name, "no symbol table (stripped?)");
	if (s->entsize != symsize || s->offset % im->word || !s->link ||
	    s->link >= im->nsec)
		return ERROR(im->name, "symbol table %s is malformed", s->name);
	str = &im->sec[s->link];
	if (str->type != SHT_STRTAB || !str->size ||
	    im->buf[str->offset + str->size - 1])
		return ERROR(im->name, "symbol table %s has no string table", s->name);
	for (u64 j = 1; j < s->size / symsize; j++) {
		Elf_Sym *sym = (Elf_Sym *)(im->buf + s->offset + j * symsize);
		u64 name = sym_name(sym);
		const char *n;

		if (name >= str->size || sym_shndx(sym) == SHN_UNDEF)
			continue;
		n = (const char *)im->buf + str->offset + name;
		if (!have_start && !strcmp(n, START_SYM)) {
			*start = sym_value(sym);
			have_start = true;
		} else if (!have_stop && !strcmp(n, STOP_SYM)) {
			*stop = sym_value(sym);
			have_stop = true;
		}
	}
	if (!have_start && !have_stop)
		return ERROR(im->name, "no %s/%s symbols (profiling off?)",
			     START_SYM, STOP_SYM);
	if (!have_start || !have_stop)
		return ERROR(im->name, "missing symbol %s", have_start ? STOP_SYM : START_SYM);
	return 0;
}

/* The tags: inside one allocated section with contents, nothing else there. */
static int locate_tags(struct image *im, const struct layout *l)
{
	Elf_Ehdr *eh = (Elf_Ehdr *)im->buf;
	u64 start = 0, stop = 0, phsize = ehdr_phsize(im, eh);
	size_t i;

	if (find_symbols(im, &start, &stop))
		return -1;
	if (start > stop)
		return ERROR(im->name, "%s (0x%llx) is above %s (0x%llx)",
			     START_SYM, (unsigned long long)start,
			     STOP_SYM, (unsigned long long)stop);
	im->tag_bytes = stop - start;
	if (im->tag_bytes % l->size)
		return ERROR(im->name, "tags take %llu bytes, not a multiple of the tag size %lu",
			     (unsigned long long)im->tag_bytes, l->size);
	im->ntags = im->tag_bytes / l->size;
	for (i = 1; i < im->nsec; i++) {
		const struct section *s = &im->sec[i];

		if ((s->flags & SHF_ALLOC) && s->type != SHT_NOBITS &&
		    start >= s->addr && stop - s->addr <= s->size)
			break;
	}
	if (i == im->nsec)
		return ERROR(im->name,
			     "tags 0x%llx..0x%llx lie outside any section with file contents",
			     (unsigned long long)start, (unsigned long long)stop);
	im->tag_addr = start;
	im->tag_off = im->sec[i].offset + (start - im->sec[i].addr);
	if (!im->tag_bytes)
		return 0;
	if (overlaps(im->tag_off, im->tag_bytes, 0, im->word == 8 ?
		     sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr)))
		return ERROR(im->name, "tags overlap the ELF header");
	if (phsize && overlaps(im->tag_off, im->tag_bytes, ehdr_phoff(im, eh), phsize))
		return ERROR(im->name, "tags overlap the program headers");
	if (overlaps(im->tag_off, im->tag_bytes, ehdr_shoff(eh),
		     im->nsec * ehdr_shentsize(eh)))
		return ERROR(im->name, "tags overlap the section headers");
	for (size_t j = 1; j < im->nsec; j++) {
		const struct section *s = &im->sec[j];

		if (j != i && s->type != SHT_NOBITS && s->size &&
		    overlaps(im->tag_off, im->tag_bytes, s->offset, s->size))
			return ERROR(im->name, "tags overlap section %s in the file", s->name);
	}
	return 0;
}

/* R_*_RELATIVE of each machine whose kernel may be linked as ET_DYN */
static u32 relative_type(unsigned int machine)
{
	switch (machine) {
	case EM_386:		return 8;	/* R_386_RELATIVE */
	case EM_X86_64:		return 8;	/* R_X86_64_RELATIVE */
	case EM_ARM:		return 23;	/* R_ARM_RELATIVE */
	case EM_AARCH64:	return 1027;	/* R_AARCH64_RELATIVE */
	case EM_PPC:		return 22;	/* R_PPC_RELATIVE */
	case EM_PPC64:		return 22;	/* R_PPC64_RELATIVE */
	case EM_S390:		return 12;	/* R_390_RELATIVE */
	case EM_SPARC:
	case EM_SPARCV9:	return 22;	/* R_SPARC_RELATIVE */
	case 243:		return 3;	/* EM_RISCV: R_RISCV_RELATIVE */
	case 258:		return 3;	/* EM_LOONGARCH: R_LARCH_RELATIVE */
	default:		return 0;
	}
}

/*
 * Dynamic relocations against the tags (an ET_DYN vmlinux, such as arm64's
 * relocatable one).  The linker may leave a pointer zero and put its value
 * in a RELATIVE relocation's addend; take it from there.  A relocation must
 * never touch the index field: it would change the index at boot.
 */
static int apply_dynamic_relocs(struct image *im, const struct layout *l)
{
	u64 end = im->tag_addr + im->tag_bytes, w = im->word;

	for (size_t i = 1; i < im->nsec && im->tag_bytes; i++) {
		const struct section *s = &im->sec[i];
		bool rela = s->type == SHT_RELA;
		u64 entsize = w == 8 ? (rela ? sizeof(Elf64_Rela) : sizeof(Elf64_Rel)) :
				       (rela ? sizeof(Elf32_Rela) : sizeof(Elf32_Rel));

		if ((s->type != SHT_RELA && s->type != SHT_REL) || !(s->flags & SHF_ALLOC))
			continue;
		if (s->entsize != entsize || s->offset % w)
			return ERROR(im->name, "relocation section %s is malformed", s->name);
		for (u64 j = 0; j < s->size / entsize; j++) {
			/* Elf_Rel is the head of Elf_Rela */
			Elf_Rela *r = (Elf_Rela *)(im->buf + s->offset + j * entsize);
			u64 at = rela_offset(r), info = rela_info(r), in;
			u32 type = w == 8 ? (u32)info : info & 0xff;
			struct tag *tag;
			int f;

			if (at >= end || (at < im->tag_addr && im->tag_addr - at >= w))
				continue;
			if (at < im->tag_addr || end - at < w)
				return ERROR(im->name,
					     "relocation at 0x%llx straddles the tag bounds",
					     (unsigned long long)at);
			tag = &im->tags[(at - im->tag_addr) / l->size];
			in = (at - im->tag_addr) % l->size;
			if (overlaps(in, w, l->idx_off, l->idx_width))
				return ERROR(im->name,
					     "tag %zu: relocation type %u would change the index field",
					     (size_t)(tag - im->tags), type);
			for (f = 0; f < NR_PTRS && !overlaps(in, w, l->ptr_off[f], w); f++)
				;
			if (f == NR_PTRS)
				continue;	/* counters and the like */
			if (in != l->ptr_off[f])
				return ERROR(im->name,
					     "tag %zu: a relocation at offset %llu straddles the %s field",
					     (size_t)(tag - im->tags), (unsigned long long)in,
					     ptr_names[f]);
			if (!type || type != relative_type(im->machine))
				return ERROR(im->name,
					     "tag %zu: %s has relocation type %u, not a RELATIVE one",
					     (size_t)(tag - im->tags), ptr_names[f], type);
			if (tag->relocated[f])
				return ERROR(im->name, "tag %zu: %s is relocated twice",
					     (size_t)(tag - im->tags), ptr_names[f]);
			tag->relocated[f] = true;
			if (rela)
				tag->ptr[f] = rela_addend(r) & (w == 8 ? UINT64_MAX : UINT32_MAX);
		}
	}
	return 0;
}

/* A pointer's string: inside an allocated section, NUL-terminated. */
static const char *resolve(struct image *im, size_t t, int f)
{
	u64 addr = im->tags[t].ptr[f];

	if (!addr)
		return NULL;
	for (size_t i = 1; i < im->nsec; i++) {
		const struct section *s = &im->sec[i];
		const unsigned char *p, *nul;

		if (!(s->flags & SHF_ALLOC) || s->type == SHT_NOBITS ||
		    addr < s->addr || addr - s->addr >= s->size)
			continue;
		p = im->buf + s->offset + (addr - s->addr);
		nul = memchr(p, 0, s->size - (addr - s->addr));
		if (!nul) {
			ERROR(im->name, "tag %zu: %s string in %s is not NUL-terminated",
			      t, ptr_names[f], s->name);
			return NULL;
		}
		/* writing the indices must not change any string */
		if (im->tag_bytes && overlaps(p - im->buf, nul - p + 1, im->tag_off,
					      im->tag_bytes)) {
			ERROR(im->name, "tag %zu: %s string overlaps the tags", t,
			      ptr_names[f]);
			return NULL;
		}
		return (const char *)p;
	}
	ERROR(im->name, "tag %zu: %s pointer 0x%llx is outside any section",
	      t, ptr_names[f], (unsigned long long)addr);
	return NULL;
}

static int read_tags(struct image *im, const struct layout *l)
{
	im->tags = calloc(im->ntags ? im->ntags : 1, sizeof(*im->tags));
	if (!im->tags)
		return ERROR(im->name, "out of memory");
	for (size_t t = 0; t < im->ntags; t++) {
		const unsigned char *p = im->buf + im->tag_off + t * l->size;
		struct tag *tag = &im->tags[t];

		tag->stored = get_uint(im, p + l->idx_off, l->idx_width);
		tag->lineno = get_uint(im, p + l->lineno_off, 4);
		for (int f = 0; f < NR_PTRS; f++)
			tag->ptr[f] = get_uint(im, p + l->ptr_off[f], im->word);
	}
	if (apply_dynamic_relocs(im, l))
		return -1;
	for (size_t t = 0; t < im->ntags; t++)
		for (int f = 0; f < NR_PTRS; f++) {
			im->tags[t].str[f] = resolve(im, t, f);
			if (!im->tags[t].str[f] && im->tags[t].ptr[f])
				return -1;
		}
	return 0;
}

static int check_layout(const char *what, const struct options *o, unsigned int word)
{
	const struct layout *l = &o->l;
	unsigned long off[5] = { l->idx_off, l->lineno_off, l->ptr_off[0],
				 l->ptr_off[1], l->ptr_off[2] };
	unsigned long len[5] = { l->idx_width, 4, word, word, word };
	static const char *const name[5] = { "index", "lineno", "modname",
					     "function", "filename" };

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

/*
 * The tags and the module reserve must fit the index bits.  With --fit, a
 * kernel build goes on with a warning: modules get the indices left when
 * the reserve does not fit, and when the tags alone do not fit nothing is
 * written, and the kernel finds its tags without indices at boot.
 */
static int check_capacity(struct image *im, const struct options *o)
{
	u64 cap = UINT64_C(1) << o->l.idx_bits;
	u64 need = FIRST_INDEX + (u64)im->ntags + o->module_reserve;

	if (need <= cap) {
		im->limit = cap - FIRST_INDEX - o->module_reserve;
		return 0;
	}
	if (!o->fit)
		return ERROR(im->name,
			     "too many tags: %d reserved + %zu tags + %lu module reserve = %llu, capacity of %lu bits is %llu",
			     FIRST_INDEX, im->ntags, o->module_reserve,
			     (unsigned long long)need, o->l.idx_bits,
			     (unsigned long long)cap);
	im->limit = cap - FIRST_INDEX;
	if (im->ntags <= im->limit) {
		WARN(im->name, "%zu tags leave %llu of the %lu indices asked for modules, of %lu bits",
		     im->ntags, (unsigned long long)(im->limit - im->ntags),
		     o->module_reserve, o->l.idx_bits);
		return 0;
	}
	WARN(im->name, "%zu tags do not fit %lu-bit indices (%llu): nothing written, the tags stay without indices",
	     im->ntags, o->l.idx_bits, (unsigned long long)im->limit);
	im->unindexed = true;
	im->limit = im->ntags;
	return 0;
}

/*
 * Check the mapped file completely and fill im; changes nothing.
 * Returns 0 or -1 after a message.
 */
static int image_scan(struct image *im, const struct options *o)
{
	Elf_Ehdr *eh = (Elf_Ehdr *)im->buf;

	if (check_header(im->name, im->buf, im->len, im->len))
		return -1;
	im->big = eh->e32.e_ident[EI_DATA] == ELFDATA2MSB;
	im->word = elf_map_long_size(im->buf);
	im->machine = elf_map_machine(im->buf);
	if (check_layout(im->name, o, im->word) || read_sections(im) ||
	    locate_tags(im, &o->l) || read_tags(im, &o->l) || check_capacity(im, o))
		return -1;
	return 0;
}

/* The tag bytes with the new indices in im->out; how many indices change. */
static long image_assign(struct image *im, const struct options *o)
{
	long changed = 0;

	im->out = malloc(im->tag_bytes ? im->tag_bytes : 1);
	if (!im->out)
		return ERROR(im->name, "out of memory");
	memcpy(im->out, im->buf + im->tag_off, im->tag_bytes);
	for (size_t t = 0; t < im->ntags; t++) {
		u64 idx = FIRST_INDEX + t;

		if (im->tags[t].stored == idx)
			continue;
		put_uint(im, im->out + t * o->l.size + o->l.idx_off, o->l.idx_width, idx);
		changed++;
	}
	return changed;
}

static void image_free(struct image *im)
{
	if (im->buf)
		elf_unmap(im->buf, im->len);
	free(im->sec);
	free(im->tags);
	free(im->out);
	im->buf = NULL;
	im->sec = NULL;
	im->tags = NULL;
	im->out = NULL;
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

/* The map: one line per tag, by index. */
static void map_print(FILE *f, const struct image *im)
{
	fprintf(f,
		"# link-tags map of %s (0 = no tag, 1 = empty; - = NULL): index\tfile:line\tfunction\tmodule\n",
		base_name(im->name));
	for (size_t t = 0; t < im->ntags; t++) {
		const struct tag *tag = &im->tags[t];

		fprintf(f, "%llu\t", (unsigned long long)(FIRST_INDEX + t));
		put_field(f, tag->str[F_FILENAME]);
		fprintf(f, ":%lu\t", (unsigned long)tag->lineno);
		put_field(f, tag->str[F_FUNCTION]);
		fputc('\t', f);
		put_field(f, tag->str[F_MODNAME]);
		fputc('\n', f);
	}
}

#ifndef LINK_TAGS_NO_MAIN

struct piece {
	const void *data;
	size_t len;
};

/* What open(O_CREAT, 0666) would give: mkstemp() makes 0600 files. */
static mode_t new_file_mode(void)
{
	mode_t mask = umask(0);

	umask(mask);
	return 0666 & ~mask;
}

/* A temporary file beside path holding the pieces; its name in *tmp. */
static int write_temp(const char *path, const struct piece *pc, int npc,
		      const struct stat *like, char **tmp)
{
	const char *base = base_name(path);
	int fd, i;

	*tmp = malloc(strlen(path) + 32);
	if (!*tmp)
		return ERROR(path, "out of memory");
	sprintf(*tmp, "%.*s.%s.link-tags.XXXXXX", (int)(base - path), path, base);
	fd = mkstemp(*tmp);
	if (fd < 0) {
		ERROR(path, "cannot create a temporary file: %s", strerror(errno));
		free(*tmp);
		*tmp = NULL;
		return -1;
	}
	for (i = 0; i < npc; i++) {
		const char *p = pc[i].data;
		size_t len = pc[i].len;

		while (len) {
			ssize_t n = write(fd, p, len);

			if (n < 0 && errno == EINTR)
				continue;
			if (n <= 0)
				goto fail;
			p += n;
			len -= n;
		}
	}
	if (like && geteuid() == 0 && fchown(fd, like->st_uid, like->st_gid))
		goto fail;
	if (fchmod(fd, like ? like->st_mode & 07777 : new_file_mode()))
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

/* May this file be replaced?  Refuse what a rename would get wrong. */
static int check_target(const char *path, struct stat *st, bool writing)
{
	if (writing ? lstat(path, st) : stat(path, st))
		return ERROR(path, "%s", strerror(errno));
	if (S_ISLNK(st->st_mode))
		return ERROR(path, "is a symbolic link; pass the file it points to");
	if (!S_ISREG(st->st_mode))
		return ERROR(path, "not a regular file");
	/* root passes access(W_OK) on anything, so look at the mode too */
	if (writing && (!(st->st_mode & 0200) || access(path, W_OK)))
		return ERROR(path, "not writable (mode %04o); refusing to change it",
			     (unsigned int)(st->st_mode & 07777));
	return 0;
}

/* Bits to tell apart this many values. */
static unsigned int bits_for(u64 values)
{
	unsigned int b = 0;

	while (b < 64 && (UINT64_C(1) << b) < values)
		b++;
	return b;
}

static void summary(const struct image *im, const struct options *o, long changed,
		    bool check)
{
	char range[64] = "none";

	if (im->ntags)
		snprintf(range, sizeof(range), "%d..%llu", FIRST_INDEX,
			 (unsigned long long)(FIRST_INDEX + im->ntags - 1));
	printf("%s: %s: %zu tags, indices %s, %u bits needed, %lu bits available, ",
	       TOOL, im->name, im->ntags, range, bits_for(FIRST_INDEX + (u64)im->ntags),
	       o->l.idx_bits);
	printf("module reserve %lu, headroom %llu, %ld %s\n", o->module_reserve,
	       (unsigned long long)(im->limit - im->ntags), changed,
	       check ? "to update (--check)" : "updated");
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: link-tags [options] VMLINUX\n"
		"Give each allocation tag in VMLINUX a compact index.\n"
		"\n"
		"  --tag-size N        bytes per tag (default 40)\n"
		"  --index-offset N    byte offset of the index field in a tag (default 2)\n"
		"  --index-width N     bytes of the index field: 1, 2 or 4 (default 2)\n"
		"  --index-bits N      index bits the kernel can use, at most 8 * width (default 16)\n"
		"  --fields L,M,F,P    offsets of lineno (u32) and of the modname, function and\n"
		"                      filename pointers (default 4,8,16,24)\n"
		"  --module-reserve N  indices kept free for modules (default 0)\n"
		"  --fit               when the tags and the reserve do not fit, leave modules\n"
		"                      what is left; when the tags alone do not fit, write\n"
		"                      nothing: a warning either way, not an error\n"
		"  --map FILE          write the tag map to FILE (default: VMLINUX.tagmap)\n"
		"  --check             check and report, write nothing\n"
		"  -q, --quiet         no summary line\n"
		"  -h, --help          this text\n"
		"\n"
		"Indices are 2.. in section order (0 = no tag, 1 = empty).  Map lines:\n"
		"index, file:line, function, module (\"-\" for NULL), tab-separated.\n"
		"Exit status 0 ok, 1 error.\n");
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

enum {
	O_TAG_SIZE = 256, O_INDEX_OFFSET, O_INDEX_WIDTH, O_INDEX_BITS,
	O_MODULE_RESERVE, O_FIELDS, O_MAP, O_CHECK, O_FIT
};

static const struct option long_opts[] = {
	{ "tag-size",		required_argument,	NULL, O_TAG_SIZE },
	{ "index-offset",	required_argument,	NULL, O_INDEX_OFFSET },
	{ "index-width",	required_argument,	NULL, O_INDEX_WIDTH },
	{ "index-bits",		required_argument,	NULL, O_INDEX_BITS },
	{ "module-reserve",	required_argument,	NULL, O_MODULE_RESERVE },
	{ "fields",		required_argument,	NULL, O_FIELDS },
	{ "map",		required_argument,	NULL, O_MAP },
	{ "check",		no_argument,		NULL, O_CHECK },
	{ "fit",		no_argument,		NULL, O_FIT },
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
	unsigned long *num[] = { &o.l.size, &o.l.idx_off, &o.l.idx_width,
				 &o.l.idx_bits, &o.module_reserve };
	char *map_path = NULL, *map_owned = NULL, *tmp = NULL, *map_tmp = NULL;
	char *map_text = NULL;
	size_t map_len = 0;
	struct image im = { 0 };
	bool quiet = false, check = false;
	const char *path;
	struct stat st;
	long changed;
	FILE *f;
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "qh", long_opts, NULL)) != -1) {
		switch (c) {
		case O_TAG_SIZE:
		case O_INDEX_OFFSET:
		case O_INDEX_WIDTH:
		case O_INDEX_BITS:
		case O_MODULE_RESERVE:
			/* these entries of long_opts and num[] follow the enum */
			if (parse_ulong(long_opts[c - O_TAG_SIZE].name, optarg,
					num[c - O_TAG_SIZE]))
				return 1;
			break;
		case O_FIELDS:
			if (parse_fields(optarg, &o.l))
				return 1;
			break;
		case O_MAP:
			map_path = optarg;
			break;
		case O_CHECK:
			check = true;
			break;
		case O_FIT:
			o.fit = true;
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
	}
	if (optind != argc - 1) {
		print_usage(stderr);
		return 1;
	}
	path = argv[optind];
	/* pointers are 4 or 8 bytes: check what can be checked now */
	if (check_layout("command line", &o, 4))
		return 1;

	im.name = path;
	if (check_target(path, &st, !check) || image_open(&im, path) ||
	    image_scan(&im, &o))
		goto out;
	if (im.unindexed) {
		ret = 0;
		goto out;
	}
	for (size_t t = 0, other = 0; t < im.ntags; t++) {
		if (im.tags[t].stored && im.tags[t].stored != FIRST_INDEX + t &&
		    !other++)
			WARN(path, "tag %zu already had index %llu; a different layout or an old run?",
			     t, (unsigned long long)im.tags[t].stored);
	}
	changed = image_assign(&im, &o);
	if (changed < 0)
		goto out;
	if (check) {
		ret = 0;
		goto report;
	}
	f = open_memstream(&map_text, &map_len);
	if (!f) {
		ERROR(path, "out of memory");
		goto out;
	}
	map_print(f, &im);
	if (fclose(f)) {
		ERROR(path, "cannot format the tag map");
		goto out;
	}
	if (!map_path) {
		map_owned = malloc(strlen(path) + sizeof(".tagmap"));
		if (!map_owned) {
			ERROR(path, "out of memory");
			goto out;
		}
		sprintf(map_owned, "%s.tagmap", path);
		map_path = map_owned;
	}
	if (changed) {
		u64 rest = im.tag_off + im.tag_bytes;
		const struct piece pc[] = {
			{ im.buf, im.tag_off },
			{ im.out, im.tag_bytes },
			{ im.buf + rest, im.len - rest },
		};

		if (write_temp(path, pc, 3, &st, &tmp))
			goto out;
	}
	if (write_temp(map_path, &(struct piece){ map_text, map_len }, 1, NULL, &map_tmp))
		goto out;
	/* the map first: an error must leave the file as it was */
	if (rename(map_tmp, map_path)) {
		ERROR(map_path, "cannot replace: %s", strerror(errno));
		goto out;
	}
	free(map_tmp);
	map_tmp = NULL;
	if (tmp && rename(tmp, path)) {
		ERROR(path, "cannot replace: %s", strerror(errno));
		unlink(map_path);
		goto out;
	}
	ret = 0;
report:
	if (!quiet)
		summary(&im, &o, changed, check);
out:
	if (ret && tmp)
		unlink(tmp);
	if (map_tmp)
		unlink(map_tmp);
	free(tmp);
	free(map_tmp);
	free(map_text);
	free(map_owned);
	image_free(&im);
	return ret;
}

#endif /* LINK_TAGS_NO_MAIN */
