// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tapset function's BPF flavour: its embedded C, which pragmas mark
 * (comments, as SystemTap's pure is): bpf, the C runs in a kernel probe;
 * bpf-user, in user space (begin, end and error probes); bpf-sketch, it
 * calls the Chopstix sampler, whose maps the object then holds
 * (gen_sketch.c).  The C calls what runtime/bpf/kern.h and user.h define
 * under the same names, so one flavour serves both sides; a tapset
 * keeps it apart from the kmod C with %( runtime == "bpf" %? ... %).
 * This is the one way a function gets a BPF flavour: the generator
 * keeps no list of names.  Pass 2's own functions (genfn.c, named
 * __...) read the probe's context: the kernel side's.
 *
 * A tapset flavour of one statement, "STAP_RETVALUE = EXPR;" (a long),
 * "F(..., STAP_RETVALUE, ...);" (a string) or "F(...);" (no value),
 * each argument used once, is written where it is called, its arguments
 * in place: execname() into an array's key, pid() in a filter, with no
 * frame.
 */
#include "bpf.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int has_pragma(const char *body, const char *name)
{
	char want[64];

	snprintf(want, sizeof(want), "/* %s */", name);
	return strstr(body, want) != NULL;
}

unsigned bx_flavour(const struct function *f)
{
	const char *b;
	unsigned fl = 0;

	if (f->decl->body->kind != N_EMBEDDED)
		return 0;
	if (!strncmp(f->name, "__", 2))
		return BXF_KERN;
	b = f->decl->body->str;
	if (has_pragma(b, "bpf"))
		fl |= BXF_KERN;
	if (has_pragma(b, "bpf-user"))
		fl |= BXF_USER;
	if (has_pragma(b, "bpf-sketch"))
		fl |= BXF_SKETCH;
	return fl;
}

/* The body without its comments, trimmed. */
static char *bare(const char *s)
{
	struct sbuf b = { 0 };
	const char *e;
	char *r;
	size_t n;

	while (*s) {
		if (s[0] == '/' && s[1] == '*' && (e = strstr(s + 2, "*/"))) {
			s = e + 2;
			continue;
		}
		sb_putc(&b, *s++);
	}
	r = b.s ? b.s : xcalloc(1, 1);
	for (n = strlen(r); n && isspace((unsigned char)r[n - 1]); n--)
		r[n - 1] = 0;
	for (s = r; isspace((unsigned char)*s); s++)
		;
	memmove(r, s, strlen(s) + 1);
	return r;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* How often the word w occurs in s. */
static int count_word(const char *s, const char *w)
{
	size_t n = strlen(w);
	int k = 0;

	for (const char *p = s; (p = strstr(p, w)); p += n)
		if ((p == s || !ident_char(p[-1])) && !ident_char(p[n]))
			k++;
	return k;
}

/* s with the word w replaced by r. */
static char *replace_word(const char *s, const char *w, const char *r)
{
	struct sbuf b = { 0 };
	size_t n = strlen(w);
	const char *p;

	while ((p = strstr(s, w))) {
		if ((p == s || !ident_char(p[-1])) && !ident_char(p[n])) {
			sb_printf(&b, "%.*s%s", (int)(p - s), s, r);
		} else {
			sb_printf(&b, "%.*s", (int)(p + n - s), s);
		}
		s = p + n;
	}
	sb_puts(&b, s);
	return b.s;
}

/* The expression after "STAP_RETVALUE =" in s, or NULL. */
static const char *assigned(const char *s)
{
	const char *e = s + strlen("STAP_RETVALUE");

	if (strncmp(s, "STAP_RETVALUE", 13) || ident_char(s[13]))
		return NULL;
	while (isspace((unsigned char)*e))
		e++;
	if (e[0] != '=' || e[1] == '=')
		return NULL;
	for (e++; isspace((unsigned char)*e); e++)
		;
	return e;
}

/* Whether f's flavour is one statement written in place (below). */
static int simple(const struct function *f, const char *s)
{
	size_t len = strlen(s);
	int rets = count_word(s, "STAP_RETVALUE");

	if (!len || s[len - 1] != ';' || strchr(s, ';') != s + len - 1 || strpbrk(s, "{}#\"'") ||
	    strstr(s, "STAP_ERROR") || count_word(s, "return"))
		return 0;
	for (int i = 0; i < f->decl->nparams; i++)
		if (count_word(s, ar_printf("STAP_ARG_%s", f->params[i]->name)) != 1)
			return 0;
	if (f->ret == T_STRING)
		return rets == 1;
	/* a function of no value is a long's that returns 0 */
	return rets == 0 || (f->ret == T_LONG && rets == 1 && assigned(s));
}

/*
 * Call n of f's flavour written in place (dst: where a string goes), or
 * NULL when the flavour is more than one simple statement.
 */
const char *bx_inline_call(struct bx *x, struct node *n, struct function *f, const char *dst)
{
	char *s = bare(f->decl->body->str), *t;
	const char *r = NULL;

	/* pass 2's own (genfn.c) keep their frames */
	if (!strncmp(f->name, "__", 2) || n->args.len != f->decl->nparams || !simple(f, s) ||
	    (f->ret == T_STRING && !dst))
		goto out;
	s[strlen(s) - 1] = 0;
	for (int i = 0; i < f->decl->nparams; i++) {
		struct node *a = n->args.v[i];

		t = replace_word(s, ar_printf("STAP_ARG_%s", f->params[i]->name),
				 a->vtype == T_STRING ? bx_str(x, a) : bx_long(x, a));
		free(s);
		s = t;
	}
	if (f->ret != T_STRING && count_word(s, "STAP_RETVALUE")) {
		r = ar_printf("(%s)", assigned(s));
	} else if (f->ret == T_STRING) {
		t = replace_word(s, "STAP_RETVALUE", dst);
		r = ar_strdup(t);
		free(t);
	} else {
		r = ar_printf("({ %s; (int64_t)0; })", s);
	}
out:
	free(s);
	return r;
}
