// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel as an ELF file in memory, for its BTF and its data: the
 * -dbg package's vmlinux as it is, or the ELF inside a bzImage
 * (boot/vmlinuz-KREL).
 *
 * A bzImage is the real-mode setup code, then the decompressor, whose
 * payload (at payload_offset, payload_length in the setup header, boot
 * protocol 2.08 and later) is "vmlinux.bin" compressed: vmlinux with its
 * symbols and debug sections stripped (objcopy -S) but its allocated
 * sections, .BTF among them, kept.  The compressor is the kernel's
 * CONFIG_KERNEL_*; Debian's 6.1 uses xz, its 6.12 zstd.  The payload
 * ends with the uncompressed size, 4 bytes little-endian.
 */
#include "btf.h"
#include "../symbols/elfsec.h"

#include <gelf.h>
#include <lzma.h>
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

static uint32_t le32(const unsigned char *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

static int unxz(const unsigned char *in, size_t n, char *out, size_t cap, size_t *got)
{
	lzma_stream z = LZMA_STREAM_INIT;
	lzma_ret r;

	if (lzma_stream_decoder(&z, UINT64_MAX, 0) != LZMA_OK)
		return 0;
	z.next_in = in;
	z.avail_in = n;
	z.next_out = (uint8_t *)out;
	z.avail_out = cap;
	r = lzma_code(&z, LZMA_FINISH);
	*got = cap - z.avail_out;
	lzma_end(&z);
	return r == LZMA_STREAM_END;
}

static int unzstd(const unsigned char *in, size_t n, char *out, size_t cap, size_t *got)
{
	ZSTD_DStream *z = ZSTD_createDStream();
	ZSTD_inBuffer ib = { in, n, 0 };
	ZSTD_outBuffer ob = { out, cap, 0 };
	size_t r = 1;

	if (!z)
		return 0;
	ZSTD_initDStream(z);
	while (r && !ZSTD_isError(r) && ob.pos < ob.size && ib.pos < ib.size)
		r = ZSTD_decompressStream(z, &ob, &ib);
	ZSTD_freeDStream(z);
	*got = ob.pos;
	return r == 0;
}

static int ungzip(const unsigned char *in, size_t n, char *out, size_t cap, size_t *got)
{
	z_stream z = { 0 };
	int r;

	if (inflateInit2(&z, 16 + MAX_WBITS) != Z_OK)
		return 0;
	z.next_in = (unsigned char *)in;
	z.avail_in = (uInt)n;
	z.next_out = (unsigned char *)out;
	z.avail_out = (uInt)cap;
	r = inflate(&z, Z_FINISH);
	*got = cap - z.avail_out;
	inflateEnd(&z);
	return r == Z_STREAM_END;
}

/* The bzImage's payload, decompressed; NULL and *why when it is not
 * one stp can open. */
static char *bzimage_payload(const unsigned char *img, size_t size, size_t *out_size,
			     const char **why)
{
	static const struct {
		const char *name, *magic;
		size_t len;
		int (*fn)(const unsigned char *, size_t, char *, size_t, size_t *);
	} kinds[] = {
		{ "xz", "\xfd" "7zXZ", 6, unxz },
		{ "zstd", "\x28\xb5\x2f\xfd", 4, unzstd },
		{ "gzip", "\x1f\x8b", 2, ungzip },
	};
	size_t setup, off, len, want, got = 0;
	const unsigned char *p;
	char *out;

	if (size < 0x250 || memcmp(img + 0x202, "HdrS", 4) || (img[0x206] | img[0x207] << 8) < 0x208) {
		*why = "it is no bzImage of boot protocol 2.08 or later";
		return NULL;
	}
	setup = ((size_t)(img[0x1f1] ? img[0x1f1] : 4) + 1) * 512;
	off = setup + le32(img + 0x248);
	len = le32(img + 0x24c);
	if (len < 8 || off + len > size) {
		*why = "its payload lies outside the file";
		return NULL;
	}
	p = img + off;
	want = le32(p + len - 4);
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (memcmp(p, kinds[i].magic, kinds[i].len))
			continue;
		if (want > (1u << 30)) {
			*why = "its uncompressed size is implausible";
			return NULL;
		}
		out = xmalloc(want);
		if (!kinds[i].fn(p, len, out, want, &got) || got != want) {
			free(out);
			*why = ar_printf("its %s payload does not decompress", kinds[i].name);
			return NULL;
		}
		*out_size = got;
		return out;
	}
	*why = "its payload is compressed in a way stp does not read (xz, zstd, gzip)";
	return NULL;
}

int kimage_open(const char *path, struct kimage *k, const char **why)
{
	size_t size;
	char *file = util_read_file(path, &size);

	memset(k, 0, sizeof(*k));
	if (!file) {
		*why = ar_printf("cannot read %s", path);
		return 0;
	}
	if (size > 4 && !memcmp(file, "\x7f" "ELF", 4)) {
		k->data = file;
		k->size = size;
	} else {
		k->data = bzimage_payload((const unsigned char *)file, size, &k->size, why);
		free(file);
		if (!k->data) {
			*why = ar_printf("%s: %s", path, *why);
			return 0;
		}
	}
	elf_version(EV_CURRENT);
	k->elf = elf_memory(k->data, k->size);
	if (!k->elf || elf_kind(k->elf) != ELF_K_ELF) {
		kimage_close(k);
		*why = ar_printf("%s holds no ELF kernel", path);
		return 0;
	}
	return 1;
}

int kimage_section(struct kimage *k, const char *name, const void **p, size_t *n)
{
	GElf_Shdr sh;

	if (!elf_section(k->elf, name, &sh) || sh.sh_type == SHT_NOBITS ||
	    sh.sh_offset + sh.sh_size > k->size)
		return 0;
	*p = k->data + sh.sh_offset;
	*n = sh.sh_size;
	return 1;
}

const void *kimage_at(struct kimage *k, uint64_t addr, size_t n)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;

	while ((scn = elf_nextscn(k->elf, scn))) {
		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_PROGBITS ||
		    !(sh.sh_flags & SHF_ALLOC))
			continue;
		if (addr >= sh.sh_addr && addr + n <= sh.sh_addr + sh.sh_size &&
		    sh.sh_offset + sh.sh_size <= k->size)
			return k->data + sh.sh_offset + (addr - sh.sh_addr);
	}
	return NULL;
}

void kimage_close(struct kimage *k)
{
	if (k->elf)
		elf_end(k->elf);
	free(k->data);
	memset(k, 0, sizeof(*k));
}
