// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The runner of a --runtime=bpf script (pass 5).  It is a library,
 * linked at pass 4 with the script's user side (begin/end/error probes
 * compiled to C by the same generator as the kernel side), so user
 * space runs the whole language without an interpreter.  Its steps:
 * load the BPF object with libbpf, set the globals' initial values, run
 * the begin probes, attach the kernel probes, print the ring buffer's
 * records until exit() or a signal, run the end probes, show the
 * globals written and never read.
 *
 *   usage: SCRIPT-RUNNER OBJECT.bpf.o [-c COMMAND | -x PID]
 *
 * -c runs COMMAND (split into words as stprun does; /bin/sh only for
 * what needs a shell) once the probes are attached, and the run ends
 * when it exits; target() is its pid, or -x's PID.
 */
#include "run.h"
#include "../cmdline.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/perf_event.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

int stp_fd[256];
void *stp_gp;
volatile sig_atomic_t stp_u_stop;

static pid_t child;		/* -c's command */
static int child_go = -1;	/* written once the probes are attached */

/* The command, forked now (target() knows its pid), waiting to exec;
 * split into words as stprun does (staprun/cmdline.c), so that a simple
 * command runs without a shell and target() is the program itself. */
static int start_command(const char *cmd)
{
	static struct cmd c;
	char *err = NULL;
	int p[2];
	char ch;

	if (cmd_parse(&c, cmd, &err)) {
		fprintf(stderr, "ERROR: -c: %s\n", err);
		free(err);
		return -1;
	}
	if (pipe(p))
		return -1;
	child = fork();
	if (child < 0)
		return -1;
	if (!child) {
		close(p[1]);
		if (read(p[0], &ch, 1) != 1)
			_exit(0);
		for (int i = 0; i < c.nenv; i++)
			putenv(c.env[i]);
		execvp(c.path, c.argv);
		fprintf(stderr, "ERROR: -c: cannot run %s: %s\n", c.path, strerror(errno));
		_exit(127);
	}
	close(p[0]);
	child_go = p[1];
	return 0;
}

static void release_command(void)
{
	if (child_go >= 0) {
		if (write(child_go, "g", 1) != 1)
			perror("stp: -c");
		close(child_go);
		child_go = -1;
	}
}

static int command_done(void)
{
	return child > 0 && waitpid(child, NULL, WNOHANG) == child;
}

static void on_signal(int sig)
{
	(void)sig;
	stp_u_stop = 1;
}

/* libbpf's messages (the verifier's log among them) are kept for
 * stp_u_verifier_error(); shown as they come only with -v. */
static int quiet_libbpf(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char *buf = NULL;	/* the verifier's log comes whole: no fixed size */
	va_list copy;

	if (level == LIBBPF_DEBUG)
		return 0;
	va_copy(copy, ap);
	if (vasprintf(&buf, fmt, copy) < 0)
		buf = NULL;
	va_end(copy);
	if (buf)
		stp_u_log_append(buf);
	free(buf);
	return 0;
}

static int find_maps(struct bpf_object *obj)
{
	struct bpf_map *bss = bpf_object__find_map_by_name(obj, ".bss");
	size_t size;

	for (int i = 0; i < stp_prog.nglobals; i++) {
		const struct stp_u_global *g = &stp_prog.globals[i];

		stp_fd[i] = -1;
		if (g->map)
			stp_fd[i] = bpf_object__find_map_fd_by_name(obj, g->map);
	}
	/* libbpf 1.1 maps .bss for skeletons only: map it here, shared
	 * with the kernel's copy */
	size = bss ? bpf_map__value_size(bss) : 0;
	stp_gp = bss ? mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, bpf_map__fd(bss), 0)
		: MAP_FAILED;
	if (stp_gp == MAP_FAILED) {
		stp_gp = NULL;
		fprintf(stderr, "stp: the BPF object's globals are not mapped\n");
		return -1;
	}
	return 0;
}

static int load(struct bpf_object **objp, const char *path)
{
	struct bpf_object *obj = bpf_object__open_file(path, NULL);
	int rc;

	if (!obj) {
		fprintf(stderr, "stp: cannot open %s: %s\n", path, strerror(errno));
		return -1;
	}
	rc = bpf_object__load(obj);
	/* EACCES is the verifier's refusal, EPERM the missing capabilities */
	if (rc == -EPERM) {
		fprintf(stderr, "stp: loading BPF programs needs root, or the capabilities "
			"CAP_BPF and CAP_PERFMON (%s)\n", strerror(-rc));
		return -1;
	}
	if (rc) {
		stp_u_verifier_error(obj, rc);
		return -1;
	}
	*objp = obj;
	return find_maps(obj);
}

static int perf_open(const struct stp_u_attach *a, int cpu)
{
	struct perf_event_attr pa = {
		.type = a->type, .size = sizeof(pa), .config = a->config,
		.sample_period = a->period, .freq = a->freq,
	};

	return syscall(__NR_perf_event_open, &pa, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

static int attach_perf(struct bpf_program *p, const struct stp_u_attach *a)
{
	int ncpu = a->how == STP_ATTACH_PERF_CPU0 ? 1 : libbpf_num_possible_cpus();
	int ok = 0;

	for (int cpu = 0; cpu < ncpu; cpu++) {
		int fd = perf_open(a, cpu);

		if (fd < 0)
			continue;	/* an offline CPU */
		if (!bpf_program__attach_perf_event(p, fd)) {
			close(fd);
			continue;
		}
		ok++;
	}
	return ok ? 0 : -1;
}

/* Every process that runs the file, as kmod's process("PATH") probes;
 * the kernel counts a marker's semaphore up while it is attached. */
static int attach_uprobe(struct bpf_program *p, const struct stp_u_attach *a)
{
	LIBBPF_OPTS(bpf_uprobe_opts, o, .ref_ctr_offset = a->ref_ctr,
		    .retprobe = a->retprobe != 0);

	return bpf_program__attach_uprobe_opts(p, -1, a->path, a->offset, &o) ? 0 : -1;
}

static int attach_all(struct bpf_object *obj)
{
	for (int i = 0; i < stp_prog.nattach; i++) {
		const struct stp_u_attach *a = &stp_prog.attach[i];
		struct bpf_program *p = bpf_object__find_program_by_name(obj, a->prog);
		int rc;

		if (!p)
			return -1;
		if (a->how == STP_ATTACH_AUTO)
			rc = bpf_program__attach(p) ? 0 : -errno;
		else if (a->how == STP_ATTACH_UPROBE)
			rc = attach_uprobe(p, a);
		else
			rc = attach_perf(p, a);
		if (rc) {
			fprintf(stderr, "ERROR: cannot attach probe %s: %s\n", a->pp,
				strerror(errno));
			return -1;
		}
	}
	return 0;
}

static int on_record(void *ctx, void *data, size_t size)
{
	(void)ctx;
	stp_u_record(data, size);
	return 0;
}

static void run_loop(struct ring_buffer *rb)
{
	while (!stp_u_stop) {
		int rc = ring_buffer__poll(rb, 100);

		if (rc < 0 && rc != -EINTR)
			break;
		stp_u_cx_tick();
		stp_u_free_tick();
		if (command_done()) {
			child = 0;
			break;
		}
	}
	ring_buffer__consume(rb);
}

static void finish(void)
{
	/* as the kmod runtime: after an error, the error probes, not end */
	stp_u_stopping();
	if (stp_u_errors) {
		if (stp_prog.has_error_probe)
			stp_prog.error();
	} else {
		stp_prog.end();
		stp_u_display();
	}
	fflush(stdout);
	stp_u_report();
}

int main(int argc, char **argv)
{
	struct bpf_object *obj = NULL;
	struct ring_buffer *rb;

	if (argc != 2 && !(argc == 4 && (!strcmp(argv[2], "-c") || !strcmp(argv[2], "-x")))) {
		fprintf(stderr, "usage: %s OBJECT.bpf.o [-c COMMAND | -x PID]\n", argv[0]);
		return 2;
	}
	if (stp_u_globals_check() || stp_u_cx_limits())
		return 1;
	libbpf_set_print(quiet_libbpf);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	if (load(&obj, argv[1]) || stp_u_cx_attach(obj) || stp_u_free_attach(obj))
		return 1;
	stp_u_time_init();
	if (argc == 4 && argv[2][1] == 'x')
		stp_u_set_target(atoll(argv[3]));
	if (argc == 4 && argv[2][1] == 'c') {
		if (start_command(argv[3]))
			return 1;
		stp_u_set_target(child);
	}
	stp_prog.init();
	stp_u_globals_set();
	rb = ring_buffer__new(bpf_object__find_map_fd_by_name(obj, "stp_rb"), on_record,
			      NULL, NULL);
	if (!rb)
		return 1;
	stp_prog.begin();
	if (!stp_u_stop && attach_all(obj))
		stp_u_stop = stp_u_errors = 1;
	if (!stp_u_stop) {
		release_command();
		run_loop(rb);
	}
	/* the sampler's last epoch, while -c's command still runs (its
	 * samples' paths and symbols are read from its /proc entries) */
	stp_u_cx_final();
	if (child > 0) {	/* the run ended first: the command goes too */
		if (child_go >= 0)
			close(child_go);
		kill(child, SIGTERM);
		waitpid(child, NULL, 0);
	}
	finish();
	ring_buffer__free(rb);
	bpf_object__close(obj);
	return stp_u_errors ? 1 : 0;
}
