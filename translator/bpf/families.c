// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The probe families under --runtime=bpf, one row each (struct
 * bpf_family, bpf.h): how the runner attaches a probe's program (its
 * section and its row in the attach table), what the program's context
 * is, and what the kernel lacks when a family has no BPF program.
 * Adding a family to the BPF backend is a row here and its functions.
 */
#include "bpf.h"
#include "../btf/btf.h"

static const char *trace_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_AUTO, 0, 0, 0, 0, \"%s\" },\n", i, bx_cstr(d->name));
	return ar_printf("raw_tp/%s", d->tp->name);
}

static const char *timer_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_CPU0, 1 /* PERF_TYPE_SOFTWARE */, "
		  "0 /* CPU_CLOCK */, %lldULL, 0, \"%s\" },\n", i,
		  (long long)(d->interval_ns ? d->interval_ns : 1000000), bx_cstr(d->name));
	return "perf_event";
}

static const char *syscall_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)att;
	return bx_sys_section(x, d, i);
}

static const char *profile_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_ALL, 1, 0, 4000000ULL, 0, \"%s\" },\n",
		  i, bx_cstr(d->name));
	return "perf_event";
}

static const char *uprobe_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_UPROBE, 0, 0, 0, 0, \"%s\", \"%s\", "
		  "0x%llxULL, 0x%llxULL, %d },\n", i, bx_cstr(d->name), bx_cstr(d->path),
		  (unsigned long long)d->file_offset, (unsigned long long)d->sem_offset,
		  d->is_return);
	return d->is_return ? "uretprobe" : "uprobe";
}

/* perf.* on every CPU; not one process's counter, nor one @perf reads */
static const char *perf_section(struct bx *x, struct derived_probe *d, int i, struct sbuf *att)
{
	(void)x;
	if (d->perf.task || d->perf.counter)
		return NULL;
	sb_printf(att, "\t{ \"p%d\", STP_ATTACH_PERF_ALL, %d, %lluULL, %lldULL, %d, \"%s\" },\n",
		  i, d->perf.type, (unsigned long long)d->perf.config,
		  (long long)d->perf.period, d->perf.freq, bx_cstr(d->name));
	return "perf_event";
}

static const struct bpf_family families[] = {
	{ PF_TRACE, trace_section, BX_CTX_RAW, NULL, NULL, NULL },
	{ PF_TIMER, timer_section, BX_CTX_VOID, NULL, NULL, NULL },
	{ PF_SYSCALL, syscall_section, BX_CTX_RAW, NULL, bx_sys_epilogue, NULL },
	{ PF_PROFILE, profile_section, BX_CTX_VOID, NULL, NULL, NULL },
	{ PF_UPROBE, uprobe_section, BX_CTX_REGS, NULL, NULL, NULL },
	{ PF_PERF, perf_section, BX_CTX_VOID, NULL, NULL,
	  "a perf counter of one process, or read with @perf, is not attached by "
	  "the BPF runner (perf.* on every CPU is)" },
	{ PF_KPROBE, bx_kfunc_section, BX_CTX_KFUNC, bx_kfunc_prologue, NULL, NULL },
	{ PF_PROCFS, NULL, BX_CTX_VOID, NULL, NULL,
	  "a BPF program cannot serve a file in /proc (use the kmod runtime)" },
	{ PF_NETFILTER, NULL, BX_CTX_VOID, NULL, NULL,
	  "netfilter hooks as BPF programs (BPF_PROG_TYPE_NETFILTER) need Linux 6.4 "
	  "and cannot change a packet's verdict as the kmod runtime's do "
	  "(use the kmod runtime)" },
	{ PF_HWBKPT, NULL, BX_CTX_VOID, NULL, NULL,
	  "BPF has no hardware watchpoint hook (use the kmod runtime)" },
	{ PF_PROCESS, NULL, BX_CTX_VOID, NULL, NULL,
	  "BPF has no hook on a process's start or end of this kind; use "
	  "kernel.trace(\"sched:sched_process_exec\") or "
	  "kernel.trace(\"sched:sched_process_exit\")" },
};

const struct bpf_family *bx_family_of(enum probe_family pf)
{
	for (size_t i = 0; i < sizeof(families) / sizeof(families[0]); i++)
		if (families[i].pf == pf)
			return &families[i];
	return NULL;
}
