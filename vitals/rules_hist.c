// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rules that follow a process across epochs.  Rule 2: its net
 * memory allocated (its share of umem, plus its kmem samples' pages,
 * allocations less frees) stays above zero epoch after epoch, a leak.
 * Rule 10: its vital signs stop.  How it died comes from its last
 * samples: a signal delivered to a default action that ends it
 * (SIGKILL: killed; SIGSEGV and the like: a fault), an exit or
 * exit_group call (it ended itself: exited), or nothing (it stopped, or
 * went quiet: stopped, with the stop signal when one was delivered).
 * The evidence starts with which.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rules_int.h"

/* One process across the walk. */
struct rpast {
	int32_t pid;		/* 0: an empty slot; rproc.pid's key */
	const char *exec, *last_site;
	long seen;		/* epochs it had samples in */
	long last;		/* the last of them (the walk's number) */
	int64_t last_start, last_end;
	int gone;		/* its death is flagged */
	int had_path;		/* a sample named its program by path */
	int stop_sig;		/* a stop signal in its last epoch seen */
	long leak_run;		/* epochs in a row with net allocation */
	int64_t leak_start;
	double leak_pages;
};

struct rhist {
	struct rpast *t;
	uint32_t n, cap;
};

struct rhist *rhist_new(void)
{
	return vmust(calloc(1, sizeof(struct rhist)));
}

void rhist_free(struct rhist *h)
{
	free(h->t);
	free(h);
}

static struct rpast *slot(struct rpast *t, uint32_t cap, int32_t pid)
{
	uint32_t i = ((uint32_t)pid * 2654435761u) & (cap - 1);

	while (t[i].pid && t[i].pid != pid)
		i = (i + 1) & (cap - 1);
	return &t[i];
}

static struct rpast *past(struct rhist *h, int32_t pid)
{
	struct rpast *p, *t;
	uint32_t cap;

	if ((h->n + 1) * 2 > h->cap) {
		cap = h->cap ? h->cap * 2 : 256;
		t = vmust(calloc(cap, sizeof(*t)));
		for (uint32_t i = 0; i < h->cap; i++)
			if (h->t[i].pid)
				*slot(t, cap, h->t[i].pid) = h->t[i];
		free(h->t);
		h->t = t;
		h->cap = cap;
	}
	p = slot(h->t, h->cap, pid);
	if (!p->pid) {
		*p = (struct rpast){ .pid = pid, .last = -1 };
		h->n++;
	}
	return p;
}

static int32_t shown_pid(int32_t key)
{
	return key < 0 ? 0 : key;
}

/* 2: this epoch's net allocation goes on a run, or ends it. */
static void leak(struct rwalk *w, struct rpast *h, const struct rproc *p)
{
	const struct vrules_cfg *c = w->c;
	double net = rscan_est(&w->ep, p, RV_UMEM) + (double)p->w[RV_KMEM];
	char ev[1024];
	struct vflag *f;

	/* an epoch with no memory sample of it says nothing either way: the
	 * sample lists may have filled before its events came */
	if (!p->n[RV_UMEM] && !p->n[RV_KMEM] && h->last == w->idx - 1)
		return;
	if (net <= 0 || h->last != w->idx - 1 || !h->leak_run) {
		h->leak_run = 0;
		h->leak_pages = 0;
		h->leak_start = w->ep.start_ns;
	}
	if (net <= 0)
		return;
	h->leak_run++;
	h->leak_pages += net;
	if (h->leak_run < c->leak_epochs || h->leak_pages < c->leak_pages)
		return;
	snprintf(ev, sizeof(ev), "net memory allocated in %ld epochs in a row"
		 " >= %g: %.0f pages >= %g; its last epoch's umem %.0f pages,"
		 " kmem samples %+lld pages", h->leak_run, c->leak_epochs,
		 h->leak_pages, c->leak_pages, rscan_est(&w->ep, p, RV_UMEM),
		 (long long)p->w[RV_KMEM]);
	f = rflags_raise(w->fs, 2, w->idx, h->leak_start, w->ep.end_ns,
			 shown_pid(p->pid), p->exec, NULL, ev);
	if (f->start_ns > h->leak_start)
		f->start_ns = h->leak_start;
	rflags_restate(f, ev);
}

static const char *signame(int sig, char buf[16])
{
	const char *s = sig > 0 && sig < NSIG ? sigabbrev_np(sig) : NULL;

	if (!s)
		snprintf(buf, 16, "signal %d", sig);
	else
		snprintf(buf, 16, "SIG%s", s);
	return buf;
}

/* 10, from the epoch's own samples: a fatal signal, or an exit. */
static void died(struct rwalk *w, struct rpast *h, const struct rproc *p)
{
	const char *how;
	char ev[1024], sig[16];

	if (p->fatal_sig == SIGKILL)
		how = "killed";
	else if (p->fatal_sig)
		how = "fault";
	else if (p->exited && h->seen >= w->c->die_min_epochs)
		how = "exited";
	else
		return;
	if (p->fatal_sig)
		snprintf(ev, sizeof(ev), "%s: %s delivered to its default"
			 " action; its last site: %s", how,
			 signame(p->fatal_sig, sig), p->last_site);
	else
		snprintf(ev, sizeof(ev), "%s: it called %s after %ld epochs"
			 " seen >= %g; its last site: %s", how,
			 p->exited == 60 ? "exit" : "exit_group", h->seen,
			 w->c->die_min_epochs, p->last_site);
	rflags_raise(w->fs, 10, w->idx, w->ep.start_ns, w->ep.end_ns,
		     shown_pid(p->pid), h->exec, how, ev);
	h->gone = 1;
}

/*
 * 10, from silence: seen long enough, then no sample for die_gap epochs.
 * Not for a kernel thread (no sample ever named a program, only its
 * "[comm]"): it sleeps for minutes and is still there.
 */
static void stopped(struct rwalk *w, struct rpast *h)
{
	char ev[1024], sig[16], how[96] = "";

	if (h->gone || !h->had_path || h->seen < w->c->die_min_epochs ||
	    (double)(w->idx - h->last) < w->c->die_gap)
		return;
	if (h->stop_sig)
		snprintf(how, sizeof(how), "; %s delivered to its default"
			 " action in its last epoch", signame(h->stop_sig, sig));
	snprintf(ev, sizeof(ev), "stopped: no samples for %ld epochs >= %g"
		 " after %ld epochs seen >= %g, and no exit or fatal signal"
		 " sampled%s; its last site: %s", w->idx - h->last,
		 w->c->die_gap, h->seen, w->c->die_min_epochs, how,
		 h->last_site);
	rflags_raise(w->fs, 10, h->last, h->last_start, h->last_end,
		     shown_pid(h->pid), h->exec, "stopped", ev);
	h->gone = 1;
}

void rhist_epoch(struct rwalk *w)
{
	int r2 = rwalk_needs(w, 2, RV_UMEM) && rwalk_needs(w, 2, RV_KMEM);
	const struct rproc *p;
	struct rpast *h;

	for (uint32_t i = 0; i < w->ep.nproc; i++) {
		p = &w->ep.proc[i];
		h = past(w->hist, p->pid);
		if (r2)
			leak(w, h, p);
		h->gone = 0;
		h->seen++;
		h->last = w->idx;
		h->last_start = w->ep.start_ns;
		h->last_end = w->ep.end_ns;
		/* a path seen once names it still when it exits as "[comm]" */
		if (p->exec && p->exec[0] != '[')
			h->had_path = 1;
		if (!h->had_path || (p->exec && p->exec[0] != '['))
			h->exec = p->exec;
		h->last_site = p->last_site;
		h->stop_sig = p->stop_sig;
		died(w, h, p);
	}
	for (uint32_t i = 0; i < w->hist->cap; i++)
		if (w->hist->t[i].pid && w->hist->t[i].last < w->idx)
			stopped(w, &w->hist->t[i]);
}
