// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The floor for `stp vitals.stp`: a hand-written module that hooks every
 * point the script hooks, the same way, and only counts.  What any
 * tracer that watches these events must pay at the least, so that the
 * script's cost can be read as a multiple of it (tests/bench/vitals.sh).
 *
 * The points come as module parameters, which the benchmark takes from
 * the script's own generated tables (stp -p3), so the floor follows the
 * script when its hooks change:
 *
 *   tp=NAME,...          tracepoint callbacks (for_each_kernel_tracepoint)
 *   kretprobe=SYM,...    kretprobes whose return handler counts (no entry
 *                        handler: saving arguments at entry is the
 *                        script's work, not the floor's)
 *   kprobe=SYM,...       kprobes whose pre_handler counts
 *   perf=TYPE:CONFIG:PERIOD,...   a sampling perf event per online CPU
 *                        (perf_event_create_kernel_counter, pinned, as
 *                        runtime/perf.c makes them) whose overflow
 *                        handler counts
 *
 * A hit is one per-CPU increment of its point's counter: no shared cache
 * line, no atomic.  A point the kernel does not have, or a hardware event
 * it refuses (QEMU's TCG has no PMU), is skipped and said in the log, as
 * the script's optional points are.  On unload each point's hits, summed
 * over the CPUs, go to the kernel log as "floor_vitals: hits NAME N".
 */
#include <linux/module.h>
#include <linux/tracepoint.h>
#include <linux/kprobes.h>
#include <linux/perf_event.h>
#include <linux/percpu.h>
#include <linux/cpu.h>
#include <linux/slab.h>
#include <linux/string.h>

#define FLOOR_MAX 32		/* points of all kinds */

static char *tp = "";
module_param(tp, charp, 0444);
static char *kretprobe = "";
module_param(kretprobe, charp, 0444);
static char *kprobe = "";
module_param(kprobe, charp, 0444);
static char *perf = "";
module_param(perf, charp, 0444);

enum { FLOOR_TP, FLOOR_KRETPROBE, FLOOR_KPROBE, FLOOR_PERF };

struct floor_point {
	int kind;			/* FLOOR_* */
	int armed;
	char name[48];			/* as the log shows it */
	struct tracepoint *tp;		/* FLOOR_TP */
	union {
		struct kretprobe krp;	/* FLOOR_KRETPROBE */
		struct kprobe kp;	/* FLOOR_KPROBE */
	} u;
	struct perf_event_attr attr;	/* FLOOR_PERF */
	struct perf_event **events;	/* FLOOR_PERF: per CPU */
};

static struct floor_point points[FLOOR_MAX];
static int npoints;
static DEFINE_PER_CPU(unsigned long, floor_hits[FLOOR_MAX]);

/*
 * The handlers: each the least its kind allows.  A tracepoint's arguments
 * are not declared (the callback reads none; the calling convention lets
 * the extra ones be ignored), so that one callback serves every point.
 */
static notrace void floor_tp_hit(void *data)
{
	this_cpu_inc(floor_hits[(long)data]);
}

static notrace int floor_krp_hit(struct kretprobe_instance *ri,
				 struct pt_regs *regs)
{
	struct floor_point *p = container_of(get_kretprobe(ri),
					     struct floor_point, u.krp);

	this_cpu_inc(floor_hits[p - points]);
	return 0;
}
NOKPROBE_SYMBOL(floor_krp_hit);

static notrace int floor_kp_hit(struct kprobe *kp, struct pt_regs *regs)
{
	struct floor_point *p = container_of(kp, struct floor_point, u.kp);

	this_cpu_inc(floor_hits[p - points]);
	return 0;
}
NOKPROBE_SYMBOL(floor_kp_hit);

static notrace void floor_perf_hit(struct perf_event *ev,
				   struct perf_sample_data *data,
				   struct pt_regs *regs)
{
	this_cpu_inc(floor_hits[(long)ev->overflow_handler_context]);
}
NOKPROBE_SYMBOL(floor_perf_hit);

static struct tracepoint *found_tp;

static void floor_find_tp(struct tracepoint *t, void *name)
{
	if (!strcmp(t->name, name))
		found_tp = t;
}

static int floor_arm_tp(struct floor_point *p)
{
	found_tp = NULL;
	for_each_kernel_tracepoint(floor_find_tp, p->name);
	if (!found_tp)
		return -ENOENT;
	p->tp = found_tp;
	return tracepoint_probe_register(p->tp, (void *)floor_tp_hit,
					 (void *)(long)(p - points));
}

static int floor_arm_perf(struct floor_point *p)
{
	struct perf_event *ev;
	int cpu, rc = 0;

	p->events = kcalloc(nr_cpu_ids, sizeof(*p->events), GFP_KERNEL);
	if (!p->events)
		return -ENOMEM;
	cpus_read_lock();
	for_each_online_cpu(cpu) {
		ev = perf_event_create_kernel_counter(&p->attr, cpu, NULL,
						      floor_perf_hit,
						      (void *)(long)(p - points));
		if (IS_ERR(ev)) {
			rc = PTR_ERR(ev);
			break;
		}
		p->events[cpu] = ev;
	}
	cpus_read_unlock();
	return rc;
}

static void floor_release_perf(struct floor_point *p)
{
	int cpu;

	if (!p->events)
		return;
	for (cpu = 0; cpu < nr_cpu_ids; cpu++)
		if (p->events[cpu])
			perf_event_release_kernel(p->events[cpu]);
	kfree(p->events);
	p->events = NULL;
}

static int floor_arm(struct floor_point *p)
{
	int rc;

	switch (p->kind) {
	case FLOOR_TP:
		return floor_arm_tp(p);
	case FLOOR_KRETPROBE:
		p->u.krp.kp.symbol_name = p->name;
		p->u.krp.handler = floor_krp_hit;
		return register_kretprobe(&p->u.krp);
	case FLOOR_KPROBE:
		p->u.kp.symbol_name = p->name;
		p->u.kp.pre_handler = floor_kp_hit;
		return register_kprobe(&p->u.kp);
	default:
		rc = floor_arm_perf(p);
		if (rc)
			floor_release_perf(p);
		return rc;
	}
}

static void floor_disarm(struct floor_point *p)
{
	switch (p->kind) {
	case FLOOR_TP:
		tracepoint_probe_unregister(p->tp, (void *)floor_tp_hit,
					    (void *)(long)(p - points));
		break;
	case FLOOR_KRETPROBE:
		unregister_kretprobe(&p->u.krp);
		break;
	case FLOOR_KPROBE:
		unregister_kprobe(&p->u.kp);
		break;
	default:
		floor_release_perf(p);
	}
}

/* "TYPE:CONFIG:PERIOD" into a sampling event's attributes. */
static int floor_perf_attr(struct floor_point *p, char *spec)
{
	u32 type;
	u64 config, period;

	if (sscanf(spec, "%u:%llu:%llu", &type, &config, &period) != 3 ||
	    !period)
		return -EINVAL;
	memset(&p->attr, 0, sizeof(p->attr));
	p->attr.type = type;
	p->attr.size = sizeof(p->attr);
	p->attr.config = config;
	p->attr.sample_period = period;
	p->attr.pinned = 1;
	return 0;
}

/* Add the points of one parameter's comma-separated list. */
static int floor_parse(const char *list, int kind)
{
	char *copy, *s, *name;
	struct floor_point *p;
	int rc = 0;

	copy = kstrdup(list, GFP_KERNEL);
	if (!copy)
		return -ENOMEM;
	s = copy;
	while ((name = strsep(&s, ",")) != NULL) {
		if (!*name)
			continue;
		if (npoints == FLOOR_MAX) {
			rc = -E2BIG;
			break;
		}
		p = &points[npoints];
		p->kind = kind;
		strscpy(p->name, name, sizeof(p->name));
		if (kind == FLOOR_PERF) {
			rc = floor_perf_attr(p, name);
			if (rc)
				break;
		}
		npoints++;
	}
	kfree(copy);
	return rc;
}

static void floor_disarm_all(void)
{
	int i;

	for (i = 0; i < npoints; i++)
		if (points[i].armed)
			floor_disarm(&points[i]);
	tracepoint_synchronize_unregister();
}

static int __init floor_init(void)
{
	int i, rc, armed = 0;

	rc = floor_parse(tp, FLOOR_TP);
	if (!rc)
		rc = floor_parse(kretprobe, FLOOR_KRETPROBE);
	if (!rc)
		rc = floor_parse(kprobe, FLOOR_KPROBE);
	if (!rc)
		rc = floor_parse(perf, FLOOR_PERF);
	if (rc) {
		pr_err("floor_vitals: bad parameters (%d)\n", rc);
		return rc;
	}
	for (i = 0; i < npoints; i++) {
		rc = floor_arm(&points[i]);
		if (rc) {
			/* as the script's optional points: skipped, said */
			pr_info("floor_vitals: skipped %s (%d)\n",
				points[i].name, rc);
			continue;
		}
		points[i].armed = 1;
		armed++;
	}
	if (!armed)
		return -ENOENT;
	pr_info("floor_vitals: armed %d of %d points\n", armed, npoints);
	return 0;
}

static void __exit floor_exit(void)
{
	unsigned long n;
	int i, cpu;

	floor_disarm_all();
	for (i = 0; i < npoints; i++) {
		if (!points[i].armed)
			continue;
		n = 0;
		for_each_possible_cpu(cpu)
			n += per_cpu(floor_hits[i], cpu);
		pr_info("floor_vitals: hits %s %lu\n", points[i].name, n);
	}
}

module_init(floor_init);
module_exit(floor_exit);
MODULE_LICENSE("GPL");
