// SPDX-License-Identifier: GPL-2.0-or-later
/* Filters over samples: see filter.h. */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"

void vfilter_init(struct vfilter *f)
{
	*f = (struct vfilter){ .uid = -1, .pid = -1 };
}

static int number(const struct vcmd *c, const char *opt, const char *v,
		  int64_t *n, int *rc)
{
	char *end;
	long long x = strtoll(v, &end, 10);

	if (!*v || *end || x < 0 || x > UINT32_MAX) {
		*rc = vcmd_usage(c, "%s: want a number, not '%s'", opt, v);
		return -1;
	}
	*n = x;
	return 1;
}

int vfilter_arg(const struct vcmd *c, int argc, char **argv, int *i,
		struct vfilter *f, int *rc)
{
	static const char *const opts[] = { "--vital", "--exec", "--site",
					    "--uid", "--pid" };
	const char *v = NULL;
	int k;

	for (k = 0; k < 5 && !(v = vcmd_value(argc, argv, i, opts[k])); k++)
		;
	if (k == 5) {
		for (k = 0; k < 5 && strcmp(argv[*i], opts[k]); k++)
			;
		if (k == 5)
			return 0;
		*rc = vcmd_usage(c, "%s needs a value", opts[k]);
		return -1;
	}
	switch (k) {
	case 0: f->vitals = v; return 1;
	case 1: f->exec = v; return 1;
	case 2: f->site = v; return 1;
	case 3: return number(c, "--uid", v, &f->uid, rc);
	default: return number(c, "--pid", v, &f->pid, rc);
	}
}

int vfilter_vital(const struct vfilter *f, const char *vital)
{
	size_t n = vital ? strlen(vital) : 0;
	const char *p = f->vitals;

	if (!p)
		return 1;
	for (; p && *p; p = strchr(p, ',') ? strchr(p, ',') + 1 : NULL)
		if (n && !strncmp(p, vital, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

static int glob(const char *pattern, const char *s)
{
	return !pattern || (s && !fnmatch(pattern, s, 0));
}

int vfilter_sample(const struct vfilter *f, const struct vx_sample *s)
{
	return vfilter_vital(f, s->vital) && glob(f->exec, s->exec) &&
	       glob(f->site, s->site) && (f->uid < 0 || f->uid == s->uid) &&
	       (f->pid < 0 || f->pid == s->pid);
}
