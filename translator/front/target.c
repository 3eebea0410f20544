// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The target kernel as the preprocessor sees it: release, version,
 * architecture, and its CONFIG_ options, read from the build tree's
 * .config on first use (most scripts never ask).
 */
#include "session.h"
#include "version.h"
#include "../dwarf/dw.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>

struct config {
	const char *path;
	int loaded;
	struct vec names, values;
};

static void load_config(struct config *c)
{
	char line[4096];
	FILE *f;

	c->loaded = 1;
	f = fopen(c->path, "r");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char *eq = strchr(line, '='), *v, *nl;

		if (strncmp(line, "CONFIG_", 7) || !eq)
			continue;
		*eq = '\0';
		v = eq + 1;
		nl = strchr(v, '\n');
		if (nl)
			*nl = '\0';
		if (v[0] == '"' && strlen(v) >= 2 && v[strlen(v) - 1] == '"') {
			v[strlen(v) - 1] = '\0';
			v++;
		}
		vec_push(&c->names, ar_strdup(line));
		vec_push(&c->values, ar_strdup(v));
	}
	fclose(f);
}

static const char *config_lookup(void *ctx, const char *name)
{
	struct config *c = ctx;

	if (!c->loaded)
		load_config(c);
	for (int i = 0; i < c->names.len; i++)
		if (!strcmp(c->names.v[i], name))
			return c->values.v[i];
	return "";
}

static const char *version_of(const char *release)
{
	size_t n = strcspn(release, "-");

	return ar_strndup(release, n);
}

void target_init(struct session *s)
{
	struct utsname u;
	struct config *c = ar_alloc(sizeof(*c));
	const char *rel;

	uname(&u);
	rel = s->kernel_release ? s->kernel_release : ar_strdup(u.release);
	s->kernel_release = rel;
	s->arch = ar_strdup(strcmp(u.machine, "amd64") ? u.machine : "x86_64");
	c->path = ar_printf("%s/lib/modules/%s/build/.config",
			    s->sysroot ? s->sysroot : "", rel);
	s->env.kernel_vr = rel;
	s->env.kernel_v = version_of(rel);
	s->env.arch = s->arch;
	s->env.runtime = s->runtime && !strcmp(s->runtime, "bpf") ? "bpf" : "kernel";
	s->env.systemtap_v = s->compatible ? s->compatible : STP_LANGUAGE_VERSION;
	dw_prologue_searching = s->prologue;
	s->env.privilege = "stapdev";
	s->env.guru = s->guru;
	s->env.argc = s->argc;
	s->env.argv = s->argv;
	s->env.config = config_lookup;
	s->env.config_ctx = c;
}

int regular_file(const char *p)
{
	struct stat st;

	return !stat(p, &st) && S_ISREG(st.st_mode);
}

const char *target_path(const struct session *s, const char *t)
{
	const char *p;

	if (s->sysroot && regular_file(p = ar_printf("%s%s", s->sysroot, t)))
		return p;
	return regular_file(t) ? t : NULL;
}
