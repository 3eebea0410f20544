// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 1: read the macro libraries (.stpm) of the tapset path, then
 * parse the user script.  The library's .stp files are only listed
 * here: elaboration parses the ones the script needs, so a one-liner
 * does not pay for parsing hundreds of tapsets it never uses.
 */
#include "session.h"
#include "../../parser/parse.h"
#include "markers.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>

static struct source *user_source(struct session *s)
{
	struct source *src;

	if (s->script_text) {
		src = src_new("<input>", s->script_text, strlen(s->script_text));
	} else if (!strcmp(s->script_file, "-")) {
		size_t len;
		char *text = util_read_file("/dev/stdin", &len);

		if (!text)
			util_die("cannot read the script from standard input: %s",
				 strerror(errno));
		src = src_new("<stdin>", text, len);
	} else {
		src = script_load(s);
		if (!src)
			return NULL;
	}
	src->is_user = 1;
	return src;
}

static void parse_library(struct session *s, struct pp *pp,
			  const struct parse_opts *lib_opts)
{
	struct vec stpm = { 0 }, stp = { 0 };

	tapset_files(s, &stpm, &stp);
	for (int i = 0; i < stpm.len; i++) {
		struct source *src = src_load(stpm.v[i]);

		if (!src) {
			fprintf(stderr, "stp: cannot read '%s': %s\n",
				(char *)stpm.v[i], strerror(errno));
			continue;
		}
		src->is_macro_lib = 1;
		pp_source(pp, src);
	}
	pp_source(pp, markers_library());
	s->macro_files = stpm.len;
	s->library_files = stp;
	s->pp = pp;
	s->lib_opts = *lib_opts;
	free(stpm.v);
}

/* Returns 0 on success, 1 after errors. */
int pass1_parse(struct session *s)
{
	struct pp *pp = pp_new(&s->env);
	int old = pp_vercmp(s->env.systemtap_v, "2.0") < 0;
	struct parse_opts lib_opts = { .guru = 1, .comment_parts_strings = old };
	struct parse_opts user_opts = { .guru = s->guru, .comment_parts_strings = old };
	struct source *src;

	parse_library(s, pp, &lib_opts);
	src = user_source(s);
	if (!src)
		return 1;
	s->user = parse_source(pp, src, &user_opts);
	return diag_errors() ? 1 : 0;
}

/*
 * -T SECONDS, as SystemTap does it: one more probe of the user's,
 * first, "probe timer.ms(N) { exit() }", so that the module ends itself
 * wherever it runs (here, in a --remote guest, with -c).  Added after
 * -p1's listing, which shows the script as written.
 */
int pass1_timeout_probe(struct session *s)
{
	struct parse_opts opts = { .guru = 1 };
	const char *text = ar_printf("probe timer.ms(%ld) { exit() }\n", s->timeout_ms);
	struct source *src = src_new("<-T>", text, strlen(text));
	struct script *t;
	struct vec decls = { 0 };

	src->is_user = 1;
	t = parse_source(s->pp, src, &opts);
	if (diag_errors())
		return 1;
	for (int i = 0; i < t->decls.len; i++)
		vec_push(&decls, t->decls.v[i]);
	for (int i = 0; i < s->user->decls.len; i++)
		vec_push(&decls, s->user->decls.v[i]);
	s->user->decls = decls;
	return 0;
}
