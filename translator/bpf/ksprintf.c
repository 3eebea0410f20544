// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * sprintf (and sprint, sprintln, sprintd...) in a kernel probe: the
 * tapsets' argstr, retstr and the like are made there.  The format is
 * read here; each integer conversion, and each string one with a width
 * or precision, becomes a call of runtime/bpf/ksprintf.h's formatters
 * into a string temporary and a %s, and bpf_snprintf joins them with the
 * literal text.  What that cannot do (a '*' width, %b, %m, %M, %c with
 * '#', more than 12 arguments) is refused at the call.
 */
#include "bpf.h"

#include <stdlib.h>
#include <string.h>

enum { KS_MAX_ARGS = 12 };	/* bpf_snprintf's */

/* runtime/bpf/ksprintf.h's STP_F_*: the flags parse_spec sets from
 * "-+ #0" (bits 0-4), then these */
enum { KS_SPECIAL = 8, KS_SIGN = 32, KS_LARGE = 64 };

struct kspec {
	unsigned flags;
	int width, prec;
	char conv;
};

/* One conversion after its '%': f past it; 0 when it cannot be done. */
static int parse_spec(const char **f, struct kspec *s)
{
	static const char flag_chars[] = "-+ #0";
	const char *p;

	s->flags = 0;
	s->width = s->prec = -1;
	while (**f && (p = strchr(flag_chars, **f))) {
		s->flags |= 1u << (p - flag_chars);
		(*f)++;
	}
	if (**f >= '0' && **f <= '9')
		s->width = (int)strtol(*f, (char **)f, 10);
	if (**f == '.') {
		(*f)++;
		s->prec = (int)strtol(*f, (char **)f, 10);
	}
	while (**f == 'h' || **f == 'l' || **f == 'L')
		(*f)++;
	s->conv = **f;
	if (**f)
		(*f)++;
	return s->conv != '*' && s->conv && !strchr("bmM", s->conv) &&
	       !(s->conv == 'c' && (s->flags & KS_SPECIAL));
}

static int int_base(char conv)
{
	return conv == 'o' ? 8 : conv == 'x' || conv == 'X' || conv == 'p' ? 16 : 10;
}

/* The C for argument a under spec s, as bpf_snprintf's u64; the format's
 * piece goes to out. */
static const char *arg_value(struct bx *x, const struct kspec *s, const char *a, int is_str,
			     struct sbuf *out)
{
	unsigned flags = s->flags;

	if (s->conv == 'c') {
		sb_printf(out, "%%%s", flags & 1 ? "-" : "");	/* '-' and a width: bpf_snprintf's */
		if (s->width > 0)
			sb_printf(out, "%d", s->width);
		sb_putc(out, 'c');
		return ar_printf("(u64)%s", a);
	}
	sb_puts(out, "%s");
	if (s->conv == 's' || is_str)
		return s->width < 0 && s->prec < 0 ? ar_printf("(u64)%s", a)
			: ar_printf("(u64)stp_kfmt_str(%s, %s, %u, %d, %d)", bx_temp(x), a, flags,
				    s->width, s->prec);
	if (s->conv == 'd' || s->conv == 'i')
		flags |= KS_SIGN;
	if (s->conv == 'X')
		flags |= KS_LARGE;
	if (s->conv == 'p')
		flags |= KS_SPECIAL;	/* %p is %#x */
	return ar_printf("(u64)stp_kfmt_int(%s, (u64)%s, %d, %u, %d, %d)", bx_temp(x), a,
			 int_base(s->conv), flags, s->width, s->prec);
}

const char *bx_kern_sprintf(struct bx *x, struct node *n, const char *fmt, int first,
			    const char *decls)
{
	struct sbuf f = { 0 }, data = { 0 };
	int arg = first, nd = 0;

	for (const char *p = fmt; *p;) {
		struct kspec s;
		struct node *a;

		if (*p != '%' || p[1] == '%') {
			sb_putc(&f, *p);
			if (*p == '%')
				sb_putc(&f, *++p);
			p++;
			continue;
		}
		p++;
		if (!parse_spec(&p, &s) || arg >= n->args.len || ++nd > KS_MAX_ARGS) {
			bx_refuse(x, &n->loc, "%s in a kernel probe: %s are not supported by "
				  "--runtime=bpf", n->name, nd > KS_MAX_ARGS ?
				  "more than 12 conversions" : ar_printf("conversions '%%%c'",
									  s.conv ? s.conv : '*'));
			return "\"\"";
		}
		a = n->args.v[arg];
		sb_printf(&data, "%s, ", arg_value(x, &s, ar_printf("_x%d", arg), a->vtype == T_STRING,
						       &f));
		arg++;
	}
	const char *t = bx_temp(x);

	return ar_printf("({ %su64 _d[] = { %s0 }; bpf_snprintf(%s, MAXSTRINGLEN, \"%s\", _d, "
			 "%d * 8); %s; })", decls, data.s ? data.s : "", t, f.s ? f.s : "", nd, t);
}
