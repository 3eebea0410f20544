// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Tracepoints of kernel modules: module("M").trace("NAME"), and a
 * kernel.trace("NAME") the core kernel does not have.
 *
 * A module's types are its .ko's .BTF, split BTF on top of the kernel's
 * (kbtf_load()).  The .ko is found through modules.order, as modsyms.c
 * finds it, compressed or not (Debian's 6.12 ships .ko.xz).  A
 * tracepoint's system is in the module's data, as in the kernel's
 * (btf_load.c), but a .ko is not linked: event_NAME's .class and the
 * class's .system are relocations, followed here to the string.
 *
 * Which module has a tracepoint is an index over every module of the
 * target, made once (seconds: each .ko.xz is decompressed) and kept in
 * ~/.cache/stp/btf/KREL-HASH.modtp as "NAME MODULE" lines.
 */
#include "btf.h"
#include "../symbols/elfsec.h"

#include <bpf/btf.h>
#include <bpf/libbpf.h>
#include <gelf.h>
#include <lzma.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/mman.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zstd.h>

/* An xz or zstd stream, whole, into a malloc'ed buffer; NULL when it is
 * neither or is damaged. */
static char *decompress(const unsigned char *in, size_t n, size_t *out_n)
{
	size_t cap = n * 4 + 4096;
	char *out = NULL;

	if (n > 4 && !memcmp(in, "\x28\xb5\x2f\xfd", 4)) {
		unsigned long long size = ZSTD_getFrameContentSize(in, n);
		size_t got;

		if (size == ZSTD_CONTENTSIZE_ERROR || size == ZSTD_CONTENTSIZE_UNKNOWN ||
		    !(out = malloc(size)))
			return NULL;
		got = ZSTD_decompress(out, size, in, n);
		if (ZSTD_isError(got)) {
			free(out);
			return NULL;
		}
		*out_n = got;
		return out;
	}
	if (n < 6 || memcmp(in, "\xfd" "7zXZ", 6))
		return NULL;
	for (;;) {
		size_t in_pos = 0, out_pos = 0;
		uint64_t limit = UINT64_MAX;
		lzma_ret r;

		out = realloc(out, cap);
		r = lzma_stream_buffer_decode(&limit, 0, NULL, in, &in_pos, n, (uint8_t *)out,
					      &out_pos, cap);
		if (r == LZMA_OK) {
			*out_n = out_pos;
			return out;
		}
		if (r != LZMA_BUF_ERROR || cap > ((size_t)1 << 31)) {
			free(out);
			return NULL;
		}
		cap *= 2;
	}
}

/* Module m's .ko of the target, as it is on disk (maybe compressed). */
const char *modko_path(const struct session *s, const char *m)
{
	const char *p = modsyms_path(s, m);
	static const char *const ext[] = { "", ".xz", ".zst" };
	struct stat st;

	for (size_t i = 0; p && i < sizeof(ext) / sizeof(ext[0]); i++) {
		const char *f = ar_printf("%s%s", p, ext[i]);

		if (!stat(f, &st))
			return f;
	}
	return NULL;
}

/* The .ko at path as ELF bytes (malloc'ed), or NULL. */
char *modko_read(const char *path, size_t *n)
{
	size_t len;
	char *raw = util_read_file(path, &len), *out;

	if (!raw || (len >= 4 && !memcmp(raw, "\177ELF", 4))) {
		*n = len;
		return raw;
	}
	out = decompress((const unsigned char *)raw, len, n);
	free(raw);
	return out;
}

/* ---- relocations: what a pointer in the unlinked .ko points to ---- */

struct ko {
	Elf *elf;
	Elf_Data *syms;
	size_t strndx;
};

/* Section sec's bytes from off, or NULL. */
static const char *sec_bytes(struct ko *k, size_t sec, uint64_t off)
{
	Elf_Scn *scn = elf_getscn(k->elf, sec);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	return d && d->d_buf && off < d->d_size ? (const char *)d->d_buf + off : NULL;
}

/* The target of the 8-byte pointer at section sec, offset off: its
 * section and offset there.  0 when no relocation is there. */
static int pointee(struct ko *k, size_t sec, uint64_t off, size_t *to_sec, uint64_t *to_off)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(k->elf, scn))) {
		Elf_Data *d;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_RELA || sh.sh_info != sec ||
		    !(d = elf_getdata(scn, NULL)))
			continue;
		for (size_t i = 0; i < sh.sh_size / sizeof(GElf_Rela); i++) {
			GElf_Rela r;
			GElf_Sym sym;

			if (!gelf_getrela(d, (int)i, &r) || r.r_offset != off ||
			    !gelf_getsym(k->syms, (int)GELF_R_SYM(r.r_info), &sym))
				continue;
			*to_sec = sym.st_shndx;
			*to_off = sym.st_value + (uint64_t)r.r_addend;
			return 1;
		}
	}
	return 0;
}

static int member_off(const struct btf *b, const char *agg, const char *name, int64_t *off)
{
	int id = btf__find_by_name_kind(b, agg, BTF_KIND_STRUCT);
	uint32_t type;
	int bit, bits;

	return id > 0 && btf_find_member(b, (uint32_t)id, name, &type, off, &bit, &bits);
}

/* Each event_NAME's system: event_NAME.class->system. */
static void ko_systems(struct ko *k, const struct btf *b, struct pmap *out)
{
	int64_t class_off, system_off;
	GElf_Sym sym;

	if (!member_off(b, "trace_event_call", "class", &class_off) ||
	    !member_off(b, "trace_event_class", "system", &system_off))
		return;
	for (int i = 0; gelf_getsym(k->syms, i, &sym); i++) {
		const char *name = elf_strptr(k->elf, k->strndx, sym.st_name), *sys;
		size_t csec, ssec;
		uint64_t coff, soff;

		if (!name || strncmp(name, "event_", 6) || !strncmp(name, "event_class_", 12) ||
		    GELF_ST_TYPE(sym.st_info) != STT_OBJECT ||
		    !pointee(k, sym.st_shndx, sym.st_value + (uint64_t)class_off, &csec, &coff) ||
		    !pointee(k, csec, coff + (uint64_t)system_off, &ssec, &soff) ||
		    !(sys = sec_bytes(k, ssec, soff)) || !memchr(sys, 0, 64))
			continue;
		pmap_put(out, intern(name + 6, strlen(name + 6)), (void *)intern(sys, strlen(sys)));
	}
}

static int ko_open(struct ko *k, const char *data, size_t n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	elf_version(EV_CURRENT);
	k->elf = elf_memory((char *)data, n);
	while (k->elf && (scn = elf_nextscn(k->elf, scn)))
		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_SYMTAB) {
			k->syms = elf_getdata(scn, NULL);
			k->strndx = sh.sh_link;
		}
	return k->syms != NULL;
}

static const void *ko_section(struct ko *k, const char *want, size_t *n)
{
	GElf_Shdr sh;
	Elf_Scn *scn = elf_section(k->elf, want, &sh);
	Elf_Data *d = scn ? elf_getdata(scn, NULL) : NULL;

	if (!d)
		return NULL;
	*n = d->d_size;
	return d->d_buf;
}

/* Debian 12's libbpf (1.1) has no btf__new_split(): the bytes go
 * through a memfd to btf__parse_raw_split(). */
static struct btf *split_btf(const void *p, size_t n, struct btf *base)
{
	int fd = memfd_create("stp-btf", MFD_CLOEXEC);
	struct btf *b = NULL;

	if (fd < 0)
		return NULL;
	if (write(fd, p, n) == (ssize_t)n)
		b = btf__parse_raw_split(ar_printf("/proc/self/fd/%d", fd), base);
	close(fd);
	return b && !libbpf_get_error(b) ? b : NULL;
}

struct kbtf *kbtf_module_load(const struct session *s, const char *m, const char **why)
{
	struct kbtf *base = kbtf_load(s, why), *kb;
	const char *path = modko_path(s, m);
	struct ko k = { 0 };
	const void *p;
	size_t n;
	char *data;

	if (!base)
		return NULL;
	if (!path) {
		*why = ar_printf("kernel %s has no module '%s'", s->kernel_release, m);
		return NULL;
	}
	if (!(data = modko_read(path, &n)) || !ko_open(&k, data, n)) {
		*why = ar_printf("%s cannot be read as a kernel module", path);
		goto fail;
	}
	kb = ar_alloc(sizeof(*kb));
	if (!(p = ko_section(&k, ".BTF", &n)) || !(kb->btf = split_btf(p, n, base->btf))) {
		*why = ar_printf("%s has no BTF (.BTF)", path);
		goto fail;
	}
	ko_systems(&k, kb->btf, &kb->systems);
	kb->source = path;
	elf_end(k.elf);
	free(data);
	return kb;
fail:
	if (k.elf)
		elf_end(k.elf);
	free(data);
	return NULL;
}

/* ---- which module has a tracepoint ---- */

/* "NAME MODULE\n" for each tracepoint the .ko defines. */
static void index_ko(const char *path, const char *m, struct sbuf *out)
{
	size_t n;
	char *data = modko_read(path, &n);
	struct ko k = { 0 };
	GElf_Sym sym;

	if (data && ko_open(&k, data, n))
		for (int i = 0; gelf_getsym(k.syms, i, &sym); i++) {
			const char *name = elf_strptr(k.elf, k.strndx, sym.st_name);

			if (name && !strncmp(name, "__tracepoint_", 13) && sym.st_shndx != SHN_UNDEF)
				sb_printf(out, "%s %s\n", name + 13, m);
		}
	if (k.elf)
		elf_end(k.elf);
	free(data);
}

static char *build_index(const struct session *s, size_t *len)
{
	const char *dir = ar_printf("%s/lib/modules/%s", s->sysroot ? s->sysroot : "",
				    s->kernel_release);
	char *order = util_read_file(ar_printf("%s/modules.order", dir), len);
	struct sbuf sb = { 0 };

	for (char *line = order, *nl; order && line < order + *len; line = nl + 1) {
		char *base, *dot;
		const char *path;

		if (!(nl = strchr(line, '\n')))
			break;
		*nl = '\0';
		base = strrchr(line, '/');
		base = base ? base + 1 : line;
		dot = strstr(base, ".ko");
		path = dot ? modko_path(s, ar_strndup(base, (size_t)(dot - base))) : NULL;
		if (path)
			index_ko(path, ar_strndup(base, (size_t)(dot - base)), &sb);
	}
	free(order);
	*len = sb.len;
	return sb.s ? sb.s : strdup("");
}

const char *kbtf_module_of(const struct session *s, const char *name)
{
	static struct pmap index;
	static int loaded;
	const char *order = ar_printf("%s/lib/modules/%s/modules.order",
				      s->sysroot ? s->sysroot : "", s->kernel_release);
	const char *dir = cache_dir(), *file = NULL;
	struct stat st;
	size_t len = 0;
	char *text = NULL;

	if (!loaded) {
		loaded = 1;
		if (dir && !stat(order, &st)) {
			const char *key = ar_printf("%s:%lld:%lld", order, (long long)st.st_size,
						    (long long)st.st_mtime);

			file = ar_printf("%s/btf/%s-%zx.modtp", dir, s->kernel_release,
					 util_hash(key, strlen(key)));
			text = util_read_file(file, &len);
		}
		if (!text && !stat(order, &st)) {
			struct iovec v[1];

			if (s->verbose)
				fprintf(stderr, "Indexing the tracepoints of %s's modules (once)\n",
					s->kernel_release);
			text = build_index(s, &len);
			v[0] = (struct iovec){ text, len };
			if (file)
				cache_save(file, v, 1);
		}
		for (char *p = text, *nl, *sp; text && p < text + len; p = nl + 1) {
			if (!(nl = memchr(p, '\n', (size_t)(text + len - p))) ||
			    !(sp = memchr(p, ' ', (size_t)(nl - p))))
				break;
			pmap_put(&index, intern(p, (size_t)(sp - p)),
				 (void *)intern(sp + 1, (size_t)(nl - sp - 1)));
		}
		free(text);
	}
	return pmap_get(&index, intern(name, strlen(name)));
}
