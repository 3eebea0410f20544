// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Closed Chopstix epochs (runtime/vitals_msg.h): when the module says an
 * epoch closed, read stp_MODNAME/vitals to its end, turn the records into
 * the store's rows (executables resolved to paths, user addresses to
 * symbols, the data's numbers named), print the summary, and write the
 * epoch to the store in one transaction.  Program ids become paths at
 * the epoch's end, as Chopstix did with dcookies: the module pins the
 * executable's file with each sample and names it when stprun reads, so
 * the path survives the process; failing that, /proc/PID/exe while the
 * process lives (its device and inode must match what the sample saw),
 * else what an earlier sample resolved, else "[comm]".  User addresses
 * are symbolized through the process's maps while it lives, else from
 * the executable when it is linked at fixed addresses.
 */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
#include "stprun.h"
#include "epoch.h"
#include "vitals_msg.h"

#define READ_CHUNK (1 << 20)

struct exe_path {
	uint64_t dev, ino;
	char *path;
	struct exe_path *next;
};

struct epochs {
	char *file;		/* the module's vitals file */
	char *db_path;
	uint64_t max_bytes, max_age_s;
	struct vstore *st;
	int store_failed;
	struct exe_path *exes;
	char host[65];
};

struct epochs *epochs_new(const char *modname, const char *db_path,
			  uint64_t max_bytes, uint64_t max_age_s)
{
	struct epochs *e = calloc(1, sizeof(*e));
	struct utsname u;

	if (!e || asprintf(&e->file, "/sys/kernel/debug/" STP_DEBUGFS_PREFIX "%s/vitals",
			   modname) < 0)
		return NULL;
	e->db_path = db_path ? strdup(db_path) : NULL;
	e->max_bytes = max_bytes;
	e->max_age_s = max_age_s;
	/* "(none)" is the kernel's nodename until one is set (UTS_NODENAME,
	 * as in a bare initramfs): no name, which the store keeps as "" */
	if (!uname(&u) && strcmp(u.nodename, "(none)"))
		snprintf(e->host, sizeof(e->host), "%s", u.nodename);
	return e;
}

int epochs_limits(const char *arg, uint64_t *max_bytes, uint64_t *max_age_s)
{
	char *end;
	unsigned long long mb = strtoull(arg, &end, 10), days = 0;

	if (*end == ',')
		days = strtoull(end + 1, &end, 10);
	if (end == arg || *end || mb > (1ULL << 40) || days > 100000)
		return -1;
	*max_bytes = mb << 20;
	*max_age_s = days * 86400;
	return 0;
}

int epochs_present(const char *modname)
{
	char f[512];

	snprintf(f, sizeof(f), "/sys/kernel/debug/" STP_DEBUGFS_PREFIX "%s/vitals", modname);
	return !access(f, F_OK);
}

void epochs_free(struct epochs *e)
{
	if (!e)
		return;
	if (e->st)
		vstore_close(e->st);
	while (e->exes) {
		struct exe_path *x = e->exes;

		e->exes = x->next;
		free(x->path);
		free(x);
	}
	free(e->file);
	free(e->db_path);
	free(e);
}

/* The whole closed epoch, read until the module says it is at the end. */
static char *read_all(const char *file, size_t *len)
{
	size_t cap = READ_CHUNK, n = 0;
	char *buf = malloc(cap);
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	ssize_t r;

	if (fd < 0 || !buf) {
		warnx_("cannot read %s: %s", file, strerror(errno));
		free(buf);
		if (fd >= 0)
			close(fd);
		return NULL;
	}
	for (;;) {
		if (cap - n < READ_CHUNK / 2) {
			char *b = realloc(buf, cap * 2);

			if (!b)
				break;
			buf = b;
			cap *= 2;
		}
		r = read(fd, buf + n, cap - n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			if (r < 0)
				warnx_("reading %s: %s", file, strerror(errno));
			break;
		}
		n += r;
	}
	close(fd);
	*len = n;
	return buf;
}

static const char *exe_path(struct epochs *e, const struct stp_cx_sample *s)
{
	char link[64], path[4096];
	struct exe_path *x;
	struct stat st;
	ssize_t n;

	if (!s->exec_ino)
		return NULL;
	for (x = e->exes; x; x = x->next)
		if (x->dev == s->exec_dev && x->ino == s->exec_ino)
			return x->path;
	snprintf(link, sizeof(link), "/proc/%u/exe", s->pid);
	n = readlink(link, path, sizeof(path) - 1);
	if (n <= 0 || stat(link, &st) || st.st_ino != s->exec_ino ||
	    st.st_dev != s->exec_dev)
		return NULL;
	path[n] = '\0';
	x = calloc(1, sizeof(*x));
	if (!x || !(x->path = strdup(path))) {
		free(x);
		return NULL;
	}
	x->dev = s->exec_dev;
	x->ino = s->exec_ino;
	x->next = e->exes;
	e->exes = x;
	return x->path;
}

/* "sym+0xoff [/path]" of a user address, or "0x..." */
static char *user_sym(int pid, const char *exe, uint64_t a)
{
	char t[8192], *r, *slash, *sp;

	usym_text(t, sizeof(t), pid, a);
	if (!t[0])
		usym_exe_text(t, sizeof(t), exe, a);
	if (!strncmp(t, " : ", 3)) {
		/* " : sym+0xoff/0xsize [/path]" -> "sym+0xoff [/path]" */
		slash = strchr(t, '/');
		sp = strstr(t, " [");
		if (slash && sp && slash < sp)
			memmove(slash, sp, strlen(sp) + 1);
		return strdup(t + 3);
	}
	if (t[0] == ' ' && asprintf(&r, "0x%llx%s", (unsigned long long)a, t) >= 0)
		return r;
	return asprintf(&r, "0x%llx", (unsigned long long)a) < 0 ? NULL : r;
}

/* Data that are addresses, shown in hex as addresses are. */
static int is_address(const char *name)
{
	static const char *const names[] = { "pc", "handler", "end_io",
					     "address", "owner" };

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(name, names[i]))
			return 1;
	return 0;
}

/* "prio=120 age_ns=5000 pc=0x401136": the data's numbers by their names. */
static char *data_text(const char *names, const __s64 *d)
{
	char buf[512] = "", nm[64];
	const char *p = names;
	size_t at = 0;
	int i, k;

	for (i = 0; i < 4 && p && *p; i++) {
		while (*p == ' ')
			p++;
		if (sscanf(p, "%63s%n", nm, &k) != 1)
			break;
		p += k;
		if (is_address(nm))
			at += snprintf(buf + at, sizeof(buf) - at, "%s%s=0x%llx",
				       at ? " " : "", nm, (unsigned long long)d[i]);
		else
			at += snprintf(buf + at, sizeof(buf) - at, "%s%s=%lld",
				       at ? " " : "", nm, (long long)d[i]);
		if (at >= sizeof(buf))
			break;
	}
	return strdup(buf);
}

/* The sample's row: its text is "exe\nsite\nkframe\n..." */
static int add_sample(struct epochs *e, struct epoch *ep, const struct stp_cx_sample *s,
		      const char *txt, char **vital_names, char **names)
{
	struct vx_sample *o = &ep->s[ep->e.nsamples];
	const char *path = txt, *nl, *exe;
	char *pinned;
	char *stack = NULL, *site, *u;
	size_t sl = 0;
	FILE *f = open_memstream(&stack, &sl);
	int i;

	if (!f || s->vital >= 64 || !vital_names[s->vital])
		return f ? fclose(f), 0 : -1;
	txt = strchr(path, '\n');
	pinned = txt ? strndup(path, txt - path) : strdup("");
	txt = txt ? txt + 1 : "";
	nl = strchr(txt, '\n');
	site = nl ? strndup(txt, nl - txt) : strdup(txt);
	if (site && !strncmp(site, "0x", 2) && s->pid) {
		u = user_sym(s->pid, pinned, strtoull(site, NULL, 16));
		free(site);
		site = u;
	}
	fputs(nl ? nl + 1 : "", f);
	for (i = 0; i < s->nu && i < 4; i++) {
		u = user_sym(s->pid, pinned, s->ustack[i]);
		fprintf(f, "%s%s", i || (nl && nl[1]) ? "\n" : "", u ? u : "?");
		free(u);
	}
	fclose(f);
	exe = pinned && pinned[0] ? pinned : exe_path(e, s);
	o->vital = vital_names[s->vital];
	o->time_ns = s->time_ns;
	o->label = s->label;
	o->weight = s->weight;
	o->count = s->count;
	if (exe)
		o->exec = strdup(exe);
	else if (asprintf((char **)&o->exec, "[%.16s]", s->comm) < 0)
		o->exec = NULL;
	o->uid = s->uid;
	o->pid = s->pid;
	o->site = site ? site : strdup("");
	o->data = data_text(names[s->vital] ? names[s->vital] : "", s->data);
	o->stack = stack ? stack : strdup("");
	free(pinned);
	ep->e.nsamples++;
	return 0;
}

uint64_t epoch_unique(const uint32_t *hca, uint32_t n)
{
	uint32_t zero = 0, i;

	for (i = 0; i < n; i++)
		zero += !hca[i];
	if (!n || zero == n)
		return 0;
	/* every counter taken: linear counting's bound, n ln n */
	return (uint64_t)llround(n * log((double)n / (zero ? zero : 1)));
}

static int add_vital(struct epoch *ep, const struct stp_cx_vital *r, size_t len,
		     char **vital_names, char **names)
{
	struct vx_vital *v = &ep->v[ep->e.nvitals];
	uint32_t *hca;

	if (r->index >= 64 || len < sizeof(*r) + (size_t)r->hca_len * 4)
		return -1;
	hca = malloc((size_t)r->hca_len * 4 + 1);
	if (!hca)
		return -1;
	memcpy(hca, r + 1, (size_t)r->hca_len * 4);
	vital_names[r->index] = strndup(r->name, sizeof(r->name));
	names[r->index] = strndup(r->names, sizeof(r->names));
	v->vital = vital_names[r->index];
	v->weight = r->weight;
	v->count = r->count;
	v->unique = epoch_unique(hca, r->hca_len);
	v->samples = r->samples;
	v->dropped = r->dropped;
	v->t = r->t;
	v->available = r->available;
	v->why = r->available ? NULL : strndup(r->why, sizeof(r->why));
	v->hca = hca;
	v->hca_len = r->hca_len;
	ep->e.nvitals++;
	return 0;
}

/* The records of buf into ep; -1 when they do not parse. */
static int parse(struct epochs *e, struct epoch *ep, const char *buf, size_t n,
		 char **vital_names, char **names)
{
	const struct stp_cx_epoch *h;
	struct stp_cx_rec r;
	size_t off = 0;

	for (; off + sizeof(r) <= n; off += sizeof(r) + r.len) {
		const char *p = buf + off + sizeof(r);

		memcpy(&r, buf + off, sizeof(r));
		if (r.len > n - off - sizeof(r))
			return -1;
		switch (r.type) {
		case STP_CX_EPOCH:
			if (r.len < sizeof(*h))
				return -1;
			h = (const void *)p;
			ep->seq = h->seq;
			ep->missed = h->missed;
			ep->final = h->final;
			ep->e.start_ns = h->start_ns;
			ep->e.end_ns = h->end_ns;
			ep->v = calloc(h->nvitals + 1, sizeof(*ep->v));
			ep->s = calloc(h->nsamples + 1, sizeof(*ep->s));
			if (!ep->v || !ep->s)
				return -1;
			break;
		case STP_CX_VITAL:
			if (!ep->v || r.len < sizeof(struct stp_cx_vital) ||
			    add_vital(ep, (const void *)p, r.len, vital_names, names))
				return -1;
			break;
		case STP_CX_SAMPLE: {
			struct stp_cx_sample s;

			if (!ep->s || r.len <= sizeof(s) || p[r.len - 1])
				return -1;
			memcpy(&s, p, sizeof(s));
			if (add_sample(e, ep, &s, p + sizeof(s), vital_names, names))
				return -1;
			break;
		}
		default:
			break;	/* a newer module's record */
		}
	}
	return off == n ? 0 : -1;
}

static void epoch_free(struct epoch *ep, char **vital_names, char **names)
{
	uint32_t i;

	for (i = 0; i < ep->e.nvitals; i++) {
		free((void *)ep->v[i].why);
		free((void *)ep->v[i].hca);
	}
	for (i = 0; i < ep->e.nsamples; i++) {
		free((void *)ep->s[i].exec);
		free((void *)ep->s[i].site);
		free((void *)ep->s[i].data);
		free((void *)ep->s[i].stack);
	}
	for (i = 0; i < 64; i++) {
		free(vital_names[i]);
		free(names[i]);
	}
	free(ep->v);
	free(ep->s);
}

/* root: /var/lib/stp/vitals.db; others: $XDG_DATA_HOME/stp or ~/.local/share/stp */
static char *default_db(void)
{
	const char *x = getenv("XDG_DATA_HOME"), *h = getenv("HOME");
	char *dir = NULL, *p = NULL, *s;

	if (!geteuid())
		dir = strdup("/var/lib/stp");
	else if (x && *x && asprintf(&dir, "%s/stp", x) < 0)
		dir = NULL;
	else if (!(x && *x) && h && *h && asprintf(&dir, "%s/.local/share/stp", h) < 0)
		dir = NULL;
	if (!dir)
		return NULL;
	for (s = dir + 1; ; s++) {	/* mkdir -p */
		if (*s == '/' || !*s) {
			char c = *s;

			*s = '\0';
			mkdir(dir, 0755);
			*s = c;
			if (!c)
				break;
		}
	}
	if (asprintf(&p, "%s/vitals.db", dir) < 0)
		p = NULL;
	free(dir);
	return p;
}

static void store(struct epochs *e, const struct epoch *ep)
{
	char *err = NULL;

	if (e->store_failed)
		return;
	if (!e->db_path && !(e->db_path = default_db())) {
		warnx_("no place for the vital-signs store: set --vitals-db PATH");
		e->store_failed = 1;
		return;
	}
	if (!e->st) {
		e->st = vstore_open(e->db_path, &err);
		if (!e->st) {
			warnx_("%s; epochs are not stored", err ? err : e->db_path);
			free(err);
			e->store_failed = 1;
			return;
		}
		vsay("vital signs stored in %s", e->db_path);
	}
	if (vstore_put(e->st, &ep->e, &err)) {
		warnx_("epoch %llu not stored: %s", (unsigned long long)ep->seq,
		       err ? err : "?");
		free(err);
		return;
	}
	if ((e->max_bytes || e->max_age_s) &&
	    vstore_trim(e->st, e->max_bytes, e->max_age_s, &err) < 0) {
		warnx_("trimming the store: %s", err ? err : "?");
		free(err);
	}
}

double now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int epochs_collect(struct epochs *e, FILE *out)
{
	double t0 = now_ms();
	size_t n = 0;
	char *buf = read_all(e->file, &n);

	if (!buf)
		return -1;
	return epochs_take(e, buf, n, out, t0);
}

int epochs_take(struct epochs *e, char *buf, size_t n, FILE *out, double t0)
{
	char *vital_names[64] = { 0 }, *names[64] = { 0 };
	struct epoch ep = { 0 };
	double t1, t2;
	int rc = 0;

	ep.e.host = e->host;
	if (!n) {
		free(buf);
		return 0;	/* none: read already (a notice came late) */
	}
	if (parse(e, &ep, buf, n, vital_names, names)) {
		warnx_("the module's epoch %llu does not parse; not stored",
		       (unsigned long long)ep.seq);
		rc = -1;
	} else {
		ep.e.vitals = ep.v;
		ep.e.samples = ep.s;
		t1 = now_ms();
		/* stored first: a summary on screen is an epoch on disk */
		store(e, &ep);
		t2 = now_ms();
		epoch_summary(&ep, out);
		vsay("epoch %llu: %u samples read in %.1f ms, stored in %.1f ms",
		     (unsigned long long)ep.seq, ep.e.nsamples, t1 - t0, t2 - t1);
	}
	epoch_free(&ep, vital_names, names);
	free(buf);
	return rc ? rc : 1;
}
