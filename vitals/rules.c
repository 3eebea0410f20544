// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The paper's diagnosis rules over each epoch (doc/vitals.md, "Diagnosis
 * rules", gives each with its thresholds).  Rules 1 to 9 but 2 look at
 * one epoch; 2 and 10 follow processes across epochs (rules_hist.c).  A
 * rule needing a vital sign an epoch does not measure is skipped there
 * and reported once as not evaluated, with the store's reason.
 */
#include <stdio.h>

#include "rules_int.h"

#define EVIDENCE_LEN 1024
#define SITES_LEN 512

int32_t rwalk_pid(const struct rproc *p)
{
	return p->pid < 0 ? 0 : p->pid;
}

/*
 * A vital sign missing from one epoch had no events there (the collector
 * puts a vital once it has had one): zero, and measured.  Missing from
 * every epoch of the range, it is not collected at all: see unmeasured().
 */
int rwalk_needs(struct rwalk *w, int rule, int vid)
{
	const struct rvital *v = &w->ep.v[vid];
	char why[512];

	w->needs[rule] |= 1u << vid;
	if (!v->present || v->available)
		return 1;
	snprintf(why, sizeof(why), "%s is unavailable: %s", rscan_name(vid),
		 v->why ? v->why : "no reason given");
	rflags_not_evaluated(w->fs, rule, why);
	return 0;
}

/* The rules that need a vital sign no epoch of the range has: their
 * flags (raised on zeros) go, and they are not evaluated. */
static void unmeasured(struct rwalk *w)
{
	char why[512];
	unsigned lack;
	int vid;

	for (int rule = 1; rule <= VRULES_N; rule++) {
		lack = w->needs[rule] & ~w->seen;
		if (!lack)
			continue;
		for (vid = 0; !(lack & 1u << vid); vid++)
			;
		snprintf(why, sizeof(why), "the store has no %s in the range",
			 rscan_name(vid));
		rflags_drop(w->fs, rule);
		rflags_not_evaluated(w->fs, rule, why);
	}
}

static double rate(const struct rwalk *w, int vid)
{
	return (double)w->ep.v[vid].weight / w->ep.secs;
}

/* The process's figure for vid, per second. */
static double prate(const struct rwalk *w, const struct rproc *p, int vid)
{
	return rscan_est(&w->ep, p, vid) / w->ep.secs;
}

static void flag(struct rwalk *w, int rule, const struct rproc *p,
		  const char *variant, const char *evidence)
{
	rflags_raise(w->fs, rule, w->idx, w->ep.start_ns, w->ep.end_ns,
		     p ? rwalk_pid(p) : -1, p ? p->exec : NULL, variant,
		     evidence);
}

/* The process with the most samples of vid, or NULL. */
static const struct rproc *top_proc(const struct repoch *ep, int vid)
{
	const struct rproc *best = NULL, *p;

	for (uint32_t i = 0; i < ep->nproc; i++) {
		p = &ep->proc[i];
		if (p->n[vid] && (!best || p->n[vid] > best->n[vid] ||
					    (p->n[vid] == best->n[vid] &&
					     p->pid < best->pid)))
			best = p;
	}
	return best;
}

/* 1: high cpuu with a near-zero l2mi rate, a busy loop. */
static void busy_loop(struct rwalk *w)
{
	const struct vrules_cfg *c = w->c;
	const struct rproc *p;
	double cpuu = rate(w, RV_CPUU), per;
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (!rwalk_needs(w, 1, RV_CPUU) || !rwalk_needs(w, 1, RV_L2MI) ||
	    cpuu < c->cpuu_high)
		return;
	per = rate(w, RV_L2MI) / cpuu;
	if (per > c->l2mi_low)
		return;
	p = top_proc(&w->ep, RV_CPUU);
	if (p && p->n[RV_CPUU] < c->proc_share * w->ep.v[RV_CPUU].nsamples)
		p = NULL;
	rscan_top_sites(&w->ep, p ? p->pid : 0, RV_CPUU, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "cpuu %.0f/s >= %g/s; l2mi %.4g per cpuu"
		 " event <= %g; top cpuu sites: %s", cpuu, c->cpuu_high, per,
		 c->l2mi_low, sites);
	flag(w, 1, p, NULL, ev);
}

/* 3: I/O requests that got less data than they asked for. */
static void bad_blocks(struct rwalk *w)
{
	const struct rproc *p;
	char sites[SITES_LEN], ev[EVIDENCE_LEN], slow[64];

	w->blio_samples += w->ep.v[RV_BLIO].nsamples;
	w->blio_done += w->ep.blio_done;
	if (!rwalk_needs(w, 3, RV_BLIO) || !w->ep.blio_done)
		return;
	for (uint32_t i = 0; i < w->ep.nproc; i++) {
		p = &w->ep.proc[i];
		if (!p->io_short)
			continue;
		rscan_top_sites(&w->ep, p->pid, RV_BLIO, sites, sizeof(sites));
		slow[0] = 0;
		if (p->io_short_ns)
			snprintf(slow, sizeof(slow), ", the slowest of them in"
				 " %.1f ms", (double)p->io_short_ns / 1e6);
		snprintf(ev, sizeof(ev), "%u sampled blio requests got less"
			 " than they asked: %lld of %lld bytes%s; top blio"
			 " sites: %s", p->io_short, (long long)p->io_got,
			 (long long)p->io_asked, slow, sites);
		flag(w, 3, p, NULL, ev);
	}
}

/* 4: processes' cpuu low, sched high, total cpuu high. */
static void kernel_bottleneck(struct rwalk *w)
{
	const struct vrules_cfg *c = w->c;
	double cpuu = rate(w, RV_CPUU), sched, user;
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (!rwalk_needs(w, 4, RV_CPUU) || !rwalk_needs(w, 4, RV_SCHED) ||
	    cpuu < c->cpuu_high || !w->ep.v[RV_CPUU].nsamples)
		return;
	user = (double)w->ep.user_cpuu / w->ep.v[RV_CPUU].nsamples;
	sched = rate(w, RV_SCHED);
	if (user > c->user_cpuu_low || sched < c->sched_high)
		return;
	rscan_top_sites(&w->ep, 0, RV_CPUU, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "cpuu %.0f/s >= %g/s with %.0f%% of its"
		 " samples in user code <= %.0f%%; sched %.0f us/s >= %g us/s;"
		 " top cpuu sites: %s", cpuu, c->cpuu_high, user * 100,
		 c->user_cpuu_low * 100, sched, c->sched_high, sites);
	flag(w, 4, NULL, NULL, ev);
}

/* 5: a process's high blck mirrored by blio, lock or sock. */
static void blocking_source(struct rwalk *w, const struct rproc *p)
{
	static const int mirrors[] = { RV_BLIO, RV_LOCK, RV_SOCK };
	double blck = prate(w, p, RV_BLCK);
	char sites[SITES_LEN], ev[EVIDENCE_LEN], by[256] = "";
	size_t at = 0;

	if (p->n[RV_BLCK] < w->c->min_samples || blck < w->c->blck_high)
		return;
	for (int i = 0; i < 3; i++)
		if (p->n[mirrors[i]] && at < sizeof(by))
			at += (size_t)snprintf(by + at, sizeof(by) - at,
					       "%s%s %.0f/s", at ? ", " : "",
					       rscan_name(mirrors[i]),
					       prate(w, p, mirrors[i]));
	if (!at)
		return;
	rscan_top_sites(&w->ep, p->pid, RV_BLCK, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "blck %.0f us/s >= %g us/s, mirrored by %s;"
		 " top blck sites: %s", blck, w->c->blck_high, by, sites);
	flag(w, 5, p, NULL, ev);
}

/* 6: a process's high umem with high blck and blio. */
static void low_memory(struct rwalk *w, const struct rproc *p)
{
	const struct vrules_cfg *c = w->c;
	double umem = prate(w, p, RV_UMEM), blck = prate(w, p, RV_BLCK);
	double blio = prate(w, p, RV_BLIO);
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (p->n[RV_UMEM] < c->min_samples || umem < c->umem_high ||
	    blck < c->blck_high || blio < c->blio_high)
		return;
	rscan_top_sites(&w->ep, p->pid, RV_UMEM, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "umem %.0f pages/s >= %g, blck %.0f us/s"
		 " >= %g, blio %.0f/s >= %g: low memory, swapping; top umem"
		 " sites: %s", umem, c->umem_high, blck, c->blck_high, blio,
		 c->blio_high, sites);
	flag(w, 6, p, NULL, ev);
}

/* 7: a process's low cpuu with high sched: held from running. */
static void held(struct rwalk *w, const struct rproc *p)
{
	const struct vrules_cfg *c = w->c;
	double cpuu = prate(w, p, RV_CPUU), sched = prate(w, p, RV_SCHED);
	double sys = rate(w, RV_CPUU);
	const char *how = sys >= c->cpuu_high ? "normally" : "abnormally";
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (p->n[RV_SCHED] < c->min_samples || cpuu > c->proc_cpuu_low ||
	    sched < c->proc_sched_high)
		return;
	rscan_top_sites(&w->ep, p->pid, RV_SCHED, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "held %s: sched %.0f us/s >= %g us/s, cpuu"
		 " %.0f/s <= %g/s, system cpuu %.0f/s %s %g/s; top sched"
		 " sites: %s", how, sched, c->proc_sched_high, cpuu,
		 c->proc_cpuu_low, sys, sys >= c->cpuu_high ? ">=" : "<",
		 c->cpuu_high, sites);
	flag(w, 7, p, how, ev);
}

/* 8: a process's low kmem against a high syscall rate. */
static void syscall_loop(struct rwalk *w, const struct rproc *p)
{
	const struct vrules_cfg *c = w->c;
	double calls = prate(w, p, RV_SYSCALL), kmem = prate(w, p, RV_KMEM);
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (p->n[RV_SYSCALL] < c->min_samples || calls < c->syscall_high ||
	    kmem > calls * c->kmem_per_syscall)
		return;
	rscan_top_sites(&w->ep, p->pid, RV_SYSCALL, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "syscall %.0f/s >= %g/s with kmem %.4g"
		 " events per call <= %g; top syscall sites: %s", calls,
		 c->syscall_high, kmem / calls, c->kmem_per_syscall, sites);
	flag(w, 8, p, NULL, ev);
}

/* 9: a process's high umem with low l2mi (initialization) or high. */
static void memory_init_or_load(struct rwalk *w, const struct rproc *p)
{
	const struct vrules_cfg *c = w->c;
	double umem = prate(w, p, RV_UMEM), per;
	const char *what;
	char sites[SITES_LEN], ev[EVIDENCE_LEN];

	if (p->n[RV_UMEM] < c->min_samples || umem < c->umem_high)
		return;
	per = prate(w, p, RV_L2MI) / umem;
	what = per < c->l2mi_per_umem ? "initialization" : "rising load";
	rscan_top_sites(&w->ep, p->pid, RV_UMEM, sites, sizeof(sites));
	snprintf(ev, sizeof(ev), "%s: umem %.0f pages/s >= %g with l2mi"
		 " %.4g per page %s %g; top umem sites: %s", what, umem,
		 c->umem_high, per, per < c->l2mi_per_umem ? "<" : ">=",
		 c->l2mi_per_umem, sites);
	flag(w, 9, p, what, ev);
}

/* Rules 5 to 9 for each process, where the vitals they need are kept. */
static void per_process(struct rwalk *w)
{
	int r5 = rwalk_needs(w, 5, RV_BLCK);
	int r6 = rwalk_needs(w, 6, RV_UMEM) && rwalk_needs(w, 6, RV_BLCK) &&
		 rwalk_needs(w, 6, RV_BLIO);
	int r7 = rwalk_needs(w, 7, RV_CPUU) && rwalk_needs(w, 7, RV_SCHED);
	int r8 = rwalk_needs(w, 8, RV_SYSCALL) && rwalk_needs(w, 8, RV_KMEM);
	int r9 = rwalk_needs(w, 9, RV_UMEM) && rwalk_needs(w, 9, RV_L2MI);
	const struct rproc *p;

	for (uint32_t i = 0; i < w->ep.nproc; i++) {
		p = &w->ep.proc[i];
		if (r5)
			blocking_source(w, p);
		if (r6)
			low_memory(w, p);
		if (r7)
			held(w, p);
		if (r8)
			syscall_loop(w, p);
		if (r9)
			memory_init_or_load(w, p);
	}
}

static int on_epoch(void *arg, const struct vr_epoch *e)
{
	struct rwalk *w = arg;

	if (rscan_epoch(w->r, w->pool, w->c->filter, e, &w->ep))
		return -1;
	for (int vid = 0; vid < RV_N; vid++)
		w->seen |= (unsigned)w->ep.v[vid].present << vid;
	busy_loop(w);
	bad_blocks(w);
	kernel_bottleneck(w);
	per_process(w);
	rhist_epoch(w);
	w->idx++;
	return 0;
}

int vrules_run(struct vread *r, const struct vrules_cfg *cfg, int64_t from,
	       int64_t to, int (*fn)(void *arg, const struct vflag *f),
	       void *arg)
{
	struct rwalk w = { .r = r, .c = cfg ? cfg : vrules_defaults() };
	/* one consistent view, unless the caller holds one already */
	int began = sqlite3_get_autocommit(vread_db(r)), rc;

	w.pool = vpool_new();
	w.fs = rflags_new();
	w.hist = rhist_new();
	rc = began ? vread_begin(r) : 0;
	if (!rc)
		rc = vread_epochs(r, from, to, on_epoch, &w);
	if (began && vread_end(r) && !rc)
		rc = -1;
	if (!rc) {
		unmeasured(&w);
		if (w.blio_samples && !w.blio_done)
			rflags_not_evaluated(w.fs, 3, "the blio samples say"
					     " what a request asked (bytes=), not"
					     " what it got (done=)");
		rc = rflags_emit(w.fs, fn, arg);
	}
	rhist_free(w.hist);
	rflags_free(w.fs);
	rscan_free(&w.ep);
	vpool_free(w.pool);
	return rc;
}
