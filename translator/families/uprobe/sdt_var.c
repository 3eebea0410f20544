// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A marker's arguments as target variables: $arg1 ... $argN, sized and
 * signed as the note's operands say (a negative size is signed), and
 * $$name, $$provider, $$parms ("arg1=0x... arg2=0x...", SystemTap's
 * text).  As for tracepoints (btf_var.c), each expression compiles to
 * an embedded-C function the handler calls.
 *
 * A marker's probe is a uprobe on its nop: the handler has the
 * process's registers (CONTEXT->regs), and regs->ip is the marker's
 * address in the process, so a symbol's address there is regs->ip
 * minus the marker's link-time address plus the symbol's.  Memory is
 * read with stp_tv_read(), which never faults: a bad address is an
 * error of the script, as for DWARF's $vars.
 */
#include "sdt.h"

#include <stdlib.h>
#include <string.h>

static const char *cast(const struct sdt_arg *a, const char *v)
{
	return ar_printf("(int64_t)(%s%d)(%s)", a->is_signed ? "s" : "u", a->size * 8, v);
}

/* The operand's address in the process, as C over regs; an i386
 * program's wraps at 4 GiB, as its own arithmetic would. */
static const char *address(const struct sdt_marker *m, const struct sdt_arg *a)
{
	struct sbuf sb = { 0 };
	const char *r;

	sb_printf(&sb, "(unsigned long)(%lldLL", (long long)a->disp);
	if (a->sym)
		sb_printf(&sb, " + (regs->ip - 0x%llxUL + 0x%llxUL)", (unsigned long long)m->pc,
			  (unsigned long long)a->sym_addr);
	if (a->reg && !a->rip)
		sb_printf(&sb, " + (long)regs->%s", a->reg);
	if (a->index)
		sb_printf(&sb, " + (long)regs->%s * %d", a->index, a->scale);
	sb_puts(&sb, ")");
	r = m->addr32 ? ar_printf("(unsigned long)(u32)%s", sb.s) : ar_strdup(sb.s);
	free(sb.s);
	return r;
}

/* C that sets dest to argument a's value. */
static void arg_value(struct sbuf *c, const struct sdt_marker *m, const struct sdt_arg *a,
		      const char *dest)
{
	switch (a->where) {
	case SDT_REG:
		sb_printf(c, "\t%s = %s;\n", dest,
			  cast(a, ar_printf("regs->%s >> %d", a->reg, a->shift)));
		break;
	case SDT_IMM:
		sb_printf(c, "\t%s = %s;\n", dest, cast(a, ar_printf("%lldLL", (long long)a->disp)));
		break;
	case SDT_MEM:
		sb_printf(c, "\t{\n\t\tunsigned long a = %s;\n\t\tu%d v;\n\n"
			  "\t\tif (stp_tv_read(&v, a, sizeof(v), 1))\n"
			  "\t\t\tSTAP_ERROR(\"user read fault at 0x%%016lx (addr)\", a);\n"
			  "\t\t%s = %s;\n\t}\n", address(m, a), a->size * 8, dest, cast(a, "v"));
		break;
	}
}

static struct node *make_function(const struct node *n, enum type ret, const char *code)
{
	static int counter;

	return genfn_new(&n->loc, ar_printf("__sdtvar_%d", counter++), ret,
			 ar_printf(" /* pure */\n\tstruct pt_regs *regs = CONTEXT->regs;\n\n"
				   "\tif (!regs)\n\t\tSTAP_ERROR(\"no registers to read '%s' from\");\n%s",
				   n->name, code));
}

static const char *marker_name(const struct sdt_marker *m)
{
	return ar_printf("%s:%s", m->provider, m->name);
}

static int fail(const struct node *n, int quiet, const char *msg)
{
	if (!quiet)
		sem_error(&n->loc, "%s", msg);
	return 0;
}

/* $$parms (and $$vars): "arg1=0x... arg2=0x...". */
static void all_args(struct sbuf *c, const struct sdt_marker *m)
{
	sb_puts(c, "\tSTAP_RETVALUE[0] = '\\0';\n");
	for (int i = 0; i < m->nargs; i++) {
		sb_printf(c, "\t{\n\tint64_t x%d;\n", i);
		arg_value(c, m, &m->args[i], ar_printf("x%d", i));
		sb_printf(c, "\tstp_str_append(STAP_RETVALUE, \"%sarg%d=\");\n"
			  "\tstp_tv_hex(STAP_RETVALUE, (u64)x%d);\n\t}\n", i ? " " : "", i + 1, i);
	}
}

static int special(const struct sdt_marker *m, struct node *n, int quiet)
{
	struct sbuf c = { 0 };

	if (!strcmp(n->name, "$$name") || !strcmp(n->name, "$$provider")) {
		sb_printf(&c, "\tstp_str_assign(STAP_RETVALUE, \"%s\");\n",
			  n->name[2] == 'n' ? m->name : m->provider);
	} else if (!strcmp(n->name, "$$parms") || !strcmp(n->name, "$$vars")) {
		for (int i = 0; i < m->nargs; i++)
			if (m->args[i].unreadable)
				return fail(n, quiet, ar_printf("marker '%s': stp cannot read its "
								"operand '%s'", marker_name(m),
								m->args[i].text));
		all_args(&c, m);
	} else {
		return fail(n, quiet, ar_printf("marker '%s' has no '%s' ($argN, $$name, "
						"$$provider and $$parms are there)",
						marker_name(m), n->name));
	}
	n->ref = make_function(n, T_STRING, c.s ? c.s : "");
	free(c.s);
	return 1;
}

/* The N of "$argN", or 0. */
static int arg_number(const char *name)
{
	char *end;
	long k;

	if (strncmp(name, "$arg", 4) || name[4] < '1' || name[4] > '9')
		return 0;
	k = strtol(name + 4, &end, 10);
	return *end || k > 1000 ? 0 : (int)k;
}

static int argument(const struct sdt_marker *m, struct node *n, int k, int quiet)
{
	struct sbuf c = { 0 }, have = { 0 };

	if (k > m->nargs) {
		for (int i = 0; i < m->nargs; i++)
			sb_printf(&have, "%s$arg%d", i ? " " : "", i + 1);
		fail(n, quiet, ar_printf("marker '%s' has no argument '%s' (it has: %s)",
					 marker_name(m), n->name, have.s ? have.s : "none"));
		free(have.s);
		return 0;
	}
	if (m->args[k - 1].unreadable)
		return fail(n, quiet, ar_printf("marker '%s': stp cannot read '%s' (operand '%s')",
						marker_name(m), n->name, m->args[k - 1].text));
	arg_value(&c, m, &m->args[k - 1], "STAP_RETVALUE");
	n->ref = make_function(n, T_LONG, c.s);
	free(c.s);
	return 1;
}

int sdt_target(struct derived_probe *d, struct node *n, int write, int quiet)
{
	const struct sdt_marker *m = d->sdt;
	int k = arg_number(n->name);

	if (n->kind != N_TARGET)
		return fail(n, quiet, ar_printf("%s needs debuginfo (DWARF), which a marker "
						"probe does without", n->name));
	if (write)
		return fail(n, quiet, ar_printf("'%s' cannot be written: a marker's arguments "
						"are read-only", n->name));
	/* $$parms$ is $$parms: its values are numbers */
	if (n->comps.len || n->addr || (n->pretty && strncmp(n->name, "$$", 2)))
		return fail(n, quiet, ar_printf("'%s' is a number: it has no members, address "
						"or text", n->name));
	n->args.len = 0;
	if (!strncmp(n->name, "$$", 2))
		return special(m, n, quiet);
	if (!k)
		return fail(n, quiet, ar_printf("marker '%s' has no '%s' ($argN, $$name, "
						"$$provider and $$parms are there)",
						marker_name(m), n->name));
	return argument(m, n, k, quiet);
}

const char *sdt_list_vars(const struct derived_probe *d)
{
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; i < d->sdt->nargs; i++)
		sb_printf(&sb, " $arg%d:long", i + 1);
	r = ar_strdup(sb.s ? sb.s : "");
	free(sb.s);
	return r;
}
