// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target kernel's BTF, and the system (TRACE_SYSTEM) of each of its
 * tracepoints.
 *
 * Where the BTF comes from, first found first:
 *   - the running kernel (no --sysroot, -r its release):
 *     /sys/kernel/btf/vmlinux;
 *   - SYSROOT/boot/vmlinuz-KREL, decompressed (btf_image.c): always
 *     there, and a tenth of the size of the next;
 *   - SYSROOT/usr/lib/debug/boot/vmlinux-KREL (the -dbg package), as is.
 *
 * The system is not in BTF.  It is in the kernel's data: each event's
 * struct trace_event_call (the System.map's __event_NAME) points to its
 * struct trace_event_class, whose .system is the TRACE_SYSTEM string.
 * BTF gives both structs' layout, the System.map the address, the image
 * the bytes.  For the running kernel, tracefs says the same
 * (events/SYSTEM/NAME) when it can be read.  Tracepoints without an
 * event (DECLARE_TRACE only) have no system.
 *
 * A machine may boot with nothing on /sys/kernel/tracing (the kernel
 * makes the directory; systemd mounts tracefs there, a container or a
 * minimal init does not).  Like perf, stp then mounts tracefs where the
 * kernel's documentation puts it, when it may.  When it may not, the
 * running kernel's image is tried (Debian's is readable by root only),
 * and last the names are kept without systems: kbtf.no_systems says
 * why, and trace_points.c matches SYSTEM:NAME by NAME with a warning.
 *
 * Decompressing takes a second or two, so the BTF and the systems are
 * kept in ~/.cache/stp/btf/, named by release and the image's size and
 * time: KREL-HASH.btf (the raw .BTF) and KREL-HASH.sys ("NAME SYSTEM"
 * lines).
 */
#include "btf.h"

#include <bpf/btf.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/utsname.h>

static const char *root_of(const struct session *s)
{
	return s->sysroot ? s->sysroot : "";
}

static int is_running_kernel(const struct session *s)
{
	struct utsname u;

	return !s->sysroot && !uname(&u) && !strcmp(u.release, s->kernel_release);
}

/* ---- systems from the image ---- */

static int member_off(const struct btf *b, const char *agg, const char *name, int64_t *off)
{
	int id = btf__find_by_name_kind(b, agg, BTF_KIND_STRUCT);
	uint32_t ty;
	int bit, bits;

	return id > 0 && btf_find_member(b, (uint32_t)id, name, &ty, off, &bit, &bits);
}

static uint64_t read64(struct kimage *k, uint64_t a)
{
	const unsigned char *p = kimage_at(k, a, 8);
	uint64_t v = 0;

	for (int i = 7; p && i >= 0; i--)
		v = v << 8 | p[i];
	return v;
}

/* One System.map line's "__event_NAME" (in _ftrace_events: a pointer to
 * the event's struct trace_event_call) into the systems. */
static void event_system(struct kbtf *kb, struct kimage *k, uint64_t ev, const char *name,
			 int64_t class_off, int64_t system_off, const struct pmap *tracepoints)
{
	uint64_t call = read64(k, ev);	/* __event_NAME points to event_NAME */
	uint64_t cls = call ? read64(k, call + (uint64_t)class_off) : 0;
	uint64_t str = cls ? read64(k, cls + (uint64_t)system_off) : 0;
	const char *sys = str ? kimage_at(k, str, 1) : NULL;
	const char *key = intern(name, strlen(name));

	if (!sys || !memchr(sys, 0, 64) || !pmap_get(tracepoints, key))
		return;		/* not an event of a tracepoint (syscalls) */
	pmap_put(&kb->systems, key, (void *)intern(sys, strlen(sys)));
}

/* The tracepoints' names (the btf_trace_NAME typedefs), as a set. */
static void tracepoint_names(const struct btf *b, struct pmap *out)
{
	uint32_t n = btf__type_cnt(b);

	for (uint32_t i = 1; i < n; i++) {
		const struct btf_type *t = btf__type_by_id(b, i);
		const char *name = btf_is_typedef(t) ? btf__name_by_offset(b, t->name_off) : NULL;

		if (name && !strncmp(name, "btf_trace_", 10))
			pmap_put(out, intern(name + 10, strlen(name + 10)), (void *)1);
	}
}

static void image_systems(struct kbtf *kb, struct kimage *k, const char *map)
{
	struct pmap tps = { 0 };
	FILE *f = map ? fopen(map, "r") : NULL;
	int64_t class_off, system_off;
	char line[512], name[400];
	unsigned long long a;
	char t;

	if (!f)
		return;
	if (!member_off(kb->btf, "trace_event_call", "class", &class_off) ||
	    !member_off(kb->btf, "trace_event_class", "system", &system_off)) {
		fclose(f);
		return;
	}
	tracepoint_names(kb->btf, &tps);
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c __event_%399s", &a, &t, name) == 3)
			event_system(kb, k, a, name, class_off, system_off, &tps);
	fclose(f);
	free(tps.keys);
	free(tps.vals);
}

/* ---- systems from tracefs (the running kernel) ---- */

#define TRACEFS "/sys/kernel/tracing"

const char *const tracefs_events_dirs[TRACEFS_EVENTS_DIRS] = {
	TRACEFS "/events", "/sys/kernel/debug/tracing/events",
};

static void tracefs_systems(struct kbtf *kb)
{
	const char *const *dirs = tracefs_events_dirs;

	for (size_t i = 0; i < TRACEFS_EVENTS_DIRS && !kb->systems.len; i++) {
		DIR *top = opendir(dirs[i]), *sub;
		struct dirent *s, *ev;

		while (top && (s = readdir(top))) {
			if (s->d_name[0] == '.' || !(sub = opendir(ar_printf("%s/%s", dirs[i], s->d_name))))
				continue;
			while ((ev = readdir(sub)))
				if (ev->d_name[0] != '.' && ev->d_type == DT_DIR)
					pmap_put(&kb->systems, intern(ev->d_name, strlen(ev->d_name)),
						 (void *)intern(s->d_name, strlen(s->d_name)));
			closedir(sub);
		}
		if (top)
			closedir(top);
	}
}

/* Mount tracefs on TRACEFS when nothing is there; NULL when it is
 * mounted now, else why not.  Said once with -v: a user should know
 * that stp changed the machine's mounts. */
static const char *mount_tracefs(const struct session *s)
{
	struct stat st;

	if (!stat(TRACEFS "/events", &st))
		return "tracefs on " TRACEFS " has no events";
	if (stat(TRACEFS, &st) || !S_ISDIR(st.st_mode))
		return "the kernel has no " TRACEFS " (CONFIG_TRACING)";
	if (mount("nodev", TRACEFS, "tracefs", 0, NULL))
		return ar_printf("nothing is mounted on " TRACEFS " and mounting tracefs there failed: %s",
				 strerror(errno));
	if (s->verbose)
		fprintf(stderr, "mounted tracefs on " TRACEFS " (nothing was there), for the "
			"tracepoints' systems\n");
	return NULL;
}

/* ---- the cache ---- */

static const char *cache_base(const struct session *s, const char *image)
{
	const char *dir = cache_dir();
	struct stat st;
	const char *key;

	char *real;

	if (!dir || stat(image, &st))
		return NULL;
	/* the same file through a symlinked root (the guest tests') is one */
	real = realpath(image, NULL);
	key = ar_printf("%s:%lld:%lld", real ? real : image, (long long)st.st_size,
			(long long)st.st_mtime);
	free(real);
	return ar_printf("%s/btf/%s-%zx", dir, s->kernel_release, util_hash(key, strlen(key)));
}

static void save(const char *base, const void *btf, size_t n, const struct kbtf *kb)
{
	struct sbuf sb = { 0 };
	struct iovec v[1];

	for (size_t i = 0; i < kb->systems.cap; i++)
		if (kb->systems.keys[i])
			sb_printf(&sb, "%s %s\n", (const char *)kb->systems.keys[i],
				  (const char *)kb->systems.vals[i]);
	v[0] = (struct iovec){ sb.s ? sb.s : "", sb.len };
	cache_save(ar_printf("%s.sys", base), v, 1);
	v[0] = (struct iovec){ (void *)btf, n };
	cache_save(ar_printf("%s.btf", base), v, 1);	/* last: the one looked for */
	free(sb.s);
}

static int load_cached(struct kbtf *kb, const char *base)
{
	size_t n;
	char *sys, *p, *end;

	kb->btf = btf__parse_raw(ar_printf("%s.btf", base));
	if (!kb->btf)
		return 0;
	sys = util_read_file(ar_printf("%s.sys", base), &n);
	for (p = sys, end = sys + (sys ? n : 0); p && p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p)), *sp = memchr(p, ' ', (size_t)(end - p));

		if (!nl || !sp || sp > nl)
			break;
		pmap_put(&kb->systems, intern(p, (size_t)(sp - p)),
			 (void *)intern(sp + 1, (size_t)(nl - sp - 1)));
		p = nl + 1;
	}
	free(sys);
	kb->source = ar_printf("%s.btf", base);
	return 1;
}

/* From an image (ELF or bzImage): its .BTF and the systems. */
static int from_image(struct kbtf *kb, const struct session *s, const char *path,
		      const char **why)
{
	const char *base = cache_base(s, path);
	struct kimage k;
	const void *p;
	size_t n;

	if (base && load_cached(kb, base))
		return 1;
	if (!kimage_open(path, &k, why))
		return 0;
	if (!kimage_section(&k, ".BTF", &p, &n) || !(kb->btf = btf__new(p, (uint32_t)n))) {
		kimage_close(&k);
		*why = ar_printf("%s has no BTF (.BTF; CONFIG_DEBUG_INFO_BTF)", path);
		return 0;
	}
	image_systems(kb, &k, ksyms_map_file(s));
	if (base)
		save(base, p, n, kb);
	kb->source = path;
	kimage_close(&k);
	return 1;
}

/* The running kernel's systems: tracefs, mounted if need be, else the
 * image's; else kb->no_systems says why there are none. */
static struct kbtf *running_systems(struct kbtf *kb, const struct session *s, const char *img)
{
	struct kbtf *from_img = ar_alloc(sizeof(*from_img));
	const char *why_tracefs, *why_img = NULL;
	struct stat st;

	tracefs_systems(kb);
	if (kb->systems.len)
		return kb;
	why_tracefs = mount_tracefs(s);
	if (!why_tracefs) {
		tracefs_systems(kb);
		if (kb->systems.len)
			return kb;
		why_tracefs = "tracefs on " TRACEFS " has no events";
	}
	if (!stat(img, &st) && from_image(from_img, s, img, &why_img) && from_img->systems.len) {
		btf__free(kb->btf);
		return from_img;
	}
	if (!why_img)
		why_img = stat(img, &st) ? ar_printf("there is no %s", img) :
			ar_printf("%s gives none", img);
	kb->no_systems = ar_printf("%s; %s", why_tracefs, why_img);
	return kb;
}

struct kbtf *kbtf_load(const struct session *s, const char **why)
{
	static struct kbtf *kb;
	static const char *failed;
	const char *dbg = ar_printf("%s/usr/lib/debug/boot/vmlinux-%s", root_of(s),
				    s->kernel_release);
	const char *img = ar_printf("%s/boot/vmlinuz-%s", root_of(s), s->kernel_release);
	struct stat st;

	if (kb || failed) {
		*why = failed;
		return kb;
	}
	kb = ar_alloc(sizeof(*kb));
	if (is_running_kernel(s) && (kb->btf = btf__parse_raw("/sys/kernel/btf/vmlinux"))) {
		kb->source = "/sys/kernel/btf/vmlinux";
		kb = running_systems(kb, s, img);
		*why = NULL;
		return kb;
	}
	if (!stat(img, &st) && from_image(kb, s, img, why))
		return kb;
	if (!stat(dbg, &st) && from_image(kb, s, dbg, why))
		return kb;
	if (stat(img, &st) && stat(dbg, &st))
		*why = ar_printf("no BTF for kernel %s: neither %s nor %s is there", s->kernel_release,
				 dbg, img);
	failed = *why;
	kb = NULL;
	return NULL;
}
