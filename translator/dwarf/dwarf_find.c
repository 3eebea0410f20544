// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where the kernel's debuginfo is: --vmlinux, a -d file, or where
 * distributions put it, under --sysroot when one is given.  Debian
 * ships it in linux-image-KRELEASE-dbg as
 * /usr/lib/debug/boot/vmlinux-KRELEASE; Fedora under
 * /usr/lib/debug/lib/modules/KRELEASE/vmlinux; a kernel built by hand
 * leaves vmlinux in its build tree.
 *
 * A program's or library's: in the file itself, else a -d file, else
 * by its build-id where Debian's -dbg and -dbgsym packages put it
 * (/usr/lib/debug/.build-id/NN/REST.debug), else at
 * /usr/lib/debug/PATH.debug, else by .gnu_debuglink.
 * Without it, what to install: dpkg -S names the package.
 */
#include "dw.h"
#include "../elab/elab.h"
#include "../families/uprobe/uprobe_family.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>
#include <elfutils/libdwelf.h>

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

const char *dw_find_kernel(const struct session *s, const char *module,
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
struct dwarf_file *dw_kernel(const struct session *s, const char **why)
{
	static struct dwarf_file *f;
	static const char *failed;
	const char *path;

	if (f || failed) {
		*why = failed;
		return f;
	}
	path = dw_find_kernel(s, NULL, why);
	f = path ? dw_open(path, "kernel", 0, why) : NULL;
	if (!f)
		failed = *why;
	return f;
}

/* ---- a program's or library's separate debuginfo ---- */

/* The directory part of path ("" for a name without one). */
static const char *dir_part(const char *path)
{
	const char *slash = strrchr(path, '/');

	return ar_strndup(path, slash ? (size_t)(slash - path) : 0);
}

static const char *build_id_path(const char *id)
{
	return ar_printf("/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2);
}

/* The .gnu_debuglink file: beside the file, in its .debug/, or under
 * /usr/lib/debug at the file's directory. */
static const char *from_debuglink(const struct session *s, Elf *elf, const char *target,
				  const char *host, struct sbuf *tried)
{
	GElf_Word crc;
	const char *link = dwelf_elf_gnu_debuglink(elf, &crc), *p, *global;
	const char *cand[2];

	if (!link)
		return NULL;
	cand[0] = ar_printf("%s/%s", dir_part(host), link);
	cand[1] = ar_printf("%s/.debug/%s", dir_part(host), link);
	for (size_t i = 0; i < sizeof(cand) / sizeof(cand[0]); i++) {
		if (strcmp(cand[i], host) && regular_file(cand[i]))
			return cand[i];
		sb_printf(tried, ", %s", cand[i]);
	}
	global = ar_printf("/usr/lib/debug%s/%s", dir_part(target), link);
	if ((p = target_path(s, global)))
		return p;
	sb_printf(tried, ", %s", global);
	return NULL;
}

/* The build-id of the ELF file at path, or NULL. */
static const char *build_id_of(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf *elf = fd < 0 ? NULL : elf_begin(fd, ELF_C_READ_MMAP, NULL);
	const char *id = elf ? dw_build_id(elf) : NULL;

	if (elf)
		elf_end(elf);
	if (fd >= 0)
		close(fd);
	return id;
}

/* A -d FILE with build-id id. */
static const char *from_d_id(const struct session *s, const char *id)
{
	for (int i = 0; id && i < s->debug_files.len; i++) {
		const char *other = build_id_of(s->debug_files.v[i]);

		if (other && !strcmp(other, id))
			return s->debug_files.v[i];
	}
	return NULL;
}

/* /usr/lib/debug/PATH.debug (older -dbg packages), if it is of this
 * build: its build-id is the file's (or neither has one). */
static const char *from_debug_tree(const struct session *s, const char *target,
				   const char *id, struct sbuf *tried)
{
	const char *rel = ar_printf("/usr/lib/debug%s.debug", target), *p = target_path(s, rel);
	const char *other = p ? build_id_of(p) : NULL;

	if (p && (id ? other && !strcmp(id, other) : !other))
		return p;
	sb_printf(tried, ", %s", rel);
	return NULL;
}

const char *dw_find_user(const struct session *s, Elf *elf, const char *target,
			 const char *host, struct sbuf *tried)
{
	const char *id = dw_build_id(elf), *p;

	if ((p = from_d_id(s, id)))
		return p;
	if (id) {
		if ((p = target_path(s, build_id_path(id))))
			return p;
		sb_printf(tried, ", %s", build_id_path(id));
	}
	if ((p = from_debug_tree(s, target, id, tried)))
		return p;
	return from_debuglink(s, elf, target, host, tried);
}

/* The first line dpkg -S prints for path, or NULL (no dpkg, no owner).
 * Run without a shell: the path is the user's. */
static const char *dpkg_owner_line(const char *path)
{
	int fds[2], status;
	char buf[512];
	ssize_t n = 0, r;
	pid_t pid;

	if (pipe(fds))
		return NULL;
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fds[1], 1);
		dup2(null, 2);
		close(fds[0]);
		execlp("dpkg", "dpkg", "-S", "--", path, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	while (pid > 0 && n < (ssize_t)sizeof(buf) - 1 &&
	       (r = read(fds[0], buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n == 0)
		return NULL;
	buf[n] = '\0';
	return ar_strndup(buf, strcspn(buf, "\n"));
}

/* The Debian package holding path ("libc6" of "libc6:amd64: /lib/..."),
 * as named, as it resolves, or without /usr (usrmerge: dpkg knows
 * /lib/x86_64-linux-gnu/libc.so.6, not /usr/lib/...). */
static const char *debian_package(const char *path)
{
	char real[PATH_MAX];
	const char *cand[3] = { path, NULL, NULL }, *line;

	if (realpath(path, real)) {
		if (strcmp(real, path))
			cand[1] = ar_strdup(real);
		if (!strncmp(real, "/usr/", 5))
			cand[2] = ar_strdup(real + 4);
	}
	for (size_t i = 0; i < 3; i++) {
		if (!cand[i] || !(line = dpkg_owner_line(cand[i])))
			continue;
		return ar_strndup(line, strcspn(line, ":,"));
	}
	return NULL;
}

const char *dw_user_remedy(Elf *elf, const char *target, const char *host)
{
	const char *id = dw_build_id(elf), *pkg;

	/* dpkg knows this machine's files, not a sysroot's */
	if (!strcmp(target, host) && (pkg = debian_package(host)))
		return ar_printf("install %s-dbg or %s-dbgsym", pkg, pkg);
	if (!id)
		return "build it with -g (it has no build-id to find a debug file by)";
	return ar_printf("build it with -g, or install its debug file as %s", build_id_path(id));
}
