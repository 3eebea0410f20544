// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The life and system calls of processes (SystemTap's names):
 *
 *   process.begin, process.end, process.thread.begin, process.thread.end,
 *   process.syscall, process.syscall.return
 *
 * each also as process("PATH").… and process(PID).….  PATH is found as
 * for process("PATH").function (uprobe_points.c, which this asks for it):
 * probes of a program fire in the processes running it.  PID is not
 * looked up here: the module looks for that process when it starts, on
 * the machine it runs on (with --remote=qemu, the guest).
 *
 * A syscall probe reads $syscall and $arg1..$arg6, and in .return
 * $return, from the array the runtime fills at each hit
 * (runtime/process.c, STP_SC_* give the slots), through a function
 * made here that the handler calls, as a tracepoint's $vars are read.
 */
#include "process_family.h"
#include "../uprobe/uprobe_family.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The points after "process" or "process(...)": ORDER enum proc_event */
static const struct {
	const char *name, *sub;		/* "thread", "begin" */
} forms[] = {
	[PE_BEGIN] = { "begin", NULL },
	[PE_END] = { "end", NULL },
	[PE_THREAD_BEGIN] = { "thread", "begin" },
	[PE_THREAD_END] = { "thread", "end" },
	[PE_SYSCALL] = { "syscall", NULL },
	[PE_SYSCALL_RETURN] = { "syscall", "return" },
};

/* Do the components c[0..n) name the words w[0..nw)?  A component is a
 * glob over one word, or "**" over any number of them. */
static int names(const struct probe_comp *c, int n, const char *const *w, int nw)
{
	if (!n)
		return !nw;
	if (!c->name || c->arg)
		return 0;
	if (!strcmp(c->name, "**"))
		return names(c + 1, n - 1, w, nw) || (nw && names(c, n, w + 1, nw - 1));
	return nw && !fnmatch(c->name, w[0], 0) && names(c + 1, n - 1, w + 1, nw - 1);
}

/* The events pp names (1 << enum proc_event), 0 when none: globs such
 * as process.* and process.thread.* name several. */
static unsigned events_of(const struct probe_point *pp)
{
	const struct probe_comp *c = pp->comps;
	unsigned events = 0;

	if (pp->ncomps < 2 || !c[0].name || strcmp(c[0].name, "process"))
		return 0;
	for (int i = 0; i < (int)(sizeof(forms) / sizeof(forms[0])); i++) {
		const char *w[2] = { forms[i].name, forms[i].sub };

		if (names(c + 1, pp->ncomps - 1, w, w[1] ? 2 : 1))
			events |= 1u << i;
	}
	return events;
}

/* pp, with the names of event's point after its process(...) */
static struct probe_point *event_point(const struct probe_point *pp, int event)
{
	struct probe_point *p = ar_alloc(sizeof(*p));

	*p = *pp;
	p->ncomps = forms[event].sub ? 3 : 2;
	p->comps = ar_alloc(3 * sizeof(*p->comps));
	p->comps[0] = pp->comps[0];
	for (int i = 1; i < p->ncomps; i++) {
		p->comps[i] = pp->comps[i < pp->ncomps ? i : pp->ncomps - 1];
		p->comps[i].name = i == 1 ? forms[event].name : forms[event].sub;
	}
	return p;
}

static struct derived_probe *templ(struct probe_point *pp, int event, struct vec *out)
{
	struct derived_probe *t = ar_alloc(sizeof(*t));

	t->pp = event_point(pp, event);
	t->family = PF_PROCESS;
	t->proc.event = event;
	t->process_end = event == PE_END;
	vec_push(out, t);
	return t;
}

/*
 * process("PATH").…: one probe per program PATH names (a glob may name
 * several) and event, found by uprobe_points.c as for process("PATH").begin.
 */
static int path_points(struct elab *e, struct probe_point *pp, unsigned events,
		       struct vec *out)
{
	struct probe_point begin = *pp;
	struct probe_comp comps[2] = { pp->comps[0], { 0 } };
	struct vec progs = { 0 };
	int r;

	comps[1].name = "begin";
	comps[1].loc = pp->comps[1].loc;
	begin.comps = comps;
	begin.ncomps = 2;
	r = uprobes_match(e, &begin, &progs);
	for (int i = 0; r > 0 && i < progs.len; i++) {
		const struct derived_probe *prog = progs.v[i];

		for (int ev = 0; (events >> ev); ev++) {
			struct derived_probe *t;

			if (!(events & (1u << ev)))
				continue;
			t = templ(pp, ev, out);
			t->pp->comps[0] = prog->pp->comps[0];
			t->path = t->module = prog->path;
		}
	}
	free(progs.v);
	return r;
}

int process_claims(const struct probe_point *pp)
{
	return events_of(pp) != 0;
}

int process_match(struct elab *e, struct probe_point *pp, struct vec *out)
{
	unsigned events = events_of(pp);
	const struct node *arg;

	if (!events)
		return -1;
	arg = pp->comps[0].arg;
	if (arg && arg->kind == N_STR)
		return path_points(e, pp, events, out);
	if (arg && (arg->kind != N_NUM || arg->num <= 0 || arg->num > 0x3fffffff)) {
		sem_error(&arg->loc, "process(...) takes a program's path or a process id "
			  "(a number above 0)");
		return 0;
	}
	for (int ev = 0; (events >> ev); ev++)
		if (events & (1u << ev))
			templ(pp, ev, out)->proc.pid = arg ? arg->num : 0;
	return 1;
}

/* ---- $syscall, $argN, $return ---- */

static int is_syscall(const struct derived_probe *d)
{
	return d->proc.event == PE_SYSCALL || d->proc.event == PE_SYSCALL_RETURN;
}

/* The slot of the runtime's array (STP_SC_*) that $name is read from,
 * or -1 when the probe has no such variable. */
static int slot_of(const struct derived_probe *d, const char *name)
{
	if (!strcmp(name, "$syscall"))
		return SC_NR;
	if (!strcmp(name, "$return"))
		return d->proc.event == PE_SYSCALL_RETURN ? SC_RETURN : -1;
	if (!strncmp(name, "$arg", 4) && name[4] >= '1' && name[4] <= '6' && !name[5])
		return SC_ARG1 + name[4] - '1';
	return -1;
}

static const char *point_name(const struct derived_probe *d)
{
	const char *sub = forms[d->proc.event].sub;

	return ar_printf("process.%s%s%s", forms[d->proc.event].name, sub ? "." : "",
			 sub ? sub : "");
}

/* Why d has no variable n; NULL when it has. */
static const char *refusal(const struct derived_probe *d, const struct node *n)
{
	if (!is_syscall(d))
		return ar_printf("%s probes have no target variables ('%s')", point_name(d),
				 n->name);
	if (slot_of(d, n->name) < 0 && !strcmp(n->name, "$return"))
		return "'$return' is only available in process.syscall.return probes";
	if (slot_of(d, n->name) < 0)
		return ar_printf("%s probes have no '%s' (they have $syscall, $arg1 to $arg6%s)",
				 point_name(d), n->name,
				 d->proc.event == PE_SYSCALL_RETURN ? " and $return" : "");
	return NULL;
}

int process_target(struct elab *e, struct derived_probe *d, struct node *n, int write, int quiet)
{
	const char *why = n->kind == N_TARGET ? refusal(d, n) :
			  ar_printf("%s needs debuginfo (DWARF), which process probes do without",
				    n->name);

	(void)e;
	if (!why)
		why = genfn_entry_slot(n, "__procvar", slot_of(d, n->name), write);
	if (why) {
		if (!quiet)
			sem_error(&n->loc, "%s", why);
		return 0;
	}
	return 1;
}

const char *process_list_vars(struct elab *e, const struct derived_probe *d)
{
	struct sbuf sb = { 0 };
	const char *s;

	(void)e;
	if (!is_syscall(d))
		return "";
	sb_puts(&sb, " $syscall:long");
	for (int i = 1; i <= 6; i++)
		sb_printf(&sb, " $arg%d:long", i);
	if (d->proc.event == PE_SYSCALL_RETURN)
		sb_puts(&sb, " $return:long");
	s = ar_strdup(sb.s);
	free(sb.s);
	return s;
}

/* ---- the family's row (family.h) ---- */

static const char *const shapes[] = {
	"process.begin", "process.end", "process.thread.begin", "process.thread.end",
	"process.syscall", "process.syscall.return", NULL,
};
static const char *const types[] = {
	"process[({number|string})].{begin|end|thread.begin|thread.end|syscall|syscall.return}",
	NULL,
};

const struct family_ops process_family = {
	.name = "process", .match = process_match, .shapes = shapes, .types = types,
	.target = process_target, .list_vars = process_list_vars,
	.kmod_entry = em_process_entry, .kmod_tables = em_process_tables,
	.kmod_fields = em_uprobe_fields,
	.bpf_why = "BPF has no hook on a process's start or end of this kind; use "
		   "kernel.trace(\"sched:sched_process_exec\") or "
		   "kernel.trace(\"sched:sched_process_exit\")",
};
