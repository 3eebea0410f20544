// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -i: set and show, the options checks and runs take.  Each has a
 * name and the command line's flag (set -r 6.1.0-41-amd64 works as
 * set kernel_release 6.1.0-41-amd64).  They start as the command line
 * gave them.
 */
#include "interactive.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

enum kind { TEXT, FLAG, NUMBER };

struct option_desc {
	const char *name, *flag;
	enum kind kind;
	long lo, hi;		/* NUMBER's range */
	size_t off;		/* in struct session */
	const char *what;
};

#define AT(f) offsetof(struct session, f)

static const struct option_desc options[] = {
	{ "kernel_release", "-r", TEXT, 0, 0, AT(kernel_release),
	  "the target kernel's release (default: this machine's)" },
	{ "sysroot", "--sysroot", TEXT, 0, 0, AT(sysroot),
	  "the target's root directory (boot files, headers, debuginfo)" },
	{ "guru", "-g", FLAG, 0, 1, AT(guru), "guru mode: embedded C, writes to $variables" },
	{ "verbose", "-v", NUMBER, 0, 9, AT(verbose), "how much each pass reports (0-9)" },
	{ "last_pass", "-p", NUMBER, 1, 5, AT(last_pass), "run stops after this pass (1-5)" },
	{ "remote", "--remote", TEXT, 0, 0, AT(remote),
	  "qemu: run in a throwaway guest of the target kernel" },
	{ "smp", "--smp", NUMBER, 0, 64, AT(smp), "the guest's CPUs with remote qemu (0: 1)" },
	{ "cmd", "-c", TEXT, 0, 0, AT(command), "a command to run; target() is its pid" },
	{ "target_pid", "-x", NUMBER, 0, 1L << 22, AT(target_pid), "target() (0: none)" },
	{ "keep", "-k", FLAG, 0, 1, AT(keep), "keep the build directory" },
};

#define N_OPTIONS (sizeof(options) / sizeof(options[0]))

const char *const *iset_names(void)
{
	static const char *names[N_OPTIONS + 1];

	for (size_t i = 0; i < N_OPTIONS; i++)
		names[i] = options[i].name;
	return names;
}

static const struct option_desc *find(const char *name, size_t len)
{
	for (size_t i = 0; i < N_OPTIONS; i++)
		if ((strlen(options[i].name) == len && !strncmp(options[i].name, name, len)) ||
		    (strlen(options[i].flag) == len && !strncmp(options[i].flag, name, len)))
			return &options[i];
	return NULL;
}

/* target_pid is a long, the other numbers ints */
static long get_number(const struct session *s, const struct option_desc *o)
{
	const char *at = (const char *)s + o->off;

	return o->off == AT(target_pid) ? *(const long *)at : *(const int *)at;
}

static void put_number(struct session *s, const struct option_desc *o, long v)
{
	char *at = (char *)s + o->off;

	if (o->off == AT(target_pid))
		*(long *)at = v;
	else
		*(int *)at = (int)v;
}

static const char *value_text(const struct session *s, const struct option_desc *o)
{
	const char *text;
	static struct utsname u;

	switch (o->kind) {
	case FLAG: return get_number(s, o) ? "on" : "off";
	case NUMBER: return ar_printf("%ld", get_number(s, o));
	default:
		text = *(const char *const *)((const char *)s + o->off);
		if (!text && o->off == AT(kernel_release) && !uname(&u))
			return ar_printf("(this machine's, %s)", u.release);
		return text ? text : "(none)";
	}
}

static int set_value(struct isession *is, const struct option_desc *o, const char *v)
{
	char *end;
	long n;

	if (o->kind == TEXT) {
		int none = !*v || !strcmp(v, "none");

		if (o->off == AT(remote) && !none && strcmp(v, "qemu")) {
			fprintf(stderr, "stp: set remote takes qemu or none, not '%s'\n", v);
			return 1;
		}
		*(const char **)((char *)&is->opts + o->off) = none ? NULL : ar_strdup(v);
		if (o->off == AT(kernel_release) || o->off == AT(sysroot))
			is->generation++;
		return 0;
	}
	if (o->kind == FLAG && (!strcmp(v, "on") || !strcmp(v, "off"))) {
		put_number(&is->opts, o, !strcmp(v, "on"));
		return 0;
	}
	n = strtol(v, &end, 10);
	if (!*v || *end || n < o->lo || n > o->hi) {
		if (o->kind == FLAG)
			fprintf(stderr, "stp: set %s takes on or off, not '%s'\n", o->name, v);
		else
			fprintf(stderr, "stp: set %s takes a number from %ld to %ld, not '%s'\n",
				o->name, o->lo, o->hi, v);
		return 1;
	}
	put_number(&is->opts, o, n);
	return 0;
}

int iset(struct isession *is, const char *args)
{
	size_t len = strcspn(args, " \t");
	const char *v = args + len;
	const struct option_desc *o = find(args, len);

	while (isspace((unsigned char)*v))
		v++;
	if (!o) {
		fprintf(stderr, "stp: set: no option '%.*s' (show lists them)\n", (int)len, args);
		return 1;
	}
	if (!*v && o->kind == FLAG)
		v = "on";	/* set -g */
	if (!*v && o->kind == NUMBER) {
		fprintf(stderr, "stp: set %s needs a value\n", o->name);
		return 1;
	}
	return set_value(is, o, v);
}

int ishow(const struct isession *is, const char *name)
{
	const struct option_desc *o = *name ? find(name, strlen(name)) : NULL;

	if (*name && !o) {
		fprintf(stderr, "stp: show: no option '%s' (show lists them)\n", name);
		return 1;
	}
	for (size_t i = 0; i < N_OPTIONS; i++) {
		if (o && o != &options[i])
			continue;
		printf("%-15s %-10s %s\n", options[i].name, options[i].flag,
		       value_text(&is->opts, &options[i]));
		if (o)
			printf("  %s\n", o->what);
	}
	return 0;
}

void iset_target_args(const struct isession *is, struct vec *argv)
{
	const struct session *s = &is->opts;

	if (s->sysroot)
		vec_push(argv, ar_printf("--sysroot=%s", s->sysroot));
	if (s->kernel_release) {
		vec_push(argv, "-r");
		vec_push(argv, (void *)s->kernel_release);
	}
	if (s->vmlinux)
		vec_push(argv, ar_printf("--vmlinux=%s", s->vmlinux));
	for (int i = 0; i < s->include_dirs.len; i++) {
		vec_push(argv, "-I");
		vec_push(argv, s->include_dirs.v[i]);
	}
}
