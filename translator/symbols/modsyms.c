// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kernel module's functions, for kprobe.module("m").function("f"):
 * the module is found through modules.order of the target's module
 * tree (names compare with '-' and '_' alike, as modprobe does), and
 * its functions are the STT_FUNC symbols of its .ko, read with libelf.
 */
#include "../elab/elab.h"

#include <fnmatch.h>
#include <gelf.h>
#include <libelf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int same_module(const char *a, const char *b, size_t blen)
{
	size_t i;

	for (i = 0; a[i] && i < blen; i++)
		if (a[i] != b[i] && !(strchr("-_", a[i]) && strchr("-_", b[i])))
			return 0;
	return !a[i] && i == blen;
}

/* The .ko of module m, or NULL. */
const char *modsyms_path(const struct session *s, const char *m)
{
	const char *dir = ar_printf("%s/lib/modules/%s", s->sysroot ? s->sysroot : "",
				    s->kernel_release);
	size_t len;
	char *text = util_read_file(ar_printf("%s/modules.order", dir), &len);
	const char *found = NULL;

	for (char *line = text; text && line < text + len;) {
		char *nl = strchr(line, '\n'), *base, *dot;

		if (nl)
			*nl = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		if (dot && same_module(m, base, dot - base)) {
			found = ar_printf("%s/%s", dir, line);
			break;
		}
		line = nl ? nl + 1 : text + len;
	}
	free(text);
	return found;
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Functions of the .ko at path (compressed or not: Debian's 6.12 ships
 * .ko.xz) matching glob, sorted, into out. */
int modsyms_match(const char *path, const char *glob, struct vec *out)
{
	int first = out->len;
	size_t n;
	char *bytes = modko_read(path, &n);
	Elf_Scn *scn = NULL;
	Elf *elf;

	if (!bytes)
		return -1;
	elf_version(EV_CURRENT);
	elf = elf_memory(bytes, n);
	while (elf && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB)
			continue;
		data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / sh.sh_entsize; i++) {
			GElf_Sym sym;
			const char *name;

			if (!gelf_getsym(data, (int)i, &sym) ||
			    GELF_ST_TYPE(sym.st_info) != STT_FUNC || !sym.st_shndx)
				continue;
			name = elf_strptr(elf, sh.sh_link, sym.st_name);
			if (name && *name && !strchr(name, '.') && !fnmatch(glob, name, 0))
				vec_push(out, (void *)intern(name, strlen(name)));
		}
	}
	if (elf)
		elf_end(elf);
	free(bytes);
	if (out->len - first > 1)
		qsort(out->v + first, out->len - first, sizeof(void *), cmp_name);
	return 0;
}
