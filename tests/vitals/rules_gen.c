// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Stores built for the diagnosis rules, the aggregator and the diff
 * (tests/vitals/rules.sh) and for the benchmark (tests/bench/
 * vitals_store.sh), written with vstore_put as stprun writes them:
 *
 *   rules_gen case NAME DB    the store of one case (cases[] below)
 *   rules_gen list            the cases' names
 *   rules_gen diff DB         the diff's store: a spinner joins at 00:02
 *   rules_gen bench DB [N]    N one-minute epochs (4,320: three days), 11
 *                             vitals, 200 samples each, 50 programs
 *   rules_gen agg DB FIRST N  N random 15-minute epochs from FIRST on
 *
 * Epoch n of a case starts n minutes after 2026-11-24T00:00:00Z.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../store/store.h"

#define BASE_NS 1795478400000000000LL	/* 2026-11-24T00:00:00Z */
#define MIN_NS 60000000000LL
#define NV 11
#define HCA 256
#define MAX_SAMPLES 4096

static const char *const names[NV] = {
	"cpuu", "l2mi", "sched", "blck", "blio", "kmem", "umem", "syscall",
	"sig", "sock", "lock",
};

/* The epoch being built. */
static struct vx_vital vit[NV];
static uint32_t hca[NV][HCA];
static struct vx_sample smp[MAX_SAMPLES];
static char texts[MAX_SAMPLES][3][96];
static unsigned nsmp;
static int gone[NV];	/* not put at all: the collector had no event */
static int64_t start_ns, len_ns = MIN_NS;
static struct vstore *st;
static uint64_t rng = 88172645463325252ULL;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void die(const char *what, char *err)
{
	fprintf(stderr, "rules_gen: %s: %s\n", what, err ? err : "");
	exit(1);
}

static int vid(const char *name)
{
	for (int i = 0; i < NV; i++)
		if (!strcmp(names[i], name))
			return i;
	die("no such vital", (char *)name);
	return -1;
}

/* Epoch n (minutes from BASE_NS): every vital available and idle. */
static void begin(int64_t n)
{
	start_ns = BASE_NS + n * MIN_NS;
	memset(hca, 0, sizeof(hca));
	for (int i = 0; i < NV; i++)
		vit[i] = (struct vx_vital){ .vital = names[i], .t = 2,
					    .available = 1, .hca = hca[i],
					    .hca_len = HCA };
	nsmp = 0;
	memset(gone, 0, sizeof(gone));
}

/* The vital's totals: weight and events. */
static void total(const char *name, int64_t weight, uint64_t events)
{
	struct vx_vital *v = &vit[vid(name)];

	v->weight = weight;
	v->count = events;
	hca[v - vit][(uint64_t)weight % HCA] += (uint32_t)events;
}

static void unavailable(const char *name, const char *why)
{
	struct vx_vital *v = &vit[vid(name)];

	v->available = 0;
	v->why = why;
	v->hca_len = 0;
	v->hca = NULL;
}

/* One sample of the vital by pid (its program exec) at site. */
static void sample(const char *name, uint32_t pid, const char *exec,
		   const char *site, int64_t weight, const char *data)
{
	struct vx_sample *s = &smp[nsmp];
	char (*t)[96] = texts[nsmp];

	if (nsmp == MAX_SAMPLES)
		die("too many samples", NULL);
	snprintf(t[0], 96, "%s", exec);
	snprintf(t[1], 96, "%s", site);
	snprintf(t[2], 96, "%s", data);
	*s = (struct vx_sample){ .vital = names[vid(name)],
		.time_ns = (uint64_t)(start_ns + (int64_t)nsmp * 1000000),
		.label = nsmp, .weight = weight, .exec = t[0], .uid = 1000,
		.pid = pid, .site = t[1], .data = t[2], .stack = t[1] };
	vit[vid(name)].samples++;
	nsmp++;
}

/* n samples alike. */
static void samples(unsigned n, const char *name, uint32_t pid,
		    const char *exec, const char *site, int64_t weight,
		    const char *data)
{
	while (n--)
		sample(name, pid, exec, site, weight, data);
}

static void absent(const char *name)
{
	gone[vid(name)] = 1;
}

static void put(void)
{
	struct vx_vital kept[NV];
	struct vx_epoch e = { (uint64_t)start_ns, (uint64_t)(start_ns + len_ns),
			      "box", 0, kept, nsmp, smp };
	char *err;

	for (int i = 0; i < NV; i++)
		if (!gone[i])
			kept[e.nvitals++] = vit[i];
	if (vstore_put(st, &e, &err))
		die("put", err);
}

#define SPIN "/usr/bin/spin", "main+0x10 [spin]"

/* 1: cpuu 1000/s; l2mi 0.001 a cpuu event (yes) or 0.1 (no). */
static void busy_loop(int yes)
{
	begin(0);
	total("cpuu", 60000, 60000);
	total("l2mi", yes ? 60 : 6000, yes ? 60 : 6000);
	samples(8, "cpuu", 100, SPIN, 1, "pc=4198710");
	sample("cpuu", 12, "[kworker/0:1]", "memset_orig+0x33 [kernel]", 1,
	       "pc=-2120165181");
	put();
}

/* 1 and 9 with l2mi unavailable (TCG): not evaluated. */
static void no_l2mi(int yes)
{
	(void)yes;
	begin(0);
	total("cpuu", 60000, 60000);
	unavailable("l2mi", "no last-level-cache-miss counter (QEMU TCG)");
	samples(8, "cpuu", 100, SPIN, 1, "pc=4198710");
	put();
}

#define LEAK 200, "/usr/bin/leak"

/* 2: umem in 4 epochs in a row (yes); in 2, then kmem frees (no). */
static void memory_leak(int yes)
{
	for (int n = 0; n < 4; n++) {
		begin(n);
		if (yes || n < 2) {
			total("umem", 3000, 3000);
			samples(3, "umem", LEAK, "fill+0x8 [leak]", 1,
				"free_dma32=0 free_normal=5000 free_swap=0 address=0");
		} else {
			total("kmem", -6000, 100);
			sample("kmem", LEAK, "free_pages+0x2 [kernel]", -6000,
			       "free_dma32=0 free_normal=5000 free_swap=0 gfp=0");
		}
		put();
	}
}

/* 3: blio requests that got none of their 4096 bytes (yes), or all;
 * one as vitals.stp records it, with its service time, one without. */
static void bad_blocks(int yes)
{
	begin(0);
	total("blio", 2, 2);
	sample("blio", 300, "/usr/bin/dd", "submit_bio+0x1 [kernel]", 1,
	       yes ? "dev=8388608 service_ns=20512345 bytes=4096 done=0"
		   : "dev=8388608 service_ns=20512345 bytes=4096 done=4096");
	sample("blio", 300, "/usr/bin/dd", "submit_bio+0x1 [kernel]", 1,
	       yes ? "dev=8388608 sector=100 bytes=4096 done=0"
		   : "dev=8388608 sector=100 bytes=4096 done=4096");
	put();
}

/* 3 when the blio samples say nothing of what they got. */
static void no_done(int yes)
{
	(void)yes;
	begin(0);
	total("blio", 2, 2);
	samples(2, "blio", 300, "/usr/bin/dd", "submit_bio+0x1 [kernel]", 1,
		"dev=8388608 sector=100 bytes=4096 end_io=0");
	put();
}

/* 4: busy CPUs in kernel code (9 of 10 samples) and 200 ms/s of sched
 * delay (yes), or in user code (no). */
static void kernel_bottleneck(int yes)
{
	begin(0);
	total("cpuu", 60000, 60000);
	total("l2mi", 6000, 6000);
	total("sched", 12000000, 500);
	samples(9, "cpuu", 400, "[kthreadd]", "spin_kthread+0x5 [kernel]", 1,
		yes ? "pc=-2130706432" : "pc=4198710");
	sample("cpuu", 100, SPIN, 1, "pc=4198710");
	samples(2, "sched", 400, "[kthreadd]", "schedule+0x3 [kernel]", 1000,
		"prio=120 age_ns=0");
	put();
}

#define READER 500, "/usr/bin/reader"

/* 5: 300 ms/s blocked, mirrored by sock (yes) or by nothing (no). */
static void blocking_source(int yes)
{
	begin(0);
	total("blck", 18000000, 300);
	total("sock", 600000, 60);
	samples(3, "blck", READER, "sk_wait_data+0x4 [kernel]", 100000,
		"prio=120 age_ns=0");
	if (yes)
		samples(2, "sock", READER, "recv+0x9 [reader]", 10000,
			"daddr=2130706433 dport=80 protocol=6 send=0");
	put();
}

#define HOG 600, "/usr/bin/hog"

/* 6: umem 200 pages/s with blck and blio high (yes), blio 0 (no). */
static void low_memory(int yes)
{
	begin(0);
	total("umem", 12000, 12000);
	total("blck", 18000000, 300);
	total("blio", yes ? 1200 : 0, yes ? 1200 : 0);
	total("l2mi", 60000, 60000);
	samples(3, "umem", HOG, "touch+0x2 [hog]", 1,
		"free_dma32=0 free_normal=10 free_swap=0 address=0");
	samples(2, "l2mi", HOG, "touch+0x2 [hog]", 1, "pc=4198710");
	samples(3, "blck", HOG, "io_schedule+0x1 [kernel]", 100000,
		"prio=120 age_ns=0");
	if (yes)
		samples(2, "blio", HOG, "swap_writepage+0x7 [kernel]", 1,
			"dev=8388608 sector=1 bytes=4096 end_io=0");
	put();
}

#define STARVED 700, "/usr/bin/starved"

/* 7: a process waiting 100 ms/s to run with no cpuu, the system idle
 * (abnormally) then busy (normally); or one that runs (no). */
static void held(int yes)
{
	for (int n = 0; n < 2; n++) {
		begin(n);
		total("cpuu", n ? 60000 : 6000, n ? 60000 : 6000);
		total("l2mi", 60000, 60000);
		total("sched", 6000000, 100);
		samples(3, "sched", STARVED, "preempt_schedule+0x9 [kernel]",
			50000, "prio=139 age_ns=0");
		samples(4, "cpuu", 100, SPIN, 1, "pc=4198710");
		if (!yes)
			samples(12, "cpuu", STARVED, "work+0x1 [starved]", 1,
				"pc=4198800");
		put();
	}
}

#define SENDER 800, "/usr/bin/sender"

/* 8: 2000 calls/s and 10 kmem events in the minute (yes), or 60000. */
static void syscall_loop(int yes)
{
	begin(0);
	total("syscall", 120000, 120000);
	total("kmem", yes ? 10 : 60000, yes ? 10 : 60000);
	samples(3, "syscall", SENDER, "__send+0x14 [libc.so.6]", 1,
		"arg1=3 ret=-32 nr=44");
	sample("kmem", SENDER, "alloc_pages+0x1 [kernel]", 1,
	       "free_dma32=0 free_normal=10 free_swap=0 gfp=0");
	put();
}

#define INIT 900, "/usr/bin/initd"

/* 9: umem 200 pages/s without l2mi (initialization), then with 1000
 * l2mi a second (rising load); or umem 10 pages/s (no). */
static void memory_init_or_load(int yes)
{
	for (int n = 0; n < 2; n++) {
		begin(n);
		total("umem", yes ? 12000 : 600, yes ? 12000 : 600);
		total("l2mi", n ? 60000 : 0, n ? 60000 : 0);
		samples(3, "umem", INIT, "setup+0x3 [initd]", 1,
			"free_dma32=0 free_normal=10 free_swap=0 address=0");
		if (n)
			samples(2, "l2mi", INIT, "setup+0x3 [initd]", 1,
				"pc=4198710");
		put();
	}
}

/* 10: one killed (SIGKILL), one faulting (SIGSEGV), a daemon gone quiet
 * after 4 epochs, one seen throughout, a batch job that ends by
 * exit_group in its 4th epoch (its last sample names no path, as
 * vitals.stp's exit event does not), one stopped by SIGSTOP in its 3rd
 * (yes); a SIGSEGV it handles, the daemon quiet 1 epoch, one seen 2
 * epochs then gone, the batch job ending in its 2nd, the stopped one
 * continued, a SIGCHLD to its default action, which ignores it (no). */
static void died(int yes)
{
	for (int n = 0; n < 6; n++) {
		begin(n);
		total("syscall", 600, 600);
		sample("syscall", 1004, "/usr/sbin/steady", "poll+0x1 [steady]",
		       1, "arg1=0 ret=0 nr=7");
		if (n == 2 && !yes)
			sample("sig", 1004, "/usr/sbin/steady",
			       "do_signal+0x1 [kernel]", 1, "sig=17 handler=0");
		if (n < (yes ? 3 : 1))
			sample("syscall", 1005, "/usr/bin/batch",
			       "write+0x1 [batch]", 1, "arg1=1 ret=10 nr=1");
		if (n == (yes ? 3 : 1))
			sample("syscall", 1005, "[batch]",
			       "exit_group+0x1 [batch]", 1, "arg1=0 ret=0 nr=231");
		if (n <= 2 || !yes)
			sample("syscall", 1006, "/usr/bin/paused",
			       "read+0x1 [paused]", 1, "arg1=0 ret=1 nr=0");
		if (n == 2)
			sample("sig", 1006, "/usr/bin/paused",
			       "do_signal_stop+0x1 [kernel]", 1, "sig=19 handler=0");
		if (n <= 1) {
			sample("syscall", 1001, "/usr/bin/victim",
			       "pause+0x1 [victim]", 1, "arg1=0 ret=0 nr=34");
			sample("syscall", 1002, "/usr/bin/crash",
			       "main+0x1 [crash]", 1, "arg1=0 ret=0 nr=1");
		}
		if (n == 1 && yes)
			sample("sig", 1001, "/usr/bin/victim",
			       "do_signal_stop+0x1 [kernel]", 1,
			       "sig=9 handler=0");
		if (n == 1)
			sample("sig", 1002, "/usr/bin/crash",
			       "asm_exc_page_fault+0x1 [kernel]", 1,
			       yes ? "sig=11 handler=0" : "sig=11 handler=4198400");
		if (n <= 3 || (!yes && n == 5))
			sample("syscall", 1003, "/usr/sbin/daemon",
			       "epoll_wait+0x1 [daemon]", 1, "arg1=0 ret=0 nr=232");
		put();
	}
}

/* Vitals the collector never put: sched in epoch 0 only (no events
 * there: zero, not "not evaluated"; rule 7 flags epoch 1), blio in
 * every epoch (rules 3 and 6 not evaluated). */
static void missing(int yes)
{
	(void)yes;
	for (int n = 0; n < 2; n++) {
		begin(n);
		total("cpuu", 6000, 6000);
		total("l2mi", 6000, 6000);
		absent("blio");
		if (n == 0) {
			absent("sched");
		} else {
			total("sched", 6000000, 100);
			samples(3, "sched", STARVED, "preempt_schedule+0x9 [kernel]",
				50000, "prio=139 age_ns=0");
		}
		samples(4, "cpuu", 100, SPIN, 1, "pc=4198710");
		put();
	}
}

static const struct {
	const char *name;
	void (*build)(int yes);
} cases[] = {
	{ "missing", missing },
	{ "busy-loop", busy_loop }, { "no-l2mi", no_l2mi },
	{ "memory-leak", memory_leak }, { "bad-blocks", bad_blocks },
	{ "no-done", no_done }, { "kernel-bottleneck", kernel_bottleneck },
	{ "blocking-source", blocking_source }, { "low-memory", low_memory },
	{ "held-from-running", held }, { "syscall-busy-loop", syscall_loop },
	{ "memory-init-or-load", memory_init_or_load },
	{ "process-died", died },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

static void open_store(const char *path)
{
	char *err;

	st = vstore_open(path, &err);
	if (!st)
		die(path, err);
}

/* NAME-yes or NAME-no. */
static void build_case(const char *name, const char *path)
{
	size_t n;

	for (size_t i = 0; i < NCASES; i++) {
		n = strlen(cases[i].name);
		if (strncmp(name, cases[i].name, n) || name[n] != '-' ||
		    (strcmp(name + n, "-yes") && strcmp(name + n, "-no")))
			continue;
		open_store(path);
		cases[i].build(!strcmp(name + n, "-yes"));
		vstore_close(st);
		return;
	}
	die("no such case", (char *)name);
}

/*
 * A busy epoch of the benchmark: 50 programs and 1,000 sites, both drawn
 * skewed towards the first (as a Zipf draw would), random HCAs.
 */
static void bench_epoch(int64_t n)
{
	char exec[32], site[48];
	unsigned prog, site_k;

	begin(n);
	for (int v = 0; v < NV; v++) {
		for (int c = 0; c < HCA; c++)
			hca[v][c] = rnd() % 3 ? (uint32_t)(rnd() % 1000) : 0;
		vit[v].weight = (int64_t)(rnd() % 100000);
		vit[v].count = rnd() % 100000;
		for (int i = 0; i < 200; i++) {
			prog = (unsigned)(rnd() % (rnd() % 50 + 1));
			snprintf(exec, sizeof(exec), "/usr/bin/prog%02u", prog);
			site_k = (unsigned)(rnd() % (rnd() % 1000 + 1));
			snprintf(site, sizeof(site), "func_%03u+0x%x [kernel]",
				 site_k, site_k % 7 * 16);
			sample(names[v], 1000 + prog, exec, site,
			       1 + (int64_t)(rnd() % 8), "pc=4198710 arg=1");
		}
	}
	put();
}

/* Epoch n of the aggregator's test: 15 minutes, random totals and HCA
 * occupancy, l2mi unavailable in even epochs. */
static void agg_epoch(int64_t n)
{
	rng = (uint64_t)n * 2654435761ULL + 1;
	len_ns = 15 * MIN_NS;
	begin(0);
	start_ns = BASE_NS + n * len_ns;
	for (int v = 0; v < NV; v++) {
		for (int c = 0; c < HCA; c++)
			hca[v][c] = rnd() % (v + 2) ? 0 : 1 + (uint32_t)(rnd() % 9);
		vit[v].weight = (int64_t)(rnd() % 10000) - 2000;
		vit[v].count = rnd() % 10000;
		vit[v].dropped = rnd() % 5;
		samples((unsigned)(rnd() % 4), names[v], 1 + (uint32_t)v,
			"/usr/bin/agg", "f+0x1 [agg]", 1, "x=1");
	}
	if (n % 2 == 0)
		unavailable("l2mi", "no last-level-cache-miss counter");
	put();
}

/* The diff's store: in epochs 0-1 a quiet web server; in 2-3 a spinner
 * joins (cpuu x10, a new program and site) and the server's sock halves. */
static void diff_store(void)
{
	for (int n = 0; n < 4; n++) {
		begin(n);
		total("cpuu", n < 2 ? 6000 : 60000, n < 2 ? 6000 : 60000);
		total("sock", n < 2 ? 8000 : 4000, 100);
		total("syscall", 3000, 3000);
		samples(4, "cpuu", 300, "/usr/sbin/httpd", "parse+0x3 [httpd]",
			1, "pc=4198710");
		samples(n < 2 ? 4 : 2, "sock", 300, "/usr/sbin/httpd",
			"send+0x9 [httpd]", 1000, "daddr=0 dport=80 protocol=6 send=1");
		samples(3, "syscall", 300, "/usr/sbin/httpd", "poll+0x1 [libc.so.6]",
			1, "arg1=0 ret=0 nr=7");
		if (n >= 2)
			samples(20, "cpuu", 100, SPIN, 1, "pc=4198710");
		put();
	}
}

int main(int argc, char **argv)
{
	int64_t first = 0, n;

	if (argc == 2 && !strcmp(argv[1], "list")) {
		for (size_t i = 0; i < NCASES; i++)
			printf("%s-yes\n%s-no\n", cases[i].name, cases[i].name);
		return 0;
	}
	if (argc == 4 && !strcmp(argv[1], "case")) {
		build_case(argv[2], argv[3]);
		return 0;
	}
	if (argc == 3 && !strcmp(argv[1], "diff")) {
		open_store(argv[2]);
		diff_store();
		vstore_close(st);
		return 0;
	}
	if (argc >= 3 && argc <= 4 && !strcmp(argv[1], "bench")) {
		n = argc == 4 ? atoll(argv[3]) : 4320;
		open_store(argv[2]);
		for (int64_t i = 0; i < n; i++)
			bench_epoch(i);
		vstore_close(st);
		return 0;
	}
	if (argc == 5 && !strcmp(argv[1], "agg")) {
		first = atoll(argv[3]);
		n = atoll(argv[4]);
		open_store(argv[2]);
		for (int64_t i = first; i < first + n; i++)
			agg_epoch(i);
		vstore_close(st);
		return 0;
	}
	fputs("usage: rules_gen case NAME DB | list | diff DB | bench DB [N] |"
	      " agg DB FIRST N\n", stderr);
	return 2;
}
