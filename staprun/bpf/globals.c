// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -G VAR=VALUE under --runtime=bpf: stp passes the settings in the
 * environment (STP_BPF_GLOBALS, one a line) rather than on the runner's
 * command line, and the runner checks them against the script's globals
 * before it starts anything, then writes them over the initial values
 * (after init(), as the kmod runtime's module parameters come after the
 * module's own initializers) into the globals' shared .bss.
 */
#include "run.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *settings;	/* the environment's copy, NULs for newlines */
static char **setting;	/* each VAR=VALUE in it, unescaped */
static int nsettings;

static const struct stp_u_global *global_named(const char *name, size_t n)
{
	for (int i = 0; i < stp_prog.nglobals; i++)
		if (strlen(stp_prog.globals[i].name) == n &&
		    !strncmp(stp_prog.globals[i].name, name, n))
			return &stp_prog.globals[i];
	return NULL;
}

static int parse_number(const char *v, long long *out)
{
	char *end;

	errno = 0;
	*out = strtoll(v, &end, 0);
	return *v && !*end && !errno;
}

/* One VAR=VALUE: 0 when the script has a scalar VAR that takes VALUE. */
static int check_one(const char *set)
{
	const char *eq = strchr(set, '=');
	const struct stp_u_global *g = eq ? global_named(set, (size_t)(eq - set)) : NULL;
	long long v;

	if (!g) {
		fprintf(stderr, "ERROR: -G %s: the script has no global '%.*s'\n", set,
			eq ? (int)(eq - set) : (int)strlen(set), set);
		return -1;
	}
	if (g->map) {
		fprintf(stderr, "ERROR: -G %s: '%s' is an array or a statistic; -G sets numbers "
			"and strings\n", set, g->name);
		return -1;
	}
	if (g->type == 'l' && !parse_number(eq + 1, &v)) {
		fprintf(stderr, "ERROR: -G %s: '%s' is a number, and '%s' is not one\n", set,
			g->name, eq + 1);
		return -1;
	}
	return 0;
}

/* Undoes translator/bpf/build.c's escapes (a backslash and n for a
 * newline, two backslashes for one), which keep a setting on its line. */
static void unescape(char *p)
{
	char *d = p;

	for (; *p; p++) {
		if (*p == '\\' && (p[1] == 'n' || p[1] == '\\'))
			*d++ = *++p == 'n' ? '\n' : '\\';
		else
			*d++ = *p;
	}
	*d = 0;
}

int stp_u_globals_check(void)
{
	const char *env = getenv("STP_BPF_GLOBALS");

	if (!env || !*env)
		return 0;
	settings = strdup(env);
	unsetenv("STP_BPF_GLOBALS");	/* not the -c command's */
	if (!settings)
		return -1;
	for (char *p = settings; p; nsettings++) {
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = 0;
		unescape(p);
		setting = realloc(setting, (nsettings + 1) * sizeof(*setting));
		if (!setting)
			return -1;
		setting[nsettings] = p;
		if (check_one(p))
			return -1;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

void stp_u_globals_set(void)
{
	for (int i = 0; i < nsettings && stp_gp; i++) {
		const char *p = setting[i], *eq = strchr(p, '=');
		const struct stp_u_global *g = global_named(p, (size_t)(eq - p));
		char *dst = (char *)stp_gp + g->off;
		long long v;

		if (g->type == 's') {
			strncpy(dst, eq + 1, (size_t)stp_prog.strlen - 1);
			dst[stp_prog.strlen - 1] = 0;
		} else if (parse_number(eq + 1, &v)) {
			memcpy(dst, &v, sizeof(v));
		}
	}
}
