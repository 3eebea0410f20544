// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program's or library's functions by its ELF symbol table, for
 * process(...).function points the DWARF cannot serve: a file without
 * debuginfo (probed at each function's first instruction), and a name
 * the DWARF knows by another (glibc's malloc is DWARF's __libc_malloc,
 * the symbol an alias of it).
 *
 * The table is .symtab when the file has one (a program built without
 * -g keeps it), else .dynsym (all a stripped library still has).  Only
 * functions defined in the file count: STT_FUNC, not STT_GNU_IFUNC,
 * whose address is a resolver that runs once, when the library is
 * loaded, not the function the name calls.
 */
#include "uprobe_family.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The section of type type, or NULL. */
static Elf_Scn *section_of(Elf *elf, Elf64_Word type)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == type)
			return scn;
	return NULL;
}

const char *up_symtab_name(Elf *elf)
{
	if (section_of(elf, SHT_SYMTAB))
		return ".symtab";
	return section_of(elf, SHT_DYNSYM) ? ".dynsym" : NULL;
}

static int is_function(const GElf_Sym *s)
{
	return GELF_ST_TYPE(s->st_info) == STT_FUNC && s->st_shndx != SHN_UNDEF &&
	       s->st_value != 0;
}

static int cmp_sym(const void *pa, const void *pb)
{
	const struct up_sym *a = *(const struct up_sym *const *)pa;
	const struct up_sym *b = *(const struct up_sym *const *)pb;
	int c = strcmp(a->name, b->name);

	if (c)
		return c;
	return a->addr < b->addr ? -1 : a->addr > b->addr;
}

void up_symbols(Elf *elf, const char *glob, struct vec *out)
{
	Elf_Scn *scn = section_of(elf, SHT_SYMTAB);
	Elf_Data *data;
	GElf_Shdr sh;
	int first = out->len;

	if (!scn)
		scn = section_of(elf, SHT_DYNSYM);
	if (!scn || !gelf_getshdr(scn, &sh) || !sh.sh_entsize || !(data = elf_getdata(scn, NULL)))
		return;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Sym s;
		const char *name;
		struct up_sym *u;

		if (!gelf_getsym(data, (int)i, &s) || !is_function(&s) ||
		    !(name = elf_strptr(elf, sh.sh_link, s.st_name)) || !*name ||
		    fnmatch(glob, name, 0))
			continue;
		u = ar_alloc(sizeof(*u));
		u->name = intern(name, strlen(name));
		u->addr = s.st_value;
		vec_push(out, u);
	}
	if (out->len - first > 1)
		qsort(out->v + first, (size_t)(out->len - first), sizeof(void *), cmp_sym);
}

/* Aliases name one function: the first name in order stands for it. */
void up_unique(struct vec *syms)
{
	struct pmap seen = { 0 };
	int k = 0;

	for (int i = 0; i < syms->len; i++) {
		struct up_sym *u = syms->v[i];
		const void *key = (const void *)(uintptr_t)(u->addr + 1);

		if (pmap_get(&seen, key))
			continue;
		pmap_put(&seen, key, u);
		syms->v[k++] = u;
	}
	syms->len = k;
	free(seen.keys);
	free(seen.vals);
}
