// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the kernel's debuginfo is: --vmlinux, a -d file, or where
 * distributions put it, under --sysroot when one is given.  Debian
 * ships it in linux-image-KRELEASE-dbg as
 * /usr/lib/debug/boot/vmlinux-KRELEASE; Fedora under
 * /usr/lib/debug/lib/modules/KRELEASE/vmlinux; a kernel built by hand
 * leaves vmlinux in its build tree.
 */
#include "dw.h"
#include "elab.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

static int readable(const char *p)
{
	return !access(p, R_OK);
}

/* A -d file whose name is the module's (or vmlinux for the kernel). */
static const char *from_d(const struct session *s, const char *module)
{
	const char *want = module ? module : "vmlinux";

	for (int i = 0; i < s->debug_files.len; i++) {
		const char *p = s->debug_files.v[i], *base = strrchr(p, '/');
		size_t n = strlen(want);

		base = base ? base + 1 : p;
		if (!strncmp(base, want, n) && (!base[n] || base[n] == '.' || base[n] == '-'))
			return p;
	}
	return NULL;
}

/* The running kernel's build-id, for /usr/lib/debug/.build-id links. */
static const char *running_build_id_path(const struct session *s)
{
	struct utsname u;
	size_t len;
	char *notes;

	if (s->sysroot || uname(&u) || strcmp(u.release, s->kernel_release))
		return NULL;
	notes = util_read_file("/sys/kernel/notes", &len);
	/* ELF notes: namesz, descsz, type, "GNU\0", the id */
	for (size_t off = 0; notes && off + 12 <= len;) {
		unsigned nsz = *(unsigned *)(notes + off), dsz = *(unsigned *)(notes + off + 4);
		unsigned type = *(unsigned *)(notes + off + 8);
		size_t name = off + 12, desc = name + ((nsz + 3) & ~3u);

		if (desc + dsz > len)
			break;
		if (type == 3 && nsz == 4 && !memcmp(notes + name, "GNU", 4) && dsz > 1) {
			struct sbuf sb = { 0 };
			const char *p;

			sb_printf(&sb, "/usr/lib/debug/.build-id/%02x/", (unsigned char)notes[desc]);
			for (unsigned i = 1; i < dsz; i++)
				sb_printf(&sb, "%02x", (unsigned char)notes[desc + i]);
			sb_puts(&sb, ".debug");
			p = ar_strdup(sb.s);
			free(sb.s);
			return p;
		}
		off = desc + ((dsz + 3) & ~3u);
	}
	return NULL;
}

const char *dwarf_find_kernel(const struct session *s, const char *module,
			      const char **why)
{
	const char *root = s->sysroot ? s->sysroot : "", *rel = s->kernel_release;
	const char *d = from_d(s, module), *p;

	if (d)
		return d;
	if (!module) {
		const char *cand[] = {
			"%s/usr/lib/debug/boot/vmlinux-%s",
			"%s/usr/lib/debug/lib/modules/%s/vmlinux",
			"%s/boot/vmlinux-%s",
			"%s/lib/modules/%s/build/vmlinux",
		};

		if (s->vmlinux)
			return s->vmlinux;
		for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++)
			if (readable(p = ar_printf(cand[i], root, rel)))
				return p;
		if ((p = running_build_id_path(s)) && readable(p))
			return p;
		*why = ar_printf("no debuginfo for kernel %s: install linux-image-%s-dbg "
				 "(it puts /usr/lib/debug/boot/vmlinux-%s), or give --vmlinux=PATH",
				 rel, rel, rel);
		return NULL;
	}
	p = modsyms_path(s, module);
	if (p) {
		const char *rest = strstr(p, ar_printf("/lib/modules/%s/", rel));

		if (rest) {
			const char *dbg = ar_printf("%s/usr/lib/debug%s", root, rest);
			size_t n = strlen(dbg);

			if (readable(dbg))
				return dbg;
			if (n > 3 && !strcmp(dbg + n - 3, ".xz") &&
			    readable(dbg = ar_strndup(dbg, n - 3)))
				return dbg;
		}
	}
	*why = ar_printf("no debuginfo for module '%s' of kernel %s: install linux-image-%s-dbg, "
			 "or give -d PATH/%s.ko", module, rel, rel, module);
	return NULL;
}

/* The kernel's debuginfo, opened once (a failure too); NULL and *why
 * without it. */
struct dwarf_file *dwarf_kernel(const struct session *s, const char **why)
{
	static struct dwarf_file *f;
	static const char *failed;
	const char *path;

	if (f || failed) {
		*why = failed;
		return f;
	}
	path = dwarf_find_kernel(s, NULL, why);
	f = path ? dwarf_open(path, "kernel", 0, why) : NULL;
	if (!f)
		failed = *why;
	return f;
}
