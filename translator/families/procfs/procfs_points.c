// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * procfs("PATH").read and .write, as SystemTap has them: files under
 * /proc/systemtap/MODULE/ (PATH may hold directories; "command" when
 * no PATH is given), read and written through the script's $value.
 *
 *   procfs[("PATH")][.umask(N)].read[.maxsize(N)]
 *   procfs[("PATH")][.umask(N)].write
 *
 * A file has at most one read probe (what a reader gets is one value)
 * and any number of write probes (each sees what was written).  Its
 * mode: 0400 for a read probe, 0200 for a write probe, or with .umask(N)
 * 0444 & ~N and 0222 & ~N; a file with both ORs the two.
 *
 * $value is a string.  In a write probe it is what the writer wrote
 * (one write() of at most MAXSTRINGLEN - 1 bytes: a longer one is taken
 * in chunks), read-only.  In a read probe it is what the reader will
 * get: written with '=' or '.=' only, up to maxsize - 1 bytes (default
 * STP_PROCFS_BUFSIZE, which is MAXSTRINGLEN); past that, the text is cut
 * and the handler fails, naming the .maxsize() that would hold it.  Each
 * use of $value becomes a call of an embedded-C function (as a DWARF
 * target variable does) reading or filling the buffer the runtime hands
 * the hit in CONTEXT->entry (runtime/procfs.h).
 */
#include "../../elab/elab.h"
#include "procfs_family.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

static int is(const struct probe_comp *c, const char *name)
{
	return c->name && !strcmp(c->name, name);
}

static int fail(const struct loc *l, const char *msg)
{
	sem_error(l, "%s", msg);
	return 0;
}

/* "a/b/c": no leading or trailing '/', no empty, "." or ".." part. */
static int path_ok(const struct node *arg)
{
	const char *p = arg->str;

	if (!*p)
		return fail(&arg->loc, "a procfs file name cannot be empty");
	if (*p == '/')
		return fail(&arg->loc, ar_printf("procfs file '%s' cannot start with '/': it is "
						 "under /proc/systemtap/MODULE/", p));
	if (p[strlen(p) - 1] == '/')
		return fail(&arg->loc, ar_printf("procfs file '%s' cannot end with '/'", p));
	for (const char *s = p; *s; ) {
		size_t n = strcspn(s, "/");

		if (!n)
			return fail(&arg->loc, ar_printf("procfs file '%s' has an empty "
							 "directory name", p));
		if ((n == 1 && s[0] == '.') || (n == 2 && s[0] == '.' && s[1] == '.'))
			return fail(&arg->loc, ar_printf("procfs file '%s' cannot hold '.' or "
							 "'..'", p));
		s += n + (s[n] == '/');
	}
	return 1;
}

/* A number argument at least lo, at most hi; a umask is in octal. */
static int num(const struct probe_comp *c, int64_t lo, int64_t hi, int64_t *v)
{
	int octal = is(c, "umask");

	if (!c->arg || c->arg->kind != N_NUM)
		return fail(&c->loc, ar_printf("'%s' takes a number, as in %s(%s)", c->name,
					       c->name, octal ? "022" : "4096"));
	*v = c->arg->num;
	if (*v >= lo && *v <= hi)
		return 1;
	if (octal)
		return fail(&c->arg->loc, ar_printf("'%s(%s%llo)' is out of range: 0 to 0777",
						    c->name, *v < 0 ? "-0" : "0",
						    (unsigned long long)(*v < 0 ? -*v : *v)));
	return fail(&c->arg->loc, ar_printf("'%s(%lld)' is out of range: %lld to %lld", c->name,
					    (long long)*v, (long long)lo, (long long)hi));
}

/* .maxsize(N) and nothing else after .read or .write (comp k on), for
 * t; -1 when a glob's .write meets .maxsize (no such point). */
static int tail(struct probe_point *pp, int k, int glob, struct derived_probe *t)
{
	struct probe_comp *c = pp->comps;

	if (k < pp->ncomps && is(&c[k], "maxsize")) {
		if (t->procfs.write && glob)
			return -1;
		if (t->procfs.write)
			return fail(&c[k].loc, "'.maxsize' sizes what a read probe gives: a "
				    "write probe takes MAXSTRINGLEN - 1 bytes at a time");
		if (!num(&c[k], 1, 1 << 30, &t->procfs.maxsize))
			return 0;
		k++;
	}
	if (k < pp->ncomps)
		return fail(&c[k].loc, ar_printf("'.%s' does not belong in a procfs probe point "
						 "(procfs(\"PATH\").umask(N).read.maxsize(N), "
						 "or .write)", c[k].name ? c[k].name : "{...}"));
	return 1;
}

/* The components after procfs[("PATH")], from k: a template like t
 * into out for .read and .write, or the one of them comp k names. */
static int suffixes(struct probe_point *pp, int k, struct derived_probe *t, struct vec *out)
{
	static const char *const kinds[] = { "read", "write" };
	struct probe_comp *c = pp->comps;
	int before = out->len;

	if (k < pp->ncomps && is(&c[k], "umask")) {
		if (!num(&c[k], 0, 0777, &t->procfs.umask))
			return 0;
		k++;
	}
	for (int i = 0; k < pp->ncomps && c[k].name && i < 2; i++) {
		struct derived_probe *d;
		int r;

		if (fnmatch(c[k].name, kinds[i], 0))
			continue;
		if (c[k].arg)
			return fail(&c[k].arg->loc, ar_printf("'%s' takes no argument", c[k].name));
		d = ar_alloc(sizeof(*d));
		*d = *t;
		d->procfs.write = i;
		d->pp = pp_clone(pp, NULL);
		d->pp->comps[k].name = kinds[i];
		r = tail(pp, k + 1, strcmp(c[k].name, kinds[i]), d);
		if (!r)
			return 0;
		if (r > 0)
			vec_push(out, d);
	}
	if (out->len > before)
		return 1;
	return fail(k < pp->ncomps ? &c[k].loc : &pp->loc,
		    "a procfs probe point ends in .read or .write, as in procfs(\"status\").read");
}

/* Another probe's file clashing with t's: a second read probe, or a
 * file where the other has a directory. */
static int clash(struct elab *e, const struct derived_probe *t, const struct loc *at)
{
	size_t n = strlen(t->procfs.path);

	for (int i = 0; i < e->probes.len; i++) {
		const struct derived_probe *d = e->probes.v[i];
		size_t m;

		if (d->family != PF_PROCFS)
			continue;
		m = strlen(d->procfs.path);
		if (!strcmp(d->procfs.path, t->procfs.path) && !d->procfs.write && !t->procfs.write) {
			sem_error(at, "procfs file '%s' has a read probe already: one read "
				  "probe gives what a reader gets", t->procfs.path);
			diag_note(&d->loc, "the other read probe is here");
			return 0;
		}
		if ((m < n && t->procfs.path[m] == '/' && !strncmp(d->procfs.path, t->procfs.path, m)) ||
		    (n < m && d->procfs.path[n] == '/' && !strncmp(d->procfs.path, t->procfs.path, n))) {
			sem_error(at, "procfs file '%s' cannot be both a file and a directory "
				  "('%s')", m < n ? d->procfs.path : t->procfs.path,
				  m < n ? t->procfs.path : d->procfs.path);
			diag_note(&d->loc, "the other probe is here");
			return 0;
		}
	}
	return 1;
}

int procfs_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	struct probe_comp *c = pp->comps;
	struct derived_probe *t;

	if (!is(&c[0], "procfs"))
		return -1;
	t = ar_alloc(sizeof(*t));
	t->pp = pp;
	t->family = PF_PROCFS;
	t->loc = pp->loc;
	t->procfs.path = "command";
	t->procfs.umask = -1;
	if (c[0].arg) {
		if (c[0].arg->kind != N_STR)
			return fail(&c[0].arg->loc, "procfs takes a file name, as in "
				    "procfs(\"status\")");
		if (!path_ok(c[0].arg))
			return 0;
		t->procfs.path = c[0].arg->str;
	}
	if (!suffixes(pp, 1, t, out))
		return 0;
	for (int i = 0; i < out->len; i++)
		if (!clash(e, out->v[i], &pp->loc))
			return 0;
	return 1;
}

/* ---- $value ---- */

/* An embedded-C function of n for $value: body, return type, and a
 * string parameter "value" when it takes one. */
static struct node *value_function(const struct node *n, const char *what, enum type ret,
				   int takes_value, const char *body)
{
	static int counter;
	struct node *fd = genfn_new(&n->loc, ar_printf("__procfs_%s_%d", what, counter++), ret,
				    body);

	if (takes_value)
		genfn_param(fd, "value", T_STRING);
	return fd;
}

/* What is wrong with n as $value, or NULL. */
static const char *misuse(const struct derived_probe *d, const struct node *n)
{
	if (strcmp(n->name, "$value"))
		return ar_printf("procfs probes have one target variable, '$value'; not '%s'",
				 n->name);
	if (n->pretty)
		return "'$value' is a string already: it has no '$value$' form";
	if (n->addr)
		return "'$value' is a string in the module, with no address to take";
	if (n->comps.len)
		return "'$value' is a string: it has no members or elements";
	(void)d;
	return NULL;
}

int procfs_defined(struct elab *e, struct derived_probe *d, const struct node *n)
{
	(void)e;
	return !misuse(d, n);
}

int procfs_target(struct elab *e, struct derived_probe *d, struct node *n, int write,
		  int quiet)
{
	const char *why = misuse(d, n);

	(void)e;
	if (!why && write)
		why = d->procfs.write ? "'$value' is read-only in a procfs write probe: it is what "
					"was written" :
			"'$value' of a procfs read probe is written with '=' or '.=' only";
	if (!why && !d->procfs.write)
		why = "'$value' cannot be read in a procfs read probe: it is what the reader "
		      "will get (set it with '=' or '.=')";
	if (why) {
		if (!quiet)
			sem_error(&n->loc, "%s", why);
		return 0;
	}
	n->ref = value_function(n, "get", T_STRING, 0,
				" /* pure */\n\tstp_str_assign(STAP_RETVALUE, "
				"((struct stp_procfs_data *)CONTEXT->entry)->buf);\n");
	return 1;
}

int procfs_assign(struct elab *e, struct derived_probe *d, struct node *a)
{
	struct node *n = a->lhs;
	const char *why = misuse(d, n);
	int append = a->op == OP_CAT_ASSIGN;

	(void)e;
	if (!why && d->procfs.write)
		why = "'$value' is read-only in a procfs write probe: it is what was written";
	if (!why && a->op != OP_ASSIGN && !append)
		why = "'$value' of a procfs read probe is written with '=' or '.=' only";
	if (why) {
		sem_error(&n->loc, "%s", why);
		return 0;
	}
	n->ref = value_function(n, append ? "append" : "set", T_STRING, 1, ar_printf(
		"\n\tlong need = stp_procfs_put(CONTEXT->entry, STAP_ARG_value, %d);\n\n"
		"\tif (need)\n\t\tSTAP_ERROR(\"procfs buffer size exceeded, consider "
		".maxsize(%%ld)\", need);\n"
		"\tSTAP_RETURN(STAP_ARG_value);\n", append));
	return 1;
}

const char *procfs_list_vars(struct elab *e, const struct derived_probe *d)
{
	(void)e;
	(void)d;
	return " $value:string";
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = { "procfs.read", "procfs.write", NULL };
static const char *const types[] = {
	"procfs[(string)][.umask(number)].read[.maxsize(number)]",
	"procfs[(string)][.umask(number)].write", NULL,
};

const struct family_ops procfs_family = {
	.name = "procfs", .match = procfs_match, .shapes = shapes, .types = types,
	.target = procfs_target, .defined = procfs_defined, .list_vars = procfs_list_vars,
	.assign = procfs_assign,
	.kmod_entry = em_procfs_entry, .kmod_tables = em_procfs_tables,
	.bpf_why = "a BPF program cannot serve a file in /proc (use the kmod runtime)",
};
