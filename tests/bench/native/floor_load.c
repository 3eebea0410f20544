// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BPF floor's loader (tests/bench/vitals_bpf.sh): loads floor.bpf.o,
 * attaches its counting programs to the points it is given, the way
 * stp's runner attaches the script's (staprun/bpf/main.c): raw
 * tracepoints by name (no tracefs needed), sampling perf events opened
 * on every CPU with the script's type, config and period.  Then it waits
 * for SIGINT or SIGTERM and prints each point's hits.
 *
 *   floor_load [-t TRACEPOINT]... [-p TYPE:CONFIG:PERIOD]... OBJECT
 *
 * Prints "armed N" once every point is attached (the benchmark waits for
 * it), then at the end "hits POINT N" for each.  Exit status 0, or 1 with
 * a message when a point cannot be attached.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <bpf/libbpf.h>

#define TP_MAX 16		/* ORDER: floor.bpf.c's programs */
#define PE_MAX 4

struct point {
	const char *name;	/* the tracepoint, or the perf spec */
	int slot;		/* in the hits map */
};

static struct point tps[TP_MAX], pes[PE_MAX];
static int ntp, npe;
static volatile sig_atomic_t stop;

static void on_signal(int sig)
{
	(void)sig;
	stop = 1;
}

static void usage(void)
{
	fprintf(stderr, "usage: floor_load [-t TRACEPOINT]... [-p TYPE:CONFIG:PERIOD]... OBJECT\n");
	exit(2);
}

/* One sampling event per CPU, each running prog; the number attached. */
static int attach_perf(struct bpf_program *prog, const char *spec)
{
	struct perf_event_attr pa = { .size = sizeof(pa) };
	unsigned long long config, period;
	int ok = 0;

	if (sscanf(spec, "%u:%llu:%llu", &pa.type, &config, &period) != 3 || !period) {
		fprintf(stderr, "floor_load: bad perf event %s\n", spec);
		exit(2);
	}
	pa.config = config;
	pa.sample_period = period;
	for (int cpu = 0; cpu < libbpf_num_possible_cpus(); cpu++) {
		int fd = syscall(__NR_perf_event_open, &pa, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);

		if (fd < 0)
			continue;	/* an offline CPU */
		if (!bpf_program__attach_perf_event(prog, fd)) {
			close(fd);
			continue;
		}
		ok++;
	}
	return ok;
}

static struct bpf_program *prog(struct bpf_object *obj, const char *kind, int i)
{
	char name[16];
	struct bpf_program *p;

	snprintf(name, sizeof(name), "%s%d", kind, i);
	p = bpf_object__find_program_by_name(obj, name);
	if (!p) {
		fprintf(stderr, "floor_load: no program %s in the object\n", name);
		exit(1);
	}
	return p;
}

/* Only the programs that have a point are loaded. */
static struct bpf_object *load(const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int i;

	if (!obj) {
		fprintf(stderr, "floor_load: cannot open %s: %s\n", path, strerror(errno));
		exit(1);
	}
	for (i = ntp; i < TP_MAX; i++)
		bpf_program__set_autoload(prog(obj, "tp", i), false);
	for (i = npe; i < PE_MAX; i++)
		bpf_program__set_autoload(prog(obj, "pe", i), false);
	if (bpf_object__load(obj)) {
		fprintf(stderr, "floor_load: cannot load %s: %s\n", path, strerror(errno));
		exit(1);
	}
	return obj;
}

static void attach(struct bpf_object *obj)
{
	for (int i = 0; i < ntp; i++)
		if (!bpf_program__attach_raw_tracepoint(prog(obj, "tp", i), tps[i].name)) {
			fprintf(stderr, "floor_load: cannot attach to %s: %s\n", tps[i].name,
				strerror(errno));
			exit(1);
		}
	for (int i = 0; i < npe; i++)
		if (!attach_perf(prog(obj, "pe", i), pes[i].name)) {
			fprintf(stderr, "floor_load: cannot open perf event %s on any CPU\n",
				pes[i].name);
			exit(1);
		}
}

/* A point's hits, summed over the CPUs. */
static uint64_t hits(struct bpf_object *obj, int slot)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *v = calloc(ncpu, sizeof(*v)), n = 0;
	__u32 key = slot;

	if (!v || bpf_map__lookup_elem(bpf_object__find_map_by_name(obj, "hits"), &key,
				       sizeof(key), v, ncpu * sizeof(*v), 0))
		return 0;
	for (int c = 0; c < ncpu; c++)
		n += v[c];
	free(v);
	return n;
}

int main(int argc, char **argv)
{
	struct bpf_object *obj;
	int opt;

	while ((opt = getopt(argc, argv, "t:p:")) != -1) {
		if (opt == 't' && ntp < TP_MAX) {
			tps[ntp] = (struct point){ optarg, ntp };
			ntp++;
		} else if (opt == 'p' && npe < PE_MAX) {
			pes[npe] = (struct point){ optarg, TP_MAX + npe };
			npe++;
		} else {
			usage();
		}
	}
	if (optind != argc - 1)
		usage();
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	obj = load(argv[optind]);
	attach(obj);
	printf("armed %d\n", ntp + npe);
	fflush(stdout);
	while (!stop)
		pause();
	for (int i = 0; i < ntp; i++)
		printf("hits %s %" PRIu64 "\n", tps[i].name, hits(obj, tps[i].slot));
	for (int i = 0; i < npe; i++)
		printf("hits %s %" PRIu64 "\n", pes[i].name, hits(obj, pes[i].slot));
	bpf_object__close(obj);
	return 0;
}
