// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * "=~" and "!~": POSIX extended regular expressions, searched anywhere
 * in the string.  The expression is compiled to a small program and run
 * as a Pike VM (every thread in step), so time is bounded by the
 * lengths of string and program and nothing recurses on the string.
 * Only the parser recurses, once per parenthesis level (at most
 * STP_RE_DEPTH).  Supported: literals, ., [...] with ranges, negation
 * and [:class:], ^, $, ( ), |, *, +, ?, {m}, {m,}, {m,n}, and \ escapes.
 * Each ( ) also saves where its text starts and ends (RE_SAVE), which
 * this search steps over; regex_sub.c reads them, for matched(), when a
 * script uses that (tapsets/regex.stp defines STP_REGEX_CAPTURES).
 */

#define STP_RE_MAXPROG 512
#define STP_RE_DEPTH 16
#define STP_RE_MAXCLASS 32

enum { RE_CHAR, RE_ANY, RE_CLASS, RE_SPLIT, RE_JMP, RE_BOL, RE_EOL, RE_MATCH,
       RE_SAVE };	/* x: the slot, 2 * group (+ 1 at its end) */

struct stp_re_ins {
	u8 op;
	u8 ch;
	short x, y;
};

#ifdef STP_REGEX_CAPTURES
#include "regex_sub.h"

#if MAXSTRINGLEN <= 32767
typedef s16 stp_re_off;		/* an offset in the subject, -1: none */
#else
typedef s32 stp_re_off;
#endif

struct stp_re_thr {
	short pc;
	stp_re_off cap[2 * STP_RE_NSUB];	/* start, end of each group */
};

struct stp_re_sub {
	struct stp_re_thr list[2][STP_RE_MAXPROG];
	struct stp_re_thr stack[STP_RE_MAXPROG];
	u8 on[STP_RE_MAXPROG];
	/* the last =~ on this CPU */
	int state;			/* 0 none yet, 1 it matched, -1 it did not */
	int ngroups;			/* its expression's ( ) groups */
	stp_re_off cap[2 * STP_RE_NSUB];
	char subject[MAXSTRINGLEN];
};
#endif

struct stp_re {
	struct stp_re_ins prog[STP_RE_MAXPROG];
	int n;
	int ngroups;		/* ( ) groups, in the order they open */
	u8 cls[STP_RE_MAXCLASS][32];
	int ncls;
	const char *p;
	int depth;
	int bad;
	short list[2][STP_RE_MAXPROG];
	short stack[STP_RE_MAXPROG];
	u8 on[STP_RE_MAXPROG];
#ifdef STP_REGEX_CAPTURES
	struct stp_re_sub sub;
#endif
};

static int stp_re_emit(struct stp_re *r, int op, int ch, int x, int y)
{
	if (r->n >= STP_RE_MAXPROG) {
		r->bad = 1;
		return r->n - 1;
	}
	r->prog[r->n].op = op;
	r->prog[r->n].ch = ch;
	r->prog[r->n].x = x;
	r->prog[r->n].y = y;
	return r->n++;
}

static void stp_re_set(u8 *set, int c)
{
	set[(c & 255) >> 3] |= 1 << (c & 7);
}

static int stp_re_named(u8 *set, const char *name, int len)
{
	int c, any = 0;

	for (c = 1; c < 256; c++) {
		int in;

#define STP_RE_IS(n) (len == sizeof(n) - 1 && !memcmp(name, n, len))
		if (STP_RE_IS("alpha")) in = isalpha(c);
		else if (STP_RE_IS("digit")) in = isdigit(c);
		else if (STP_RE_IS("alnum")) in = isalnum(c);
		else if (STP_RE_IS("upper")) in = isupper(c);
		else if (STP_RE_IS("lower")) in = islower(c);
		else if (STP_RE_IS("space")) in = isspace(c);
		else if (STP_RE_IS("punct")) in = ispunct(c);
		else if (STP_RE_IS("xdigit")) in = isxdigit(c);
		else if (STP_RE_IS("print")) in = isprint(c);
		else if (STP_RE_IS("cntrl")) in = iscntrl(c);
		else if (STP_RE_IS("blank")) in = c == ' ' || c == '\t';
		else if (STP_RE_IS("graph")) in = isgraph(c);
		else return -1;
#undef STP_RE_IS
		if (in) {
			stp_re_set(set, c);
			any = 1;
		}
	}
	return any;
}

/* "[...]", after the '['. */
static void stp_re_class(struct stp_re *r)
{
	u8 *set;
	int neg = 0, first = 1, i;

	if (r->ncls >= STP_RE_MAXCLASS) {
		r->bad = 1;
		return;
	}
	set = r->cls[r->ncls];
	memset(set, 0, 32);
	if (*r->p == '^') {
		neg = 1;
		r->p++;
	}
	while (*r->p && (*r->p != ']' || first)) {
		int lo = (u8)*r->p++, hi;

		first = 0;
		if (lo == '[' && *r->p == ':') {
			const char *end = strstr(r->p + 1, ":]");

			if (!end || stp_re_named(set, r->p + 1, end - r->p - 1) < 0) {
				r->bad = 1;
				return;
			}
			r->p = end + 2;
			continue;
		}
		hi = lo;
		if (*r->p == '-' && r->p[1] && r->p[1] != ']') {
			hi = (u8)r->p[1];
			r->p += 2;
		}
		for (i = lo; i <= hi; i++)
			stp_re_set(set, i);
	}
	if (*r->p != ']') {
		r->bad = 1;
		return;
	}
	r->p++;
	if (neg)
		for (i = 0; i < 32; i++)
			set[i] = ~set[i];
	set[0] &= ~1;	/* never the terminator */
	stp_re_emit(r, RE_CLASS, r->ncls++, 0, 0);
}

static void stp_re_alt(struct stp_re *r);

/* One atom; its code starts at the returned index. */
static int stp_re_atom(struct stp_re *r)
{
	int start = r->n, group;
	char ch = *r->p++;

	switch (ch) {
	case '(':
		if (++r->depth > STP_RE_DEPTH) {
			r->bad = 1;
			return start;
		}
		group = ++r->ngroups;
		stp_re_emit(r, RE_SAVE, 0, 2 * group, 0);
		stp_re_alt(r);
		r->depth--;
		if (*r->p != ')')
			r->bad = 1;
		else
			r->p++;
		stp_re_emit(r, RE_SAVE, 0, 2 * group + 1, 0);
		break;
	case '.':
		stp_re_emit(r, RE_ANY, 0, 0, 0);
		break;
	case '[':
		stp_re_class(r);
		break;
	case '^':
		stp_re_emit(r, RE_BOL, 0, 0, 0);
		break;
	case '$':
		stp_re_emit(r, RE_EOL, 0, 0, 0);
		break;
	case '\\':
		if (!*r->p) {
			r->bad = 1;
			break;
		}
		ch = *r->p++;
		fallthrough;
	default:
		stp_re_emit(r, RE_CHAR, (u8)ch, 0, 0);
	}
	return start;
}

/* Copy the code [from, to) to the end, adjusting its jumps. */
static void stp_re_copy(struct stp_re *r, int from, int to)
{
	int i, d = r->n - from;

	for (i = from; i < to && !r->bad; i++) {
		struct stp_re_ins in = r->prog[i];

		if (in.op == RE_SPLIT || in.op == RE_JMP) {
			in.x += d;
			in.y += d;
		}
		stp_re_emit(r, in.op, in.ch, in.x, in.y);
	}
}

/* Make [at, n) optional (x?) or repeated (x*), in place. */
static void stp_re_wrap(struct stp_re *r, int at, int star)
{
	int i, len = r->n - at;

	if (r->n + 2 > STP_RE_MAXPROG) {
		r->bad = 1;
		return;
	}
	memmove(&r->prog[at + 1], &r->prog[at], len * sizeof(r->prog[0]));
	r->n++;
	for (i = at + 1; i < r->n; i++)
		if (r->prog[i].op == RE_SPLIT || r->prog[i].op == RE_JMP) {
			r->prog[i].x++;
			r->prog[i].y++;
		}
	if (star)
		stp_re_emit(r, RE_JMP, 0, at, 0);
	r->prog[at].op = RE_SPLIT;
	r->prog[at].x = at + 1;
	r->prog[at].y = r->n;
}

static int stp_re_number(struct stp_re *r)
{
	int v = 0;

	if (*r->p < '0' || *r->p > '9')
		return -1;
	while (*r->p >= '0' && *r->p <= '9' && v < 1000)
		v = v * 10 + (*r->p++ - '0');
	return v;
}

static void stp_re_repeat(struct stp_re *r, int at)
{
	for (;;) {
		int lo, hi, i, end;

		switch (*r->p) {
		case '*':
			r->p++;
			stp_re_wrap(r, at, 1);
			continue;
		case '?':
			r->p++;
			stp_re_wrap(r, at, 0);
			continue;
		case '+':
			r->p++;
			end = r->n;
			stp_re_copy(r, at, end);
			stp_re_wrap(r, end, 1);
			continue;
		case '{':
			r->p++;
			lo = stp_re_number(r);
			hi = lo;
			if (*r->p == ',') {
				r->p++;
				hi = *r->p == '}' ? -1 : stp_re_number(r);
			}
			if (lo < 0 || *r->p != '}' || (hi >= 0 && hi < lo)) {
				r->bad = 1;
				return;
			}
			r->p++;
			end = r->n;
			/* x{lo,hi}: lo copies, then hi-lo optional ones or x* */
			for (i = 1; i < lo && !r->bad; i++)
				stp_re_copy(r, at, end);
			if (hi < 0) {
				int s = r->n;

				stp_re_copy(r, at, end);
				stp_re_wrap(r, s, 1);
			}
			for (i = lo; hi >= 0 && i < hi && !r->bad; i++) {
				int s = r->n;

				stp_re_copy(r, at, end);
				stp_re_wrap(r, s, 0);
			}
			if (!lo) {	/* drop the first, mandatory copy */
				int len = end - at;

				memmove(&r->prog[at], &r->prog[end],
					(r->n - end) * sizeof(r->prog[0]));
				r->n -= len;
				for (i = at; i < r->n; i++)
					if (r->prog[i].op == RE_SPLIT || r->prog[i].op == RE_JMP) {
						r->prog[i].x -= len;
						r->prog[i].y -= len;
					}
			}
			continue;
		default:
			return;
		}
	}
}

static void stp_re_concat(struct stp_re *r)
{
	while (*r->p && *r->p != '|' && *r->p != ')' && !r->bad) {
		int at;

		if (*r->p == '*' || *r->p == '+' || *r->p == '?' || *r->p == '{') {
			r->bad = 1;
			return;
		}
		at = stp_re_atom(r);
		stp_re_repeat(r, at);
	}
}

static void stp_re_alt(struct stp_re *r)
{
	int start = r->n;

	stp_re_concat(r);
	while (*r->p == '|' && !r->bad) {
		int jmp;

		r->p++;
		/* SPLIT start..., later; JMP over the next branch */
		stp_re_wrap(r, start, 0);
		jmp = stp_re_emit(r, RE_JMP, 0, 0, 0);
		r->prog[start].y = r->n;
		stp_re_concat(r);
		r->prog[jmp].x = r->n;
	}
}

/* Mark pc on the work stack of stp_re_add, once. */
static inline void stp_re_push(struct stp_re *r, int *sp, int pc)
{
	if (pc >= 0 && pc < r->n && !r->on[pc]) {
		r->on[pc] = 1;
		r->stack[(*sp)++] = pc;
	}
}

/* Add thread pc (following jumps and splits) to list l. */
static void stp_re_add(struct stp_re *r, short *l, int *nl, int pc,
		       const char *s, const char *at)
{
	int sp = 0;

	stp_re_push(r, &sp, pc);
	while (sp) {
		struct stp_re_ins *in;

		pc = r->stack[--sp];
		in = &r->prog[pc];
		switch (in->op) {
		case RE_JMP:
			stp_re_push(r, &sp, in->x);
			break;
		case RE_SPLIT:
			stp_re_push(r, &sp, in->y);
			stp_re_push(r, &sp, in->x);
			break;
		case RE_BOL:
			if (at == s)
				stp_re_push(r, &sp, pc + 1);
			break;
		case RE_EOL:
			if (!*at)
				stp_re_push(r, &sp, pc + 1);
			break;
		case RE_SAVE:
			stp_re_push(r, &sp, pc + 1);
			break;
		default:
			l[(*nl)++] = pc;
		}
	}
}

static struct stp_re **stp_re_cpu;

static int stp_regex_alloc(void)
{
	int cpu;

	stp_re_cpu = kcalloc(nr_cpu_ids, sizeof(*stp_re_cpu), GFP_KERNEL);
	if (!stp_re_cpu)
		return -ENOMEM;
	for_each_possible_cpu(cpu) {
		stp_re_cpu[cpu] = stp_zalloc(sizeof(struct stp_re));
		if (!stp_re_cpu[cpu])
			return -ENOMEM;
	}
	return 0;
}

static void stp_regex_free(void)
{
	int cpu;

	if (!stp_re_cpu)
		return;
	for_each_possible_cpu(cpu)
		stp_free(stp_re_cpu[cpu]);
	kfree(stp_re_cpu);
	stp_re_cpu = NULL;
}

#ifdef STP_REGEX_CAPTURES
#include "regex_sub.c"
#endif

static int stp_re_search(struct stp_re *r, const char *s, const char *re);

int stp_regex_match(const char *s, const char *re)
{
	struct stp_re *r = stp_re_cpu[smp_processor_id()];
	int rc = stp_re_search(r, s, re);

#ifdef STP_REGEX_CAPTURES
	if (rc >= 0)
		stp_re_sub_record(r, s, rc);
#endif
	return rc;
}

static int stp_re_search(struct stp_re *r, const char *s, const char *re)
{
	const char *at = s;
	int cur = 0, n[2] = { 0, 0 }, i;

	r->n = 0;
	r->ngroups = 0;
	r->ncls = 0;
	r->p = re;
	r->depth = 0;
	r->bad = 0;
	stp_re_alt(r);
	if (*r->p)
		r->bad = 1;
	stp_re_emit(r, RE_MATCH, 0, 0, 0);
	if (r->bad)
		return -1;
	for (;;) {
		/* a new thread at each position: the search is unanchored */
		memset(r->on, 0, r->n);
		for (i = 0; i < n[cur]; i++)
			r->on[r->list[cur][i]] = 1;
		stp_re_add(r, r->list[cur], &n[cur], 0, s, at);
		n[!cur] = 0;
		memset(r->on, 0, r->n);
		for (i = 0; i < n[cur]; i++) {
			struct stp_re_ins *in = &r->prog[r->list[cur][i]];
			int pc = r->list[cur][i], ok;
			u8 ch = (u8)*at;

			if (in->op == RE_MATCH)
				return 1;
			if (!ch)
				continue;
			ok = in->op == RE_ANY ||
			     (in->op == RE_CHAR && in->ch == ch) ||
			     (in->op == RE_CLASS && (r->cls[in->ch][ch >> 3] >> (ch & 7) & 1));
			if (ok)
				stp_re_add(r, r->list[!cur], &n[!cur], pc + 1, s, at + 1);
		}
		if (!*at)
			return 0;
		at++;
		cur = !cur;
	}
}
