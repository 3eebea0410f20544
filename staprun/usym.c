// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * User-space symbols for print_ubacktrace (tapsets/stack.stp).  A module
 * cannot read ELF files, so for each user frame it prints
 *
 *     " 0x00007f0123456789" STP_USYM_OPEN "PID HEXADDR" STP_USYM_CLOSE "\n"
 *
 * and the output writer (trace.c) passes everything through usym_write,
 * which replaces the marker by what SystemTap prints after the address:
 * " : sym+0xoff/0xsize [/path]" when the address is in a function of an
 * ELF symbol table (.symtab, else .dynsym) of the file mapped there, or
 * " [/path+0xoff/0xsize]" when only the mapping is known, or nothing.
 * The lookup reads /proc/PID/maps when the output arrives, so it works
 * while the process lives (and has not unmapped the file); a process
 * that has exited leaves the bare addresses.  Files and maps are cached.
 */
#include <elf.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>
#include "stprun.h"

#define USYM_OPEN	'\036'	/* runtime/stack.h's STP_USYM_OPEN */
#define USYM_CLOSE	'\037'
#define USYM_MAX	64	/* a marker's longest text */

struct elf_file {
	char *path;
	const unsigned char *map;
	size_t size;
	struct elf_file *next;
};

static struct elf_file *files;
static char pending[USYM_MAX + 2];	/* a marker cut by a record's end */
static size_t npending;

static const struct elf_file *elf_get(const char *path)
{
	struct elf_file *f;
	struct stat st;
	void *m = MAP_FAILED;
	int fd;

	for (f = files; f; f = f->next)
		if (!strcmp(f->path, path))
			return f->map ? f : NULL;
	f = calloc(1, sizeof(*f));
	if (!f)
		return NULL;
	f->path = strdup(path);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0 && !fstat(fd, &st) && st.st_size >= (off_t)sizeof(Elf64_Ehdr))
		m = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (fd >= 0)
		close(fd);
	if (m != MAP_FAILED) {
		const Elf64_Ehdr *e = m;

		if (!memcmp(e->e_ident, ELFMAG, SELFMAG) && e->e_ident[EI_CLASS] == ELFCLASS64) {
			f->map = m;
			f->size = st.st_size;
		} else {
			munmap(m, st.st_size);
		}
	}
	f->next = files;
	files = f;
	return f->map ? f : NULL;
}

static int in_file(const struct elf_file *f, uint64_t off, uint64_t len)
{
	return off <= f->size && len <= f->size - off;
}

/* The ELF virtual address of file offset off, or -1. */
static int64_t elf_vaddr(const struct elf_file *f, uint64_t off)
{
	const Elf64_Ehdr *e = (const void *)f->map;
	int i;

	if (!in_file(f, e->e_phoff, (uint64_t)e->e_phnum * sizeof(Elf64_Phdr)))
		return -1;
	for (i = 0; i < e->e_phnum; i++) {
		const Elf64_Phdr *p = (const Elf64_Phdr *)(f->map + e->e_phoff) + i;

		if (p->p_type == PT_LOAD && off >= p->p_offset && off < p->p_offset + p->p_filesz)
			return off - p->p_offset + p->p_vaddr;
	}
	return -1;
}

/* The function containing vaddr in a symbol table of type t. */
static const char *elf_func(const struct elf_file *f, uint64_t vaddr, unsigned t,
			    uint64_t *start, uint64_t *size)
{
	const Elf64_Ehdr *e = (const void *)f->map;
	const Elf64_Shdr *sh;
	const char *best = NULL;
	int i;

	if (!e->e_shoff || !in_file(f, e->e_shoff, (uint64_t)e->e_shnum * sizeof(*sh)))
		return NULL;
	sh = (const void *)(f->map + e->e_shoff);
	for (i = 0; i < e->e_shnum; i++) {
		const Elf64_Shdr *s = &sh[i], *strs;
		const Elf64_Sym *sym;
		size_t j, n;

		if (s->sh_type != t || s->sh_link >= e->e_shnum)
			continue;
		strs = &sh[s->sh_link];
		if (!in_file(f, s->sh_offset, s->sh_size) ||
		    !in_file(f, strs->sh_offset, strs->sh_size))
			continue;
		sym = (const void *)(f->map + s->sh_offset);
		n = s->sh_size / sizeof(*sym);
		for (j = 0; j < n; j++) {
			if (ELF64_ST_TYPE(sym[j].st_info) != STT_FUNC || !sym[j].st_value ||
			    sym[j].st_name >= strs->sh_size)
				continue;
			if (vaddr < sym[j].st_value || vaddr - sym[j].st_value >= sym[j].st_size)
				continue;
			best = (const char *)f->map + strs->sh_offset + sym[j].st_name;
			*start = sym[j].st_value;
			*size = sym[j].st_size;
			if (!memchr(best, '\0', strs->sh_size - sym[j].st_name))
				best = NULL;
			else
				return best;
		}
	}
	return best;
}

/* What follows the address for pid's addr; "" when nothing is known. */
void usym_text(char *out, size_t n, int pid, uint64_t addr)
{
	char path[64], line[4096 + 128], file[4096], via[96];
	uint64_t lo = 0, hi = 0, off = 0, base = UINT64_MAX, top = 0, fstart, fsize;
	int found = 0;
	const struct elf_file *f;
	const char *name;
	FILE *maps;

	out[0] = '\0';
	snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	maps = fopen(path, "re");
	if (!maps)
		return;
	/* the file mapped where addr is */
	while (!found && fgets(line, sizeof(line), maps)) {
		unsigned long long a, b, o;

		file[0] = '\0';
		if (sscanf(line, "%llx-%llx %*s %llx %*s %*s %4095s", &a, &b, &o, file) == 4 &&
		    file[0] == '/' && addr >= a && addr < b) {
			found = 1;
			lo = a;
			hi = b;
			off = o;
		}
	}
	fclose(maps);
	if (!found)
		return;
	/* the extent of all of the file's mappings */
	maps = fopen(path, "re");
	if (maps) {
		while (fgets(line, sizeof(line), maps)) {
			unsigned long long a, b;
			char p[4096];

			p[0] = '\0';
			if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %4095s", &a, &b, p) == 3 &&
			    !strcmp(p, file)) {
				if (a < base)
					base = a;
				if (b > top)
					top = b;
			}
		}
		fclose(maps);
	}
	if (base > lo)
		base = lo;
	f = elf_get(file);
	/* a file gone from its path (deleted, or a memfd that was run) is
	 * still there for its mapping: root reads it through map_files */
	if (!f) {
		snprintf(via, sizeof(via), "/proc/%d/map_files/%llx-%llx", pid,
			 (unsigned long long)lo, (unsigned long long)hi);
		f = elf_get(via);
	}
	if (f) {
		int64_t v = elf_vaddr(f, addr - lo + off);

		name = NULL;
		if (v >= 0) {
			name = elf_func(f, v, SHT_SYMTAB, &fstart, &fsize);
			if (!name)
				name = elf_func(f, v, SHT_DYNSYM, &fstart, &fsize);
		}
		if (name) {
			snprintf(out, n, " : %s+0x%llx/0x%llx [%s]", name,
				 (unsigned long long)(v - fstart), (unsigned long long)fsize, file);
			return;
		}
	}
	snprintf(out, n, " [%s+0x%llx/0x%llx]", file, (unsigned long long)(addr - base),
		 (unsigned long long)(top - base));
}

/*
 * The same from the executable alone, for a process gone before its
 * addresses were read: only a file linked at fixed addresses (ET_EXEC,
 * a non-PIE program) says where its code was without the maps.
 */
void usym_exe_text(char *out, size_t n, const char *exe, uint64_t addr)
{
	const struct elf_file *f = exe && exe[0] == '/' ? elf_get(exe) : NULL;
	uint64_t fstart, fsize;
	const char *name;

	out[0] = '\0';
	if (!f || ((const Elf64_Ehdr *)(const void *)f->map)->e_type != ET_EXEC)
		return;
	name = elf_func(f, addr, SHT_SYMTAB, &fstart, &fsize);
	if (!name)
		name = elf_func(f, addr, SHT_DYNSYM, &fstart, &fsize);
	if (name)
		snprintf(out, n, " : %s+0x%llx/0x%llx [%s]", name,
			 (unsigned long long)(addr - fstart), (unsigned long long)fsize, exe);
}

/*
 * The usymname() family (tapsets/usym.stp) marks "pid hexaddr KIND": one
 * part of what usym_text gives (" : name+0xoff/0xsize [path]" or
 * " [path+0xoff/0xsize]"), or the address in hex when it is not known.
 *   n  the function's name (usymname)
 *   d  "name+0xoff/0xsize [path]", else "0xaddr [path+0xoff/0xsize]" (usymdata)
 *   b  "name+0xoff", else the address (print_ubacktrace_brief)
 *   m  the file's name without its directory (umodname)
 *   x  nothing known beyond the address: no line tables here (usymfileline)
 */
static void usym_part(FILE *out, const char *text, unsigned long long addr, char kind)
{
	const char *open = strstr(text, " ["), *plus, *path, *end;

	if (kind == 'n' && !strncmp(text, " : ", 3) && open &&
	    (plus = memrchr(text, '+', open - text))) {
		fprintf(out, "%.*s", (int)(plus - text - 3), text + 3);
		return;
	}
	if (kind == 'b' && !strncmp(text, " : ", 3) && (end = strchr(text, '/'))) {
		fprintf(out, "%.*s", (int)(end - text - 3), text + 3);
		return;
	}
	if (kind == 'd' && !strncmp(text, " : ", 3)) {
		fputs(text + 3, out);
		return;
	}
	if (kind == 'd' && open) {
		fprintf(out, "0x%llx%s", addr, text);
		return;
	}
	if (kind == 'm' && open) {
		path = open + 2;
		end = path + strcspn(path, "+]");
		plus = memrchr(path, '/', end - path);
		path = plus ? plus + 1 : path;
		fprintf(out, "%.*s", (int)(end - path), path);
		return;
	}
	fprintf(out, "0x%llx", addr);
}

/* One marker's text (between OPEN and CLOSE) replaced. */
static void usym_marker(const char *m, size_t len, FILE *out)
{
	char buf[USYM_MAX + 1], text[8192], kind = 0;
	unsigned long long addr;
	int pid;

	if (len > USYM_MAX)
		return;
	memcpy(buf, m, len);
	buf[len] = '\0';
	if (sscanf(buf, "%d %llx %c", &pid, &addr, &kind) < 2)
		return;
	usym_text(text, sizeof(text), pid, addr);
	if (kind)
		usym_part(out, text, addr, kind);
	else
		fputs(text, out);
}

/* fwrite(p, 1, n, out), with the module's user-frame markers replaced. */
void usym_write(const char *p, size_t n, FILE *out)
{
	const char *end = p + n, *o, *c;

	if (npending) {
		/* the rest of a marker cut by the previous records */
		c = memchr(p, USYM_CLOSE, n);
		if (!c && npending + n <= USYM_MAX) {
			memcpy(pending + npending, p, n);
			npending += n;
			return;
		}
		if (!c || npending + (c - p) > USYM_MAX) {
			fwrite(pending, 1, npending, out);	/* not one after all */
			npending = 0;
		} else {
			memcpy(pending + npending, p, c - p);
			usym_marker(pending + 1, npending - 1 + (c - p), out);
			npending = 0;
			p = c + 1;
		}
	}
	while (p < end && (o = memchr(p, USYM_OPEN, end - p))) {
		fwrite(p, 1, o - p, out);
		c = memchr(o, USYM_CLOSE, end - o);
		if (!c) {
			if ((size_t)(end - o) <= USYM_MAX) {
				memcpy(pending, o, end - o);
				npending = end - o;
			} else {
				fwrite(o, 1, end - o, out);
			}
			return;
		}
		usym_marker(o + 1, c - o - 1, out);
		p = c + 1;
	}
	if (p < end)
		fwrite(p, 1, end - p, out);
}
