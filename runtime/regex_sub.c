// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The groups of a match (regex_sub.h): after regex.c's search says that
 * s matches, the same program runs again as a Pike VM whose threads
 * carry the offsets each RE_SAVE passed.  The whole match is POSIX's:
 * the leftmost start, and from there the longest text; threads of an
 * earlier start come first in each list, so at a tie of state the
 * earlier start survives.  A group's text is that of the best-placed
 * thread that reached the end, the last iteration of a repeated group.
 */

/* Put thread t, at pc to, on the work stack of stp_re_sub_add, once. */
static inline void stp_re_sub_push(struct stp_re *r, int *sp, const struct stp_re_thr *t, int to)
{
	struct stp_re_sub *u = &r->sub;

	if (to >= 0 && to < r->n && !u->on[to]) {
		u->on[to] = 1;
		u->stack[*sp] = *t;
		u->stack[(*sp)++].pc = to;
	}
}

/* Add thread t (following jumps, splits and saves) to list l at at. */
static void stp_re_sub_add(struct stp_re *r, struct stp_re_thr *l, int *nl,
			   const struct stp_re_thr *t, const char *s, const char *at)
{
	int sp = 0;

	stp_re_sub_push(r, &sp, t, t->pc);
	while (sp) {
		struct stp_re_thr th = r->sub.stack[--sp];
		struct stp_re_ins *in = &r->prog[th.pc];

		switch (in->op) {
		case RE_JMP:
			stp_re_sub_push(r, &sp, &th, in->x);
			break;
		case RE_SPLIT:
			stp_re_sub_push(r, &sp, &th, in->y);
			stp_re_sub_push(r, &sp, &th, in->x);
			break;
		case RE_BOL:
			if (at == s)
				stp_re_sub_push(r, &sp, &th, th.pc + 1);
			break;
		case RE_EOL:
			if (!*at)
				stp_re_sub_push(r, &sp, &th, th.pc + 1);
			break;
		case RE_SAVE:
			if (in->x < 2 * STP_RE_NSUB)
				th.cap[in->x] = at - s;
			stp_re_sub_push(r, &sp, &th, th.pc + 1);
			break;
		default:
			l[(*nl)++] = th;
		}
	}
}

/* Keep t's groups as the match when it ends (at end) better placed. */
static void stp_re_sub_best(struct stp_re_sub *u, const struct stp_re_thr *t, int end)
{
	if (u->cap[0] >= 0 && (t->cap[0] > u->cap[0] ||
			       (t->cap[0] == u->cap[0] && end <= u->cap[1])))
		return;
	memcpy(u->cap, t->cap, sizeof(u->cap));
	u->cap[1] = end;
}

/* One step of every thread of list cur over the character at at. */
static void stp_re_sub_step(struct stp_re *r, int cur, int *n, const char *s, const char *at)
{
	struct stp_re_sub *u = &r->sub;
	int i;

	n[!cur] = 0;
	memset(u->on, 0, r->n);
	for (i = 0; i < n[cur]; i++) {
		struct stp_re_thr *t = &u->list[cur][i], next;
		struct stp_re_ins *in = &r->prog[t->pc];
		u8 ch = (u8)*at;

		if (in->op == RE_MATCH) {
			stp_re_sub_best(u, t, at - s);
			continue;
		}
		if (!ch || !(in->op == RE_ANY || (in->op == RE_CHAR && in->ch == ch) ||
			     (in->op == RE_CLASS && (r->cls[in->ch][ch >> 3] >> (ch & 7) & 1))))
			continue;
		next = *t;
		next.pc = t->pc + 1;
		stp_re_sub_add(r, u->list[!cur], &n[!cur], &next, s, at + 1);
	}
}

/* After the search: s matched (matched 1) or not, with r's program. */
static void stp_re_sub_record(struct stp_re *r, const char *s, int matched)
{
	struct stp_re_sub *u = &r->sub;
	const char *at = s;
	int cur = 0, n[2] = { 0, 0 }, i;
	struct stp_re_thr seed;

	u->state = matched ? 1 : -1;
	if (!matched)
		return;
	u->ngroups = r->ngroups;
	memset(u->cap, 0xff, sizeof(u->cap));
	for (;; at++, cur = !cur) {
		/* a new thread at each position until something matched:
		 * after that no start can be further left */
		if (u->cap[0] < 0) {
			memset(u->on, 0, r->n);
			for (i = 0; i < n[cur]; i++)
				u->on[u->list[cur][i].pc] = 1;
			memset(seed.cap, 0xff, sizeof(seed.cap));
			seed.cap[0] = at - s;
			seed.pc = 0;
			stp_re_sub_add(r, u->list[cur], &n[cur], &seed, s, at);
		}
		stp_re_sub_step(r, cur, n, s, at);
		if (!*at || (!n[!cur] && u->cap[0] >= 0))
			break;
	}
	strscpy(u->subject, s, MAXSTRINGLEN);
}

int stp_regex_ngroups(void)
{
	struct stp_re_sub *u = &stp_re_cpu[smp_processor_id()]->sub;

	return u->state == 1 ? u->ngroups : -1;
}

int stp_regex_group(int64_t n, char *dst)
{
	struct stp_re_sub *u = &stp_re_cpu[smp_processor_id()]->sub;
	int len;

	dst[0] = '\0';
	if (u->state != 1)
		return -1;
	if (n < 0 || n > u->ngroups)
		return -2;
	if (n >= STP_RE_NSUB)
		return -3;
	if (u->cap[2 * n] < 0 || u->cap[2 * n + 1] < u->cap[2 * n])
		return 0;
	len = u->cap[2 * n + 1] - u->cap[2 * n];
	memcpy(dst, u->subject + u->cap[2 * n], len);
	dst[len] = '\0';
	return 0;
}
