// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A program's or library's PLT stubs: where its calls to another
 * object's functions go first, one stub a function.  Each
 * R_X86_64_JUMP_SLOT relocation of .rela.plt is one stub, named by the
 * relocation's symbol: the i-th relocation's is the i-th entry of
 * .plt.sec when the object has one (built for CET's IBT, its .plt then
 * holds the lazy-binding entries), else the (i+1)-th of .plt (whose
 * first entry calls the dynamic linker).  Entries are 16 bytes.
 *
 * A function whose address the object also takes (malloc, free, often)
 * is called through .plt.got instead: each entry jumps through a GOT
 * slot (jmp *disp(%rip)) that an R_X86_64_GLOB_DAT relocation of
 * .rela.dyn fills, and that relocation's symbol names the entry.
 */
#include "plt.h"
#include "../../symbols/elfsec.h"

#include <fnmatch.h>
#include <string.h>

enum { PLT_ENTRY = 16 };

/* The name of symbol k of the symbol table in section link, or NULL. */
static const char *symbol_name(Elf *elf, size_t link, size_t k)
{
	Elf_Scn *syms = elf_getscn(elf, link);
	GElf_Shdr sh;
	GElf_Sym sym;
	Elf_Data *d;
	const char *name;

	if (!syms || !gelf_getshdr(syms, &sh) || !(d = elf_getdata(syms, NULL)) ||
	    !gelf_getsym(d, (int)k, &sym))
		return NULL;
	name = elf_strptr(elf, sh.sh_link, sym.st_name);
	return name && *name ? name : NULL;
}

static void add_stub(struct vec *out, const char *name, uint64_t addr)
{
	struct plt_stub *s = ar_alloc(sizeof(*s));

	s->name = intern(name, strlen(name));
	s->addr = addr;
	vec_push(out, s);
}

/* The symbol of the GLOB_DAT relocation of .rela.dyn at got, or NULL. */
static const char *got_symbol(Elf *elf, uint64_t got)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_section(elf, ".rela.dyn", &sh);
	Elf_Data *d;

	if (!scn || !(d = elf_getdata(scn, NULL)) || !sh.sh_entsize)
		return NULL;
	for (size_t i = 0; i < sh.sh_size / sh.sh_entsize; i++) {
		GElf_Rela r;

		if (gelf_getrela(d, (int)i, &r) && r.r_offset == got &&
		    GELF_R_TYPE(r.r_info) == R_X86_64_GLOB_DAT)
			return symbol_name(elf, sh.sh_link, GELF_R_SYM(r.r_info));
	}
	return NULL;
}

/* The entries of .plt.got: each one's jmp *disp(%rip) names its slot. */
static void plt_got_stubs(Elf *elf, const char *glob, struct vec *out)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_section(elf, ".plt.got", &sh);
	Elf_Data *d;
	size_t size;

	if (!scn || !(d = elf_getdata(scn, NULL)) || !d->d_buf)
		return;
	size = sh.sh_entsize >= 8 ? sh.sh_entsize : 8;
	for (size_t at = 0; at + size <= d->d_size; at += size) {
		const unsigned char *b = (const unsigned char *)d->d_buf + at;

		for (size_t k = 0; k + 6 <= size; k++) {
			int32_t disp;
			const char *name;

			if (b[k] != 0xff || b[k + 1] != 0x25)
				continue;
			memcpy(&disp, b + k + 2, sizeof(disp));
			name = got_symbol(elf, sh.sh_addr + at + k + 6 + (int64_t)disp);
			if (name && !fnmatch(glob, name, 0))
				add_stub(out, name, sh.sh_addr + at);
			break;
		}
	}
}

void plt_stubs(Elf *elf, const char *glob, struct vec *out)
{
	GElf_Shdr rsh, psh;
	Elf_Scn *rela = elf_section(elf, ".rela.plt", &rsh), *plt;
	Elf_Data *d;
	uint64_t base;
	size_t n;

	plt_got_stubs(elf, glob, out);
	if (!rela || !(d = elf_getdata(rela, NULL)) || !rsh.sh_entsize)
		return;
	if ((plt = elf_section(elf, ".plt.sec", &psh)))
		base = psh.sh_addr;
	else if ((plt = elf_section(elf, ".plt", &psh)))
		base = psh.sh_addr + PLT_ENTRY;
	else
		return;
	n = rsh.sh_size / rsh.sh_entsize;
	for (size_t i = 0; i < n; i++) {
		GElf_Rela r;
		const char *name;

		if (!gelf_getrela(d, (int)i, &r) || GELF_R_TYPE(r.r_info) != R_X86_64_JUMP_SLOT)
			continue;
		name = symbol_name(elf, rsh.sh_link, GELF_R_SYM(r.r_info));
		if (!name || fnmatch(glob, name, 0) ||
		    base + (i + 1) * PLT_ENTRY > psh.sh_addr + psh.sh_size)
			continue;
		add_stub(out, name, base + i * PLT_ENTRY);
	}
}
