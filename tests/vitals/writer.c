// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The store's writer for tests/vitals/run.sh, linked with store/store.c
 * as stprun will be.  Modes:
 *
 *   writer fixture DB        the known epochs of fixture.expect: odd
 *                            strings, an unavailable vital, no texts
 *   writer epochs DB FIRST COUNT [BUSY TRIM_BYTES TRIM_AGE_S]
 *                            epochs FIRST.. (epoch n starts at n minutes),
 *                            trimmed after each put; prints what trim did
 *                            and the bytes per epoch in use
 *   writer loop DB FIRST [TRIM_BYTES]
 *                            large epochs until killed, writing
 *                            "begin N" before each put and "done N" after
 *   writer expect N...       for each epoch N of loop: its start as dump
 *                            prints it, N, and its number of samples
 *   writer hca               the HCA blob's round trip
 *   writer orphans DB        how many texts (exec, site, stack) no sample
 *                            of the store names
 *
 * Every epoch's content follows from its number, so a test knows what a
 * complete epoch holds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "../../store/hca.h"
#include "../../store/read.h"
#include "../../store/store.h"
#include "when.h"

#define BASE_NS 1795478400000000000ULL	/* 2026-11-24T00:00:00Z */
#define MIN_NS 60000000000ULL
#define NVITALS 11
#define LOOP_COUNTERS 1024

static const char *const vital_names[NVITALS] = {
	"cpuu", "l2mi", "sched", "blck", "blio", "kmem", "umem", "syscall",
	"sig", "sock", "lock",
};

static uint64_t rng;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void die(char *err)
{
	fprintf(stderr, "writer: %s\n", err);
	exit(1);
}

static struct vstore *open_store(const char *path)
{
	char *err;
	struct vstore *st = vstore_open(path, &err);

	if (!st)
		die(err);
	return st;
}

static void put(struct vstore *st, const struct vx_epoch *e)
{
	char *err;

	if (vstore_put(st, e, &err))
		die(err);
}

/* The fixture: what fixture.expect shows, one case per sample. */
static uint32_t fixture_hca[256];

static const struct vx_sample fixture_samples1[] = {
	{ "cpuu", BASE_NS + 67201500123456ULL, 0xffffffff81234500ULL, 1,
	  "/usr/bin/spin", 1000, 4242, "main+0x10 [spin]", "pc=0x401136",
	  "asm_sysvec_apic_timer_interrupt+0x16 [kernel]\nmain+0x10 [spin]\n"
	  "__libc_start_call_main+0x7a [libc.so.6]", 4096 },
	{ "cpuu", BASE_NS + 67259999999999ULL, UINT64_MAX, 1, "[kworker/0:1]",
	  0, 12, "memset_orig+0x33 [kernel]", "pc=0xffffffff81a0b2c3",
	  "memset_orig+0x33 [kernel]", UINT32_MAX },
	{ "kmem", BASE_NS + 67230000000000ULL, 7, -2,
	  "/tmp/odd \"quoted\"\\back\tslash", 65534, 1,
	  "line\nbreak\r\b\f [x]",
	  "ctl=\x01\x1f\x7f utf8=\xc3\xb1\xe2\x82\xac\xf0\x9f\x98\x80 "
	  "ls=\xe2\x80\xa8 ps=\xe2\x80\xa9",
	  NULL, 1 },
	{ "kmem", BASE_NS + 67230000000000ULL, 8, 3,
	  "bad=\xff \xc0\x80 \xed\xa0\x80 \xf4\x90\x80\x80 \xe2\x82", 1, 2,
	  "", "", "a\n\nb\n", 0 },
};

static const struct vx_sample fixture_samples3[] = {
	{ "cpuu", BASE_NS + 67320000000000ULL, 0, 0, NULL, 0, 0, NULL, NULL,
	  NULL, 0 },
};

static void fixture(const char *path)
{
	struct vx_vital v1[] = {
		{ "cpuu", 120, 120, 37, 2, 0, 2, 1, NULL, fixture_hca, 256 },
		{ "l2mi", 0, 0, 0, 0, 0, 2, 0,
		  "no last-level-cache-miss counter (QEMU TCG)", NULL, 0 },
		{ "kmem", -5, 12, 9, 2, 4, 4, 1, "ignored when available",
		  fixture_hca, 256 },
	};
	struct vx_vital v2[] = {
		{ "cpuu", 0, 0, 0, 0, 0, 1, 1, NULL, NULL, 0 },
		{ "l2mi", 0, 0, 0, 0, 0, 1, 0, NULL, NULL, 0 },
	};
	struct vx_vital v3[] = {
		{ "cpuu", INT64_MAX, UINT64_MAX >> 1, 1, 1, 0, 1u << 30, 1,
		  NULL, NULL, 0 },
	};
	struct vx_epoch e[] = {
		{ BASE_NS + 67200000000000ULL, BASE_NS + 67260000000000ULL,
		  "box", 3, v1, 4, fixture_samples1 },
		{ BASE_NS + 67260000000000ULL, BASE_NS + 67320000000000ULL,
		  "box", 2, v2, 0, NULL },
		{ BASE_NS + 67320000000000ULL, BASE_NS + 67380000000000ULL,
		  NULL, 1, v3, 1, fixture_samples3 },
	};
	struct vstore *st = open_store(path);

	for (int i = 0; i < 256; i++)
		fixture_hca[i] = i % 3 ? 0 : (uint32_t)i * 1000003u;
	for (size_t i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		put(st, &e[i]);
	vstore_close(st);
}

/* Generated epochs: busy (as a loaded machine's) or large (for loop). */
#define MAX_SAMPLES 2500
#define SITES 600
#define EXECS 30

static struct vx_vital gen_vitals[NVITALS];
static uint32_t gen_hca[NVITALS][LOOP_COUNTERS];
static struct vx_sample gen_samples[MAX_SAMPLES];
static char gen_exec[MAX_SAMPLES][32], gen_site[MAX_SAMPLES][48];
static char gen_data[MAX_SAMPLES][48], gen_stack[MAX_SAMPLES][768];

/* Skewed towards small numbers, as a Zipf draw of n would be. */
static unsigned skewed(unsigned n)
{
	return (unsigned)(rnd() % (rnd() % n + 1));
}

static void site_name(char *buf, size_t n, unsigned k)
{
	snprintf(buf, n, "func_%03u+0x%x [%s]", k, (k * 37) % 0x400,
		 k % 5 ? "kernel" : "ext4");
}

/* Stack number k: 6 to 14 frames, the same text whenever k is. */
static void stack_text(char *buf, size_t n, uint64_t k)
{
	uint64_t saved = rng;
	size_t len = 0;
	char site[48];

	rng = k * 0x9e3779b97f4a7c15ULL + 1;
	for (unsigned f = 0, frames = 6 + rnd() % 9; f < frames; f++) {
		site_name(site, sizeof(site), (unsigned)(rnd() % SITES));
		len += (size_t)snprintf(buf + len, n - len, "%s%s",
					f ? "\n" : "", site);
	}
	rng = saved;
}

static void gen_sample(unsigned i, uint64_t n, int busy, uint64_t start)
{
	struct vx_sample *x = &gen_samples[i];
	unsigned v = i % NVITALS;
	uint64_t label;

	snprintf(gen_exec[i], sizeof(gen_exec[i]), "/usr/bin/prog%02u",
		 skewed(EXECS));
	site_name(gen_site[i], sizeof(gen_site[i]), skewed(SITES));
	/* busy: labels (masked PCs), data and stacks recur; large: random */
	label = busy ? 0xffffffff81000000ULL + ((uint64_t)skewed(300) << 8)
		     : rnd();
	snprintf(gen_data[i], sizeof(gen_data[i]), "pc=0x%llx arg=%u",
		 (unsigned long long)(label | (rnd() & 0xff)),
		 busy ? skewed(64) : (unsigned)rnd());
	stack_text(gen_stack[i], sizeof(gen_stack[i]),
		   busy ? skewed(3000) : n * MAX_SAMPLES + i);
	*x = (struct vx_sample){ vital_names[v], start + rnd() % MIN_NS,
		label, 1 + (int64_t)(rnd() % 8), gen_exec[i],
		(uint32_t)skewed(5) * 1000, 1000 + skewed(200), gen_site[i],
		gen_data[i], gen_stack[i], 1u << skewed(20) };
}

static void gen_vital(unsigned v, uint32_t counters, unsigned nsamples)
{
	for (uint32_t c = 0; c < counters; c++)
		gen_hca[v][c] = rnd() % 10 ? (uint32_t)skewed(4000) : 0;
	gen_vitals[v] = (struct vx_vital){ vital_names[v],
		(int64_t)(rnd() % 100000), rnd() % 100000, rnd() % 4000,
		nsamples, rnd() % 50, 1ULL << (rnd() % 8), v != 1,
		v != 1 ? NULL : "no last-level-cache-miss counter", gen_hca[v],
		counters };
}

/* Epoch n's number of samples in loop mode. */
static unsigned loop_samples(uint64_t n)
{
	return 600 + (unsigned)(n * 37 % 400);
}

/* Epoch n: busy, 40 samples per vital and 256 counters (the sketch's
 * defaults), or large, for loop. */
static struct vx_epoch gen_epoch(uint64_t n, int busy)
{
	unsigned ns = busy ? 40 * NVITALS : loop_samples(n);
	uint64_t start = BASE_NS + n * MIN_NS;

	rng = n * 2654435761ULL + 88172645463325252ULL;
	for (unsigned v = 0; v < NVITALS; v++)
		gen_vital(v, busy ? 256 : LOOP_COUNTERS, ns / NVITALS);
	for (unsigned i = 0; i < ns; i++)
		gen_sample(i, n, busy, start);
	return (struct vx_epoch){ start, start + MIN_NS, "box", NVITALS,
		gen_vitals, ns, gen_samples };
}

static void epochs(const char *path, char **argv)
{
	uint64_t first = strtoull(argv[0], NULL, 0);
	uint64_t count = strtoull(argv[1], NULL, 0);
	int busy = !strcmp(argv[2], "busy");
	uint64_t max_bytes = strtoull(argv[3], NULL, 0);
	uint64_t max_age = strtoull(argv[4], NULL, 0);
	struct vstore *st = open_store(path);
	struct vx_epoch e;
	long gone = 0;
	char *err;
	int d;

	for (uint64_t n = first; n < first + count; n++) {
		e = gen_epoch(n, busy);
		put(st, &e);
		d = vstore_trim(st, max_bytes, max_age, &err);
		if (d < 0)
			die(err);
		gone += d;
	}
	vstore_close(st);
	printf("put %llu, trimmed %ld\n", (unsigned long long)count, gone);
}

static void say(const char *what, uint64_t n)
{
	char line[64];
	int len = snprintf(line, sizeof(line), "%s %llu\n", what,
			   (unsigned long long)n);

	/* one write, so a kill leaves whole lines */
	if (write(1, line, (size_t)len) != len)
		exit(1);
}

static void loop(const char *path, uint64_t first, uint64_t max_bytes)
{
	struct vstore *st = open_store(path);
	struct vx_epoch e;
	char *err;

	for (uint64_t n = first;; n++) {
		e = gen_epoch(n, 0);
		say("begin", n);
		put(st, &e);
		say("done", n);
		if (max_bytes && vstore_trim(st, max_bytes, 0, &err) < 0)
			die(err);
	}
}

static void expect(int argc, char **argv)
{
	char buf[WHEN_LEN];
	uint64_t n;

	for (int i = 0; i < argc; i++) {
		n = strtoull(argv[i], NULL, 0);
		printf("%s %llu %u\n",
		       when_format((int64_t)(BASE_NS + n * MIN_NS), buf),
		       (unsigned long long)n, loop_samples(n));
	}
}

static int hca_failed;

static void hca_case(const char *name, int ok)
{
	printf("%s hca %s\n", ok ? "ok" : "FAIL", name);
	hca_failed += !ok;
}

/* Whether occ holds exactly the non-zero counters of c. */
static int same_bits(const uint64_t *occ, const uint32_t *c, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		if (!(occ[i / 64] >> (i % 64) & 1) != !c[i])
			return 0;
	return 1;
}

/*
 * Encode n counters and decode them again: the non-zero ones marked, and
 * no bitmap of a different byte count, nor a cut blob, taken for it.
 */
static void hca_trip(const char *name, const uint32_t *c, uint32_t n)
{
	uint64_t back[LOOP_COUNTERS / 64 + 2];
	size_t len;
	unsigned char *blob = vhca_encode(c, n, &len);
	int ok = !vhca_decode(blob, len, back, n) && same_bits(back, c, n) &&
		 vhca_decode(blob, len, back, n + 8) &&
		 (n <= 8 || vhca_decode(blob, len, back, n - 8)) &&
		 vhca_decode(blob, len - 1, back, n);

	hca_case(name, ok);
	free(blob);
}

/* The fixture's first cpuu HCA, read back from the store. */
static void hca_stored(const char *path)
{
	sqlite3 *db;
	sqlite3_stmt *s;
	uint64_t back[4];
	int ok = 0;

	sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL);
	if (!sqlite3_prepare_v2(db, "SELECT hca_len, hca FROM epoch_vital"
				" ORDER BY epoch_id, seq LIMIT 1", -1, &s,
				NULL) && sqlite3_step(s) == SQLITE_ROW)
		ok = sqlite3_column_int(s, 0) == 256 &&
		     !vhca_decode(sqlite3_column_blob(s, 1),
				  (size_t)sqlite3_column_bytes(s, 1), back, 256) &&
		     same_bits(back, fixture_hca, 256);
	sqlite3_finalize(s);
	sqlite3_close(db);
	hca_case("stored in the fixture", ok);
}

static void hca(const char *fixture_db)
{
	static const uint32_t edges[] = { 0, 1, 127, 128, 16383, 16384,
		(1u << 21) - 1, 1u << 21, (1u << 28) - 1, 1u << 28, UINT32_MAX };
	uint32_t c[LOOP_COUNTERS] = { 0 };
	size_t len;
	unsigned char *blob = vhca_encode(c, 256, &len);

	hca_case("zeros are small", len < 16);
	free(blob);
	hca_trip("zeros", c, 256);
	hca_trip("varint edges", edges, sizeof(edges) / sizeof(edges[0]));
	rng = 1;
	for (int i = 0; i < LOOP_COUNTERS; i++)
		c[i] = (uint32_t)rnd();
	hca_trip("random", c, LOOP_COUNTERS);
	hca_trip("one", edges + 10, 1);
	for (int i = 0; i < 256; i++)
		fixture_hca[i] = i % 3 ? 0 : (uint32_t)i * 1000003u;
	hca_stored(fixture_db);
	exit(hca_failed != 0);
}

static void name_text(sqlite3_stmt *s, int k, const char *text, int n)
{
	sqlite3_bind_int(s, 1, k);
	sqlite3_bind_text(s, 2, text, n, SQLITE_STATIC);
	sqlite3_step(s);
	sqlite3_reset(s);
}

/* Each text the samples name, into the temp table named. */
static int name_texts(void *arg, const struct vr_epoch *e,
		      const struct vx_sample *x)
{
	sqlite3_stmt *s = arg;
	const char *text[3] = { x->exec, x->site, x->stack };

	(void)e;
	for (int k = 0; k < 3; k++)
		if (text[k])
			name_text(s, k, text[k], -1);
	/* a stack's frames are sites */
	for (const char *f = x->stack, *nl; f; f = nl ? nl + 1 : NULL) {
		nl = strchr(f, '\n');
		name_text(s, 1, f, nl ? (int)(nl - f) : -1);
	}
	return 0;
}

static int each_epoch_texts(void *arg, const struct vr_epoch *e)
{
	struct vread *r = ((void **)arg)[0];

	return vread_samples(r, e, name_texts, ((void **)arg)[1]);
}

static void orphans(const char *path)
{
	static const char count_sql[] =
		"SELECT (SELECT count(*) FROM exec WHERE path NOT IN"
		" (SELECT t FROM temp.named WHERE k = 0)) +"
		" (SELECT count(*) FROM site WHERE name NOT IN"
		" (SELECT t FROM temp.named WHERE k = 1)) +"
		/* a stack is its frames' ids: one row per text named */
		" (SELECT count(*) FROM stack) -"
		" (SELECT count(DISTINCT t) FROM temp.named WHERE k = 2)";
	char *err;
	struct vread *r = vread_open(path, &err);
	sqlite3_stmt *ins, *count;
	void *arg[2];

	if (!r)
		die(err);
	/* a read-only store still takes temp tables */
	if (sqlite3_exec(vread_db(r), "CREATE TEMP TABLE named(k, t)", NULL,
			 NULL, NULL) ||
	    sqlite3_prepare_v2(vread_db(r), "INSERT INTO temp.named"
			       " VALUES(?1, ?2)", -1, &ins, NULL))
		die(strdup(sqlite3_errmsg(vread_db(r))));
	arg[0] = r;
	arg[1] = ins;
	if (vread_epochs(r, INT64_MIN, INT64_MAX, each_epoch_texts, arg))
		die(strdup(vread_error(r)));
	sqlite3_finalize(ins);
	if (sqlite3_prepare_v2(vread_db(r), count_sql, -1, &count, NULL) ||
	    sqlite3_step(count) != SQLITE_ROW)
		die(strdup(sqlite3_errmsg(vread_db(r))));
	printf("%lld\n", (long long)sqlite3_column_int64(count, 0));
	sqlite3_finalize(count);
	vread_close(r);
}

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "fixture"))
		fixture(argv[2]);
	else if (argc == 8 && !strcmp(argv[1], "epochs"))
		epochs(argv[2], argv + 3);
	else if ((argc == 4 || argc == 5) && !strcmp(argv[1], "loop"))
		loop(argv[2], strtoull(argv[3], NULL, 0),
		     argc == 5 ? strtoull(argv[4], NULL, 0) : 0);
	else if (argc >= 2 && !strcmp(argv[1], "expect"))
		expect(argc - 2, argv + 2);
	else if (argc == 3 && !strcmp(argv[1], "hca"))
		hca(argv[2]);
	else if (argc == 3 && !strcmp(argv[1], "orphans"))
		orphans(argv[2]);
	else {
		fputs("usage: writer fixture|epochs|loop|expect|hca|orphans ...\n",
		      stderr);
		return 2;
	}
	return 0;
}
