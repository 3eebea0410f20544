// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An epoch as the rules see it: its vital signs' totals and, from its
 * samples, each process's samples and weights by vital sign, its last
 * signals and calls (rule 10), its short I/O (rule 3), and the sites
 * that the evidence names.  Tables are hashes that keep their memory
 * from one epoch to the next and clear only the slots used.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "rules_int.h"

/* ORDER: enum rvid */
static const char *const names[RV_N] = {
	"cpuu", "l2mi", "sched", "blck", "blio", "kmem", "umem", "syscall",
	"sig", "sock", "lock",
};

/* x86_64's exit and exit_group: the calls that end a process (vitals.stp
 * records them as sched_process_exit sees them: they never return).
 * Signal numbers are x86_64's too, which <signal.h> gives here. */
#define NR_EXIT 60
#define NR_EXIT_GROUP 231

const char *rscan_name(int vid)
{
	return names[vid];
}

int rscan_vid(const char *name)
{
	int first, last;

	if (!name)
		return -1;
	/* names[] share first letters in runs: c l s b b k u s s s l */
	switch (name[0]) {
	case 'c': first = RV_CPUU, last = RV_CPUU; break;
	case 'l': first = RV_L2MI, last = RV_LOCK; break;
	case 's': first = RV_SCHED, last = RV_SOCK; break;
	case 'b': first = RV_BLCK, last = RV_BLIO; break;
	case 'k': first = RV_KMEM, last = RV_KMEM; break;
	case 'u': first = RV_UMEM, last = RV_UMEM; break;
	default: return -1;
	}
	for (int i = first; i <= last; i++)
		if (names[i][0] == name[0] && !strcmp(names[i], name))
			return i;
	return -1;
}

/* The number named key in a sample's "name=value ..." data; 0 if none. */
static int data_num(const char *data, const char *key, long long *v)
{
	size_t n = strlen(key);

	for (const char *p = data; p && *p; p = strchr(p, ' ')) {
		while (*p == ' ')
			p++;
		if (!strncmp(p, key, n) && p[n] == '=') {
			/* unsigned: a kernel address in hex comes back as the
			 * negative number it is as a long */
			*v = (long long)strtoull(p + n + 1, NULL, 0);
			return 1;
		}
	}
	return 0;
}

/*
 * Processes and sites are dense arrays (loops go over what is there),
 * found through open-addressing indexes of slot numbers plus one (0:
 * empty), which are all that an epoch's clearing has to wipe.
 */
static void clear(struct repoch *ep)
{
	if (ep->proc_idx)
		memset(ep->proc_idx, 0, ep->proc_cap * sizeof(*ep->proc_idx));
	if (ep->site_idx)
		memset(ep->site_idx, 0, ep->site_cap * sizeof(*ep->site_idx));
	if (ep->label_idx)
		memset(ep->label_idx, 0, ep->label_cap * sizeof(*ep->label_idx));
	ep->nproc = ep->nsite = ep->nlabel = 0;
	memset(ep->v, 0, sizeof(ep->v));
	ep->user_cpuu = ep->blio_done = 0;
}

void rscan_free(struct repoch *ep)
{
	free(ep->proc);
	free(ep->proc_idx);
	free(ep->site);
	free(ep->site_idx);
	free(ep->label);
	free(ep->label_idx);
	memset(ep, 0, sizeof(*ep));
}

/* A pid of 0 (the idle task) is kept as -2, apart from "no pid". */
static int32_t key_pid(uint32_t pid)
{
	return pid ? (int32_t)pid : -2;
}

static uint32_t *proc_slot(const struct repoch *ep, const uint32_t *idx,
			   uint32_t cap, int32_t pid)
{
	uint32_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (idx[i] && ep->proc[idx[i] - 1].pid != pid)
		i = (i + 1) & (cap - 1);
	return (uint32_t *)&idx[i];
}

/* Room for one more process, in the array and the index. */
static void proc_room(struct repoch *ep)
{
	uint32_t cap = ep->proc_cap ? ep->proc_cap * 2 : 256;
	uint32_t *idx;

	if ((ep->nproc + 1) * 2 <= ep->proc_cap)
		return;
	ep->proc = vmust(realloc(ep->proc, cap / 2 * sizeof(*ep->proc)));
	idx = vmust(calloc(cap, sizeof(*idx)));
	for (uint32_t i = 0; i < ep->nproc; i++)
		*proc_slot(ep, idx, cap, ep->proc[i].pid) = i + 1;
	free(ep->proc_idx);
	ep->proc_idx = idx;
	ep->proc_cap = cap;
}

static struct rproc *proc_get(struct repoch *ep, int32_t pid)
{
	uint32_t *at;

	proc_room(ep);
	at = proc_slot(ep, ep->proc_idx, ep->proc_cap, pid);
	if (!*at) {
		ep->proc[ep->nproc] = (struct rproc){ .pid = pid };
		*at = ++ep->nproc;
	}
	return &ep->proc[*at - 1];
}

static uint32_t *label_slot(const struct repoch *ep, const uint32_t *idx, uint32_t cap,
			    int32_t pid, int vid, uint64_t label)
{
	uint32_t i = (uint32_t)((label ^ label >> 32) * 2654435761u + (uint32_t)pid * 31 +
				(uint32_t)vid) & (cap - 1);
	const struct rlabel *l;

	for (; idx[i]; i = (i + 1) & (cap - 1)) {
		l = &ep->label[idx[i] - 1];
		if (l->pid == pid && l->vid == vid && l->label == label)
			break;
	}
	return (uint32_t *)&idx[i];
}

static void label_room(struct repoch *ep)
{
	uint32_t cap = ep->label_cap ? ep->label_cap * 2 : 1024;
	const struct rlabel *l;
	uint32_t *idx;

	if ((ep->nlabel + 1) * 2 <= ep->label_cap)
		return;
	ep->label = vmust(realloc(ep->label, cap / 2 * sizeof(*ep->label)));
	idx = vmust(calloc(cap, sizeof(*idx)));
	for (uint32_t i = 0; i < ep->nlabel; i++) {
		l = &ep->label[i];
		*label_slot(ep, idx, cap, l->pid, l->vid, l->label) = i + 1;
	}
	free(ep->label_idx);
	ep->label_idx = idx;
	ep->label_cap = cap;
}

/*
 * A label's weight so far is its largest count among its samples: the
 * sampler keeps a busy label's latest count on its last sample even when
 * the list is full (cx_raise), so a process's figure is the sum over its
 * labels of that, whatever share of the samples it kept.
 */
static void label_count(struct repoch *ep, struct rproc *p, int vid, uint64_t label,
			uint32_t count)
{
	uint32_t *at;
	struct rlabel *l;

	label_room(ep);
	at = label_slot(ep, ep->label_idx, ep->label_cap, p->pid, vid, label);
	if (!*at) {
		ep->label[ep->nlabel] = (struct rlabel){ .pid = p->pid, .vid = vid, .label = label };
		*at = ++ep->nlabel;
	}
	l = &ep->label[*at - 1];
	if (count > l->most) {
		p->c[vid] += count - l->most;
		l->most = count;
	}
}

static uint32_t *site_slot(const struct repoch *ep, const uint32_t *idx,
			   uint32_t cap, int32_t pid, int vid, const char *site)
{
	uint32_t i = (uint32_t)(((uintptr_t)site >> 4) * 31 + (uint32_t)pid *
				2654435761u + (uint32_t)vid) & (cap - 1);
	const struct rsite *s;

	for (; idx[i]; i = (i + 1) & (cap - 1)) {
		s = &ep->site[idx[i] - 1];
		if (s->pid == pid && s->vid == vid && s->site == site)
			break;
	}
	return (uint32_t *)&idx[i];
}

static void site_room(struct repoch *ep)
{
	uint32_t cap = ep->site_cap ? ep->site_cap * 2 : 1024;
	const struct rsite *s;
	uint32_t *idx;

	if ((ep->nsite + 1) * 2 <= ep->site_cap)
		return;
	ep->site = vmust(realloc(ep->site, cap / 2 * sizeof(*ep->site)));
	idx = vmust(calloc(cap, sizeof(*idx)));
	for (uint32_t i = 0; i < ep->nsite; i++) {
		s = &ep->site[i];
		*site_slot(ep, idx, cap, s->pid, s->vid, s->site) = i + 1;
	}
	free(ep->site_idx);
	ep->site_idx = idx;
	ep->site_cap = cap;
}

static void site_add(struct repoch *ep, int32_t pid, int vid, const char *site)
{
	uint32_t *at;

	site_room(ep);
	at = site_slot(ep, ep->site_idx, ep->site_cap, pid, vid, site);
	if (!*at) {
		ep->site[ep->nsite] = (struct rsite){ .pid = pid, .vid = vid,
						      .site = site };
		*at = ++ep->nsite;
	}
	ep->site[*at - 1].n++;
}

struct scan {
	struct repoch *ep;
	struct vpool *pool;
	const struct vfilter *filter;
};

static int on_vital(void *arg, const struct vr_epoch *e,
		    const struct vr_vital *rv)
{
	struct scan *sc = arg;
	int vid = rscan_vid(rv->v.vital);
	struct rvital *v;

	(void)e;
	if (vid < 0)
		return 0;
	v = &sc->ep->v[vid];
	v->present = 1;
	v->available = rv->v.available;
	v->why = vpool_get(sc->pool, rv->v.why);
	v->weight = rv->v.weight;
	v->events = rv->v.count;
	v->t = rv->v.t;
	return 0;
}

/*
 * A signal delivered to its default action (handler 0): what that does
 * to the process, as Linux has it.  The stop signals stop it and the
 * ones whose default is to ignore them (delivered when they came while
 * blocked) do nothing: neither is a death.
 */
static void note_signal(struct rproc *p, int sig)
{
	switch (sig) {
	case SIGSTOP: case SIGTSTP: case SIGTTIN: case SIGTTOU:
		p->stop_sig = sig;
		break;
	case SIGCHLD: case SIGCONT: case SIGURG: case SIGWINCH:
		break;
	default:
		p->fatal_sig = sig;
	}
}

/* What a blio sample says of what its requests got: rule 3. */
static void note_io(struct repoch *ep, struct rproc *p, const char *data)
{
	long long asked, got, ns;

	if (!data_num(data, "done", &got) || !data_num(data, "bytes", &asked))
		return;
	ep->blio_done++;
	p->io_asked += asked;
	p->io_got += got;
	if (got >= asked)
		return;
	p->io_short++;
	if (data_num(data, "service_ns", &ns) && ns > p->io_short_ns)
		p->io_short_ns = ns;
}

/* What a sample says about its process beyond its vital: rules 3, 10. */
static void note_sample(struct repoch *ep, struct rproc *p, int vid,
			const struct vx_sample *s)
{
	long long a, b;

	if (vid == RV_CPUU && data_num(s->data, "pc", &a) && a >= 0)
		ep->user_cpuu++;
	if (vid == RV_SIG && data_num(s->data, "sig", &a) &&
	    (!data_num(s->data, "handler", &b) || b == 0))
		note_signal(p, (int)a);
	if (vid == RV_SYSCALL && data_num(s->data, "nr", &a) &&
	    (a == NR_EXIT || a == NR_EXIT_GROUP))
		p->exited = (int)a;
	if (vid == RV_BLIO)
		note_io(ep, p, s->data);
}

/*
 * A process's program: its latest sample's (after an exec, the new one),
 * but a path is not replaced by a "[comm]" (a process on its way out has
 * no path left).  Looked up only when the reader hands another text.
 */
static void name_program(struct scan *sc, struct rproc *p, const char *exec)
{
	p->exec_raw = exec;
	if (!exec)
		exec = "?";
	if (p->exec && p->exec[0] != '[' && exec[0] == '[')
		return;
	p->exec = vpool_get(sc->pool, exec);
}

static int on_sample(void *arg, const struct vr_epoch *e,
		     const struct vx_sample *s)
{
	struct scan *sc = arg;
	int vid = rscan_vid(s->vital);
	struct rproc *p;
	const char *site;

	(void)e;
	if (vid < 0 || (sc->filter && !vfilter_sample(sc->filter, s)))
		return 0;
	p = proc_get(sc->ep, key_pid(s->pid));
	/* the latest sample names the program; an earlier one's path still
	 * beats a "[comm]" (samples taken while the process exits have none) */
	if ((s->time_ns >= p->last_ns && (!p->exec || s->exec != p->exec_raw)) ||
	    (p->exec && p->exec[0] == '[' && s->exec && s->exec[0] != '['))
		name_program(sc, p, s->exec);
	p->n[vid]++;
	p->w[vid] += s->weight;
	label_count(sc->ep, p, vid, s->label, s->count);
	sc->ep->v[vid].nsamples++;
	sc->ep->v[vid].counted += s->count != 0;
	site = vpool_get(sc->pool, s->site ? s->site : "?");
	if (s->time_ns >= p->last_ns) {
		p->last_ns = s->time_ns;
		p->last_site = site;
	}
	site_add(sc->ep, p->pid, vid, site);
	note_sample(sc->ep, p, vid, s);
	return 0;
}

int rscan_epoch(struct vread *r, struct vpool *pool,
		const struct vfilter *filter, const struct vr_epoch *e,
		struct repoch *ep)
{
	struct scan sc = { ep, pool, filter };

	clear(ep);
	ep->start_ns = e->start_ns;
	ep->end_ns = e->end_ns;
	ep->secs = (double)(e->end_ns - e->start_ns) / 1e9;
	if (ep->secs <= 0)
		ep->secs = 1;
	if (vread_vitals(r, e, on_vital, &sc))
		return -1;
	return vread_samples(r, e, on_sample, &sc) ? -1 : 0;
}

/*
 * A process's figure for a vital sign, from the store's samples: the
 * sum over its labels of each one's largest count (label_count), a
 * floor of its weight (a counter shared with a busier label counts that
 * one's too: at most the vital's sum).  Where the samples carry no
 * counts (older stores), or for kmem, whose frees subtract from its sum,
 * its share of the vital's samples times the vital's sum; the sampler
 * takes every label's first events first, so shares favour rare
 * processes.
 */
double rscan_est(const struct repoch *ep, const struct rproc *p, int vid)
{
	const struct rvital *v = &ep->v[vid];
	double total = vid == RV_KMEM ? (double)v->events : (double)v->weight;

	if (!v->nsamples)
		return 0;
	if (vid == RV_KMEM || v->counted < v->nsamples)
		return total * p->n[vid] / v->nsamples;
	return p->c[vid] < total || total <= 0 ? p->c[vid] : total;
}

/* Is x before y in a top list: more samples, then by name? */
static int before(const struct rsite *x, const struct rsite *y)
{
	return !y || x->n > y->n || (x->n == y->n && strcmp(x->site, y->site) < 0);
}

/* s into top[3] if it ranks there. */
static void rank(const struct rsite *top[3], const struct rsite *s)
{
	const struct rsite *t;

	if (!before(s, top[2]))
		return;
	top[2] = s;
	for (int k = 2; k > 0 && before(top[k], top[k - 1]); k--) {
		t = top[k];
		top[k] = top[k - 1];
		top[k - 1] = t;
	}
}

static int by_site(const void *a, const void *b)
{
	const struct rsite *x = a, *y = b;

	return x->site < y->site ? -1 : x->site > y->site;
}

/*
 * The sites of vid over all processes, one entry each (sum[], sorted by
 * the pooled pointer and merged): only for a flag about the system.
 */
static size_t all_pids(const struct repoch *ep, int vid, struct rsite *sum)
{
	size_t n = 0, k = 0;

	for (uint32_t i = 0; i < ep->nsite; i++)
		if (ep->site[i].vid == vid)
			sum[n++] = ep->site[i];
	qsort(sum, n, sizeof(*sum), by_site);
	for (size_t i = 0; i < n; i++) {
		if (k && sum[k - 1].site == sum[i].site)
			sum[k - 1].n += sum[i].n;
		else
			sum[k++] = sum[i];
	}
	return k;
}

void rscan_top_sites(const struct repoch *ep, int32_t pid, int vid,
		     char *buf, size_t len)
{
	const struct rsite *top[3] = { 0 };
	struct rsite *sum = NULL;
	const uint32_t *slot;
	uint32_t all;
	size_t at = 0, n;

	if (pid) {
		slot = proc_slot(ep, ep->proc_idx, ep->proc_cap, pid);
		all = *slot ? ep->proc[*slot - 1].n[vid] : 0;
		for (uint32_t i = 0; i < ep->nsite; i++)
			if (ep->site[i].pid == pid && ep->site[i].vid == vid)
				rank(top, &ep->site[i]);
	} else {
		all = ep->v[vid].nsamples;
		sum = vmust(malloc((ep->nsite + 1) * sizeof(*sum)));
		n = all_pids(ep, vid, sum);
		for (size_t i = 0; i < n; i++)
			rank(top, &sum[i]);
	}
	buf[0] = 0;
	for (int k = 0; k < 3 && top[k] && at < len; k++)
		at += (size_t)snprintf(buf + at, len - at, "%s%s (%u%%)",
				       k ? ", " : "", top[k]->site,
				       all ? top[k]->n * 100 / all : 0);
	if (!buf[0])
		snprintf(buf, len, "none sampled");
	free(sum);
}
