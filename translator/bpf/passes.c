// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bpf backend (../front/backend.h): pass 3 (the kernel side's and the
 * user side's C, gen*.c), pass 4 (clang, with the object cache, build.c)
 * and pass 5 (the runner) of a resolved program.
 */
#include "bpf.h"
#include "../front/backend.h"

#include <stdio.h>

static int run_bpf_passes(struct session *s, struct elab *e)
{
	const char *key = bpf_cache_key(s);
	struct sbuf kern = { 0 }, user = { 0 };
	double t0 = driver_now_ms();

	if (s->last_pass == 3 || !bpf_cached(key)) {
		if (bpf_translate(e, &kern, &user)) {
			fprintf(stderr, "Pass 3: translation failed: %d error%s.\n", diag_errors(),
				diag_errors() == 1 ? "" : "s");
			return 1;
		}
		if (s->last_pass == 3) {
			fputs(kern.s, stdout);
			fputs(user.s, stdout);
			return 0;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 3: translated to C in %.1f ms.\n", driver_now_ms() - t0);
		t0 = driver_now_ms();
		if (bpf_build(s, key, kern.s, user.s)) {
			fprintf(stderr, "Pass 4: compilation failed.\n");
			return 1;
		}
		if (s->verbose)
			fprintf(stderr, "Pass 4: compiled C into \"%s/prog.bpf.o\" in %.0f ms.\n",
				key, driver_now_ms() - t0);
	} else if (s->verbose) {
		fprintf(stderr, "Pass 4: using cached %s/prog.bpf.o\n", key);
	}
	if (s->last_pass == 4) {
		puts(ar_printf("%s/prog.bpf.o", key));
		return 0;
	}
	return bpf_run(s, key);
}

/* BPF programs read the kernel's types as BTF has them (CO-RE) */
const struct backend bpf_backend = {
	.name = "bpf", .types_by_btf = 1, .passes = run_bpf_passes,
};
