// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The Chopstix sampler's user side under --runtime=bpf: the kernel side
 * (runtime/bpf/sketch.h) counts into a mmapable array map laid out as
 * runtime/sketch.h's struct cx_sketch, and this runs runtime/sketch.c
 * (built for the host) on the mapped memory, as the module runs it in
 * the kernel: vitals named from begin (chopstix_declare,
 * chopstix_unavailable), at each epoch's end the open copy flipped, a
 * grace period waited out (membarrier's global barrier: every BPF
 * program that read the old index has returned), the events' counts
 * folded in, then the closed copy turned into the module's records
 * (runtime/vitals_msg.h) and handed to the kmod runner's epoch code
 * (staprun/epoch.c), which writes the same store and summary.
 * Kernel addresses are symbolized from kallsyms (ksym.c), user ones by
 * epoch.c.  The store is --vitals-db's (STP_VITALS_DB from stp), else
 * stprun's default, kept under --vitals-limit's (STP_VITALS_LIMIT) as
 * stprun keeps it.
 */
#include "run.h"
#include "../stprun.h"
#include "../../runtime/sketch.h"
#include "../../runtime/vitals_msg.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/membarrier.h>
#include <linux/perf_event.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* runtime/bpf/sketch.h's control block */
struct stp_cx_ctl {
	uint64_t stprun_pid;
	uint64_t started;
};

static struct cx_sketch *sk;
static struct stp_cx_ctl *ctl;
static struct cx_cpu *counts;
static struct epochs *epochs;
static uint64_t epoch_ms, seq, start_ns;
static uint64_t max_bytes, max_age_s;	/* --vitals-limit */
static double next_ms;

/* stprun's messages, which epoch.c calls */
void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("WARNING: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void vsay(const char *fmt, ...)
{
	va_list ap;

	if (!getenv("STP_BPF_VERBOSE"))
		return;
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t real_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_REALTIME, &t);
	return t.tv_sec * 1000000000ULL + t.tv_nsec;
}

static void *map_mmap(struct bpf_object *obj, const char *name, size_t want)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, name);
	void *p;

	if (!m)
		return NULL;
	if (bpf_map__value_size(m) != want) {
		fprintf(stderr, "stp: the sampler's map %s has %u bytes, the runner's %zu: "
			"-D CX_* sizes are not supported by --runtime=bpf\n", name,
			bpf_map__value_size(m), want);
		return NULL;
	}
	p = mmap(NULL, want, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(m), 0);
	return p == MAP_FAILED ? NULL : p;
}

int stp_u_cx_limits(void)
{
	const char *env = getenv("STP_VITALS_LIMIT");

	if (!env)
		return 0;
	if (epochs_limits(env, &max_bytes, &max_age_s)) {
		fprintf(stderr, "stp: --vitals-limit wants MB[,DAYS], not '%s'\n", env);
		return -1;
	}
	unsetenv("STP_VITALS_LIMIT");	/* not the -c command's */
	return 0;
}

int stp_u_cx_attach(struct bpf_object *obj)
{
	if (!bpf_object__find_map_by_name(obj, "stp_cx_map"))
		return 0;	/* the script does not use the sampler */
	sk = map_mmap(obj, "stp_cx_map", sizeof(*sk));
	ctl = map_mmap(obj, "stp_cx_ctl_map", sizeof(*ctl));
	counts = map_mmap(obj, "stp_cx_cpu_map", sizeof(*counts));
	if (!sk || !ctl || !counts)
		return -1;
	cx_init(sk, 0, 0);
	ctl->stprun_pid = getpid();
	return 0;
}

int64_t stp_u_cx_start(int64_t ms, int64_t hi, int64_t lo)
{
	if (!sk)
		return 0;
	epochs = epochs_new("bpf", getenv("STP_VITALS_DB"), max_bytes, max_age_s);
	sk->hi_cycles = hi;
	sk->lo_cycles = lo;
	epoch_ms = ms > 0 ? ms : 60000;
	start_ns = real_ns();
	next_ms = now_ms() + epoch_ms;
	__atomic_store_n(&ctl->started, 1, __ATOMIC_RELEASE);
	return 0;
}

int64_t stp_u_cx_unavailable(const char *vital, const char *why)
{
	if (sk)
		cx_unavailable(sk, cx_vital(sk, vital), why);
	return 0;
}

int64_t stp_u_cx_declare(const char *vital)
{
	return sk ? cx_vital(sk, vital) : -1;
}

/* vitals_hw_unavailable(what): whether perf_event_open gives the event */
void stp_u_hw_unavailable(char *dst, int64_t what)
{
	struct perf_event_attr pa = {
		.type = PERF_TYPE_HARDWARE, .size = sizeof(pa),
		.config = what ? PERF_COUNT_HW_CACHE_MISSES : PERF_COUNT_HW_CPU_CYCLES,
		.disabled = 1,
	};
	const char *ev = what ? "cache-miss" : "cycle";
	int fd = syscall(__NR_perf_event_open, &pa, -1, 0, -1, PERF_FLAG_FD_CLOEXEC);

	if (fd < 0) {
		snprintf(dst, stp_prog.strlen, "no hardware %s counter: perf_event_open: %s",
			 ev, strerror(errno));
		return;
	}
	close(fd);
	snprintf(dst, stp_prog.strlen, "the hardware %s counter is not sampled by "
		 "--runtime=bpf yet", ev);
}

/* ---- an epoch's records, as runtime/vitals.c writes them ---- */

/* Frames of the scheduler, locking and tracing: not a site (the
 * module's list, vitals_msg.h); BPF's own frames, and unnamed ones, too. */
static int skip_frame(const char *name)
{
	static const char *const skip[] = {
		STP_CX_SKIP_FRAMES, "bpf_", "__bpf_", "0x",
	};

	for (size_t i = 0; i < sizeof(skip) / sizeof(skip[0]); i++)
		if (!strncmp(name, skip[i], strlen(skip[i])))
			return 1;
	return 0;
}

/* "func+0x1a [kernel]" of a kernel address, as vitals.c's stp_cx_sym */
static void ksym(char *dst, size_t n, uint64_t a)
{
	char s[512], *slash, *sp;

	stp_u_ksymdata(s, sizeof(s), a);
	slash = strchr(s, '/');
	sp = strchr(s, ' ');
	if (slash && sp && slash < sp)
		memmove(slash, sp, strlen(sp) + 1);
	snprintf(dst, n, "%s", s);
}

static void site_text(FILE *f, const struct cx_sample *s)
{
	char sym[512];

	if (s->site && s->site < 0x800000000000ULL) {
		fprintf(f, "0x%llx", (unsigned long long)s->site);
		return;
	}
	if (s->site) {
		ksym(sym, sizeof(sym), s->site);
		fputs(sym, f);
		return;
	}
	for (int i = 0; i < s->nk && i < CX_KFRAMES; i++) {
		ksym(sym, sizeof(sym), s->kstack[i]);
		if (!skip_frame(sym)) {
			fputs(sym, f);
			return;
		}
	}
	if (s->nu)
		fprintf(f, "0x%llx", (unsigned long long)s->ustack[0]);
}

static void put_rec(FILE *f, uint32_t type, const void *p, size_t len, const void *tail,
		    size_t tlen)
{
	struct stp_cx_rec h = { .type = type, .len = len + tlen };

	fwrite(&h, sizeof(h), 1, f);
	fwrite(p, len, 1, f);
	if (tlen)
		fwrite(tail, tlen, 1, f);
}

static void vital_rec(FILE *f, int vi, int closed)
{
	struct cx_vital *v = &sk->v[vi];
	struct cx_copy *c = &v->copy[closed];
	struct stp_cx_vital r = { 0 };

	r.index = vi;
	r.hca_len = CX_COUNTERS;
	uint32_t hca[CX_COUNTERS];

	r.weight = c->weight;
	r.count = c->events;
	r.samples = cx_nsamples(c);
	r.dropped = c->dropped;
	r.t = 1ULL << v->shift;
	r.cycles = c->cycles;
	r.available = !v->unavailable;
	memcpy(r.name, v->name, sizeof(r.name));
	memcpy(r.names, v->names, sizeof(r.names));
	memcpy(r.why, v->why, sizeof(r.why));
	r.name[sizeof(r.name) - 1] = r.names[sizeof(r.names) - 1] = r.why[sizeof(r.why) - 1] = 0;
	for (int i = 0; i < CX_COUNTERS; i++)
		hca[i] = cx_count_at(c, i);
	put_rec(f, STP_CX_VITAL, &r, sizeof(r), hca, sizeof(hca));
}

static void sample_body(FILE *f, int vi, const struct cx_sample *s);

/* Frames of the BPF program and the tracepoint that ran it, which lead
 * a kernel stack bpf_get_stack took: not the event's. */
static int machinery(const char *sym)
{
	return strstr(sym, " [bpf]") || !strncmp(sym, "bpf_trace_run", 13) ||
	       !strncmp(sym, "__bpf_trace_", 12) || !strncmp(sym, "__traceiter_", 12) ||
	       !strncmp(sym, "bpf_prog_", 9);
}

static void sample_rec(FILE *f, int vi, const struct cx_sample *src)
{
	struct cx_sample copy = *src, *s = &copy;
	char first[512];
	int skip = 0;

	while (skip < s->nk && skip < CX_KFRAMES) {
		ksym(first, sizeof(first), s->kstack[skip]);
		if (!machinery(first))
			break;
		skip++;
	}
	memmove(s->kstack, s->kstack + skip, (CX_KFRAMES - skip) * sizeof(s->kstack[0]));
	s->nk -= skip;
	sample_body(f, vi, s);
}

static void sample_body(FILE *f, int vi, const struct cx_sample *s)
{
	struct stp_cx_sample r = { 0 };
	char *txt = NULL, sym[512];
	size_t tl = 0;
	FILE *t = open_memstream(&txt, &tl);

	if (!t)
		return;
	r.vital = vi;
	r.pid = s->pid;
	r.uid = s->uid;
	r.nk = s->nk > CX_KFRAMES ? CX_KFRAMES : s->nk;
	r.nu = s->nu > CX_UFRAMES ? CX_UFRAMES : s->nu;
	r.count = s->count;
	r.time_ns = s->time_ns;
	r.label = s->label;
	/* the kernel's dev_t (major << 20 | minor) as stat() gives it */
	r.exec_dev = s->exec ? makedev(s->exec_dev >> 20, s->exec_dev & 0xfffff) : 0;
	r.exec_ino = s->exec;
	r.site = s->site;
	r.weight = s->weight;
	memcpy(r.data, s->data, sizeof(r.data));
	memcpy(r.ustack, s->ustack, sizeof(r.ustack));
	memcpy(r.comm, s->comm, sizeof(r.comm));
	fputc('\n', t);		/* the path: epoch.c finds it by /proc/PID/exe */
	site_text(t, s);
	for (int i = 0; i < r.nk; i++) {
		ksym(sym, sizeof(sym), s->kstack[i]);
		fprintf(t, "\n%s", sym);
	}
	fputc(0, t);
	fclose(t);
	put_rec(f, STP_CX_SAMPLE, &r, sizeof(r), txt, tl);
	free(txt);
}

/*
 * A grace period: every BPF program running when it began has returned.
 * membarrier's global command is synchronize_rcu() in the kernel, and
 * tracing programs run under rcu_read_lock().  Without it (a kernel
 * with nohz_full CPUs refuses it), a wait far longer than any program
 * runs.
 */
static void grace_period(void)
{
	if (syscall(__NR_membarrier, MEMBARRIER_CMD_GLOBAL, 0, 0))
		usleep(20000);
}

/* Open the other copy, wait out the programs still in the old one, and
 * take in the events' counts: the closed copy's index. */
static int swap_copies(void)
{
	int closed = cx_flip(sk);

	grace_period();
	cx_fold(sk, closed, counts);
	cx_cpu_zero(counts, closed);
	cx_finish(sk, closed);
	return closed;
}

/* Close the open epoch: swap, write its records, store, clear. */
static void close_epoch(int final)
{
	double t0 = now_ms();
	struct stp_cx_epoch h = { 0 };
	char *buf = NULL;
	size_t n = 0;
	int closed = swap_copies(), i;
	FILE *f = open_memstream(&buf, &n);

	if (!f)
		return;
	h.seq = ++seq;
	h.start_ns = start_ns;
	h.end_ns = start_ns = real_ns();
	h.final = final;
	for (i = 0; i < CX_VITALS_MAX; i++) {
		if (!cx_has_row(sk, i))
			continue;
		h.nvitals++;
		h.nsamples += cx_nsamples(&sk->v[i].copy[closed]);
	}
	put_rec(f, STP_CX_EPOCH, &h, sizeof(h), NULL, 0);
	for (i = 0; i < CX_VITALS_MAX; i++) {
		struct cx_copy *c = &sk->v[i].copy[closed];
		long ns = c->claimed < CX_SAMPLES ? c->claimed : CX_SAMPLES;

		if (!cx_has_row(sk, i))
			continue;
		vital_rec(f, i, closed);
		for (long j = 0; j < ns; j++)
			if (c->samples[j].ready)
				sample_rec(f, i, &c->samples[j]);
	}
	fclose(f);
	fflush(stdout);
	epochs_take(epochs, buf, n, stdout, t0);
	cx_clear(sk, closed);
}

void stp_u_cx_tick(void)
{
	if (!sk || !ctl->started || now_ms() < next_ms)
		return;
	close_epoch(0);
	next_ms += epoch_ms;
}

void stp_u_cx_final(void)
{
	if (!sk || !ctl->started)
		return;
	__atomic_store_n(&ctl->started, 0, __ATOMIC_RELEASE);
	close_epoch(1);
	epochs_free(epochs);
	epochs = NULL;
}
