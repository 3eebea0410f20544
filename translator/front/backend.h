/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A backend: passes 3 to 5 for one runtime, behind one interface.  The
 * driver (driver.c) picks one by --runtime and hands it the program pass
 * 2 resolved; passes 1 and 2 call none of this.
 *
 *   kmod  ../kmod/passes.c: C for a kernel module (access.c, emit*.c),
 *         kbuild and the module cache (build.c), stprun (run.c)
 *   bpf   ../bpf/passes.c: restricted C for the kernel side and C for the
 *         user side (gen*.c), clang and libbpf (build.c), the runner
 */
#ifndef STP_BACKEND_H
#define STP_BACKEND_H

struct session;
struct elab;

struct backend {
	const char *name;	/* --runtime=NAME */
	/* kernel types from BTF, not DWARF: @cast, and a kernel function's
	 * parameters without debuginfo (pass 2 reads it in the session) */
	int types_by_btf;
	/* Passes 3 to s->last_pass of e: 0, or the exit status (1) after
	 * saying what failed. */
	int (*passes)(struct session *s, struct elab *e);
};

extern const struct backend kmod_backend;
extern const struct backend bpf_backend;

/* Milliseconds on the monotonic clock, for the passes' -v timings. */
double driver_now_ms(void);

#endif
