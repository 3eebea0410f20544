// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Free memory for the vital signs under --runtime=bpf.  The kmod
 * runtime reads the zones' NR_FREE_PAGES counters and nr_swap_pages in
 * the probe (tapsets/vitals.stp); a BPF program cannot reach them (no
 * BTF for global variables, and this kind of kernel's kallsyms has no
 * data symbols).  So the runner reads the same counters from /proc,
 * "pages free" of each DMA32 and Normal zone in /proc/zoneinfo and
 * SwapFree in /proc/meminfo, every 100 ms of its poll loop, into the
 * map runtime/bpf/vitals.h's stp_vt_free() reads.
 */
#include "run.h"
#include "../stprun.h"

#include <bpf/libbpf.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define FREE_PERIOD_MS 100

static int64_t *free_v;		/* the map's value: DMA32, Normal, swap */
static double next_ms;		/* stprun's now_ms(), the monotonic clock */

/* v[0], v[1]: the free pages of every node's DMA32 and Normal zones. */
static void read_zones(int64_t v[2])
{
	FILE *f = fopen("/proc/zoneinfo", "r");
	char line[256], zone[32];
	long long n;
	int node, at = -1;

	v[0] = v[1] = 0;
	while (f && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "Node %d, zone %31s", &node, zone) == 2)
			at = !strcmp(zone, "DMA32") ? 0 : !strcmp(zone, "Normal") ? 1 : -1;
		else if (at >= 0 && sscanf(line, " pages free %lld", &n) == 1) {
			v[at] += n;
			at = -1;
		}
	}
	if (f)
		fclose(f);
}

static int64_t swap_free_pages(void)
{
	FILE *f = fopen("/proc/meminfo", "r");
	char line[128];
	long long kb = 0;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "SwapFree: %lld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb * 1024 / sysconf(_SC_PAGESIZE);
}

void stp_u_free_tick(void)
{
	int64_t v[2];

	if (!free_v || now_ms() < next_ms)
		return;
	read_zones(v);
	free_v[0] = v[0];
	free_v[1] = v[1];
	free_v[2] = swap_free_pages();
	next_ms = now_ms() + FREE_PERIOD_MS;
}

/* Before the probes attach, so that their first events have it too. */
int stp_u_free_attach(struct bpf_object *obj)
{
	struct bpf_map *m = bpf_object__find_map_by_name(obj, "stp_vt_free_map");
	void *p;

	if (!m)
		return 0;	/* no vital sign reads free memory */
	p = mmap(NULL, bpf_map__value_size(m), PROT_READ | PROT_WRITE, MAP_SHARED,
		 bpf_map__fd(m), 0);
	if (p == MAP_FAILED) {
		perror("stp: the free-memory map");
		return -1;
	}
	free_v = p;
	stp_u_free_tick();
	return 0;
}
