// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals: reads the vital-signs store that stprun writes (see
 * doc/vitals.md, "The vital-signs store").  The first argument names a
 * subcommand, each in its own file; more (rules, diff, serve, metrics)
 * are added to cmds[] below.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cmd.h"
#include "../store/read.h"
#include "when.h"

static const struct vcmd cmds[] = {
	{ "dump", vcmd_dump, "DB [--from T] [--to T]",
	  "print the store's epochs as JSON lines", NULL },
	{ "rules", vcmd_rules, "DB [--from T] [--to T] [--json] [--set NAME=VALUE]..."
	  " [--exec GLOB] [--site GLOB] [--uid N] [--pid N] [--vital A,B]",
	  "the diagnosis rules' flags, as text or JSON lines", vcmd_rules_help },
	{ "diff", vcmd_diff, "DB A_FROM..A_TO B_FROM..B_TO [--limit N] [--json]"
	  " [--vital A,B] [--exec GLOB] [--site GLOB] [--uid N] [--pid N]",
	  "the vital signs, programs and sites that changed most from range A to B",
	  vcmd_diff_help },
	{ "serve", vcmd_serve, "DB [--listen ADDR:PORT] [--web DIR]",
	  "serve the web page and its API (default 127.0.0.1:8463)", NULL },
	{ "metrics", vcmd_metrics, "DB",
	  "print the newest epochs' figures as OpenMetrics text", NULL },
	{ "report", vcmd_report, "DB -o FILE [--from T] [--to T] [--web DIR]",
	  "write the web page with the range's data as one file", NULL },
};
#define NCMDS (sizeof(cmds) / sizeof(cmds[0]))

static void usage_line(FILE *f)
{
	fputs("usage: stp-vitals COMMAND ARGS... (stp-vitals --help)\n", f);
}

static int help(void)
{
	puts("usage: stp-vitals COMMAND ARGS...\n"
	     "Reads the vital-signs store that `stp vitals.stp` writes.\n");
	for (size_t i = 0; i < NCMDS; i++)
		printf("  stp-vitals %s %s\n      %s\n", cmds[i].name,
		       cmds[i].args, cmds[i].summary);
	puts("\nT is " WHEN_FORMS ".\n"
	     "An epoch is shown when it overlaps [--from, --to).\n"
	     "Exit status: 0 done, 1 failed (not a store), 2 usage error.");
	return 0;
}

static int cmd_help(const struct vcmd *c)
{
	printf("usage: stp-vitals %s %s\n%s\nT is %s.\n", c->name, c->args,
	       c->summary, WHEN_FORMS);
	if (c->help)
		c->help();
	return 0;
}

int vcmd_usage(const struct vcmd *c, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "stp-vitals: %s: ", c->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\nusage: stp-vitals %s %s\n", c->name, c->args);
	return 2;
}

int vcmd_fail(const char *fmt, ...)
{
	va_list ap;

	fputs("stp-vitals: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return 1;
}

struct vread *vcmd_open(const char *path)
{
	char *err;
	struct vread *r = vread_open(path, &err);

	if (!r) {
		vcmd_fail("%s", err);
		free(err);
	}
	return r;
}

const char *vcmd_value(int argc, char **argv, int *i, const char *opt)
{
	size_t n = strlen(opt);

	if (!strncmp(argv[*i], opt, n) && argv[*i][n] == '=')
		return argv[*i] + n + 1;
	if (strcmp(argv[*i], opt) || *i + 1 >= argc)
		return NULL;
	return argv[++*i];
}

int vcmd_time(const struct vcmd *c, const char *opt, const char *v,
	      int64_t *ns)
{
	struct timespec now;

	clock_gettime(CLOCK_REALTIME, &now);
	if (when_parse(v, now.tv_sec * 1000000000LL + now.tv_nsec, ns))
		return vcmd_usage(c, "%s: bad time '%s' (want %s)", opt, v,
				  WHEN_FORMS);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs("stp-vitals: no command\n", stderr);
		usage_line(stderr);
		return 2;
	}
	if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))
		return help();
	for (size_t i = 0; i < NCMDS; i++) {
		if (strcmp(argv[1], cmds[i].name))
			continue;
		if (argc > 2 && !strcmp(argv[2], "--help"))
			return cmd_help(&cmds[i]);
		return cmds[i].run(&cmds[i], argc - 1, argv + 1);
	}
	fprintf(stderr, "stp-vitals: unknown command '%s'\n", argv[1]);
	usage_line(stderr);
	return 2;
}
