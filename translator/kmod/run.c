// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 5: hand the module to stprun, on this machine, or with
 * --remote=qemu in a throwaway guest booting the target kernel
 * (staprun/stp-qemu), whose output and exit status come back as if
 * stprun had run here.
 */
#include "../front/session.h"
#include "build.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* A program shipped with stp: next to the stp binary, else on PATH. */
static const char *helper(const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n > 0) {
		char *slash;
		const char *p;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash) {
			*slash = '\0';
			p = ar_printf("%s/%s", exe, name);
			if (!access(p, X_OK))
				return p;
			p = ar_printf("%s/staprun/%s", exe, name);
			if (!access(p, X_OK))
				return p;
			p = ar_printf("%s/../libexec/stp/%s", exe, name);
			if (!access(p, X_OK))
				return p;
		}
	}
	return name;
}

static void stprun_args(const struct session *s, struct vec *av, const char *ko)
{
	for (int i = 0; i < s->verbose; i++)
		vec_push(av, "-v");
	if (s->output_file) {
		vec_push(av, "-o");
		vec_push(av, (void *)s->output_file);
	}
	if (s->rotate) {
		vec_push(av, "-S");
		vec_push(av, (void *)s->rotate);
	}
	if (s->detach)
		vec_push(av, "-F");
	if (s->command) {
		vec_push(av, "-c");
		vec_push(av, (void *)s->command);
	}
	if (s->target_pid) {
		vec_push(av, "-x");
		vec_push(av, ar_printf("%ld", s->target_pid));
	}
	if (s->buffer_mb) {
		vec_push(av, "-b");
		vec_push(av, ar_printf("%d", s->buffer_mb));
	}
	if (s->vitals_db) {
		vec_push(av, "--vitals-db");
		vec_push(av, (void *)s->vitals_db);
	}
	if (s->vitals_limit) {
		vec_push(av, "--vitals-limit");
		vec_push(av, (void *)s->vitals_limit);
	}
	for (int i = 0; i < s->globals.len; i++) {
		vec_push(av, "-G");
		vec_push(av, s->globals.v[i]);
	}
	vec_push(av, (void *)ko);
}

static const char *shell_quote(const char *a)
{
	struct sbuf sb = { 0 };
	const char *r;

	sb_putc(&sb, '\'');
	for (; *a; a++) {
		if (*a == '\'')
			sb_puts(&sb, "'\\''");
		else
			sb_putc(&sb, *a);
	}
	sb_putc(&sb, '\'');
	r = ar_printf("%s", sb.s);
	free(sb.s);
	return r;
}

static int run_remote_qemu(struct session *s, const char *ko)
{
	struct vec av = { 0 }, cmd = { 0 };
	struct sbuf script = { 0 };
	const char *tmpl;
	int fd = tmp_file("stp-remote", "", &tmpl);
	const char *base = strrchr(ko, '/') ? strrchr(ko, '/') + 1 : ko;
	const char *kernel = ar_printf("%s/boot/vmlinuz-%s", s->sysroot ? s->sysroot : "",
				       s->kernel_release);

	if (fd < 0)
		return 1;
	stprun_args(s, &cmd, ar_printf("/files/%s", base));
	sb_puts(&script, "stprun");
	for (int i = 0; i < cmd.len; i++)
		sb_printf(&script, " %s", shell_quote(cmd.v[i]));
	sb_puts(&script, "\n");
	if (write(fd, script.s, script.len) != (ssize_t)script.len) {
		close(fd);
		unlink(tmpl);
		return 1;
	}
	close(fd);
	/* the guest gets the stprun that goes with this stp */
	if (strchr(helper("stprun"), '/'))
		setenv("STPRUN", helper("stprun"), 0);
	vec_push(&av, (void *)helper("stp-qemu"));
	vec_push(&av, "--kernel");
	vec_push(&av, (void *)kernel);
	if (s->smp) {
		vec_push(&av, "--smp");
		vec_push(&av, ar_printf("%d", s->smp));
	}
	vec_push(&av, (void *)tmpl);
	vec_push(&av, (void *)ko);
	vec_push(&av, NULL);
	if (s->verbose)
		fprintf(stderr, "Pass 5: starting a guest with %s\n", kernel);
	{
		pid_t pid = fork();
		int st = 0;

		if (!pid) {
			execvp(av.v[0], (char **)av.v);
			perror("stp: stp-qemu");
			_exit(127);
		}
		waitpid(pid, &st, 0);
		unlink(tmpl);
		return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
	}
}

int run_pass5(struct session *s, const char *ko)
{
	struct vec av = { 0 };

	if (s->remote) {
		if (strcmp(s->remote, "qemu")) {
			fprintf(stderr, "stp: --remote=%s: only 'qemu' is known\n", s->remote);
			return 1;
		}
		return run_remote_qemu(s, ko);
	}
	vec_push(&av, (void *)helper("stprun"));
	stprun_args(s, &av, ko);
	vec_push(&av, NULL);
	if (s->verbose)
		fprintf(stderr, "Pass 5: starting run.\n");
	fflush(NULL);
	execvp(av.v[0], (char **)av.v);
	fprintf(stderr, "stp: cannot run %s: %s\n", (const char *)av.v[0], strerror(errno));
	return 1;
}

/* helper(), for the markers' tapset (markers.c). */
const char *run_helper(const char *name)
{
	return helper(name);
}
