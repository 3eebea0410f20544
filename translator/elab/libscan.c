// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which tapset files a script can need, found without parsing them: the
 * system call tapsets alone are half a megabyte of generated aliases, and
 * parsing every file made "probe begin {}" seven times slower.
 *
 * A file defines names: its aliases' first components ("syscall" of
 * syscall.read), its functions and its globals, found at the starts of
 * its lines ("probe NAME... =", "function ", "global ", "private "); a
 * plain probe defines nothing (it comes with its file).  A file is
 * wanted when a name it defines occurs as a word in a text that is part
 * of the program: the script, the macro libraries (their expansions are
 * part of the script), or a wanted file (its aliases and functions use
 * other files').  The words are found in the raw text, comments and
 * strings too: a file too many is parsed for nothing, never one too few.
 * The first components of the script's probe points count as parsed
 * ("probe $1" with the argument syscall.read).  Every file is wanted when
 * a probe point could match an alias by a glob in its first component
 * ("probe *.read"), when listing probe points (-l, -L) and when
 * listing the library's names (--dump-functions, --dump-probe-aliases).
 */
#include "elab.h"

#include <ctype.h>
#include <stdlib.h>

static int word_char(int c)
{
	return isalnum(c) || c == '_';
}

/* Adds each word of text to words (interned name -> itself). */
static void add_words(struct pmap *words, const char *text)
{
	const char *p = text;

	while (*p) {
		const char *w;

		while (*p && !(isalpha((unsigned char)*p) || *p == '_'))
			p++;
		w = p;
		while (word_char((unsigned char)*p))
			p++;
		if (p > w) {
			const char *name = intern(w, p - w);

			pmap_put(words, name, (void *)name);
		}
	}
}

/* Adds the first component of each probe point of the script's probes
 * and aliases to words (as parsed: "probe $1" has its argument there);
 * 1 when one could match by a glob or a brace group ("probe *.read"). */
static int add_points(struct pmap *words, const struct script *user)
{
	for (int i = 0; i < user->decls.len; i++) {
		const struct node *d = user->decls.v[i];

		if (d->kind != N_PROBE && d->kind != N_ALIAS)
			continue;
		for (int j = 0; j < d->npoints; j++) {
			const char *c = d->points[j]->comps[0].name;

			if (!c || strpbrk(c, "*?["))
				return 1;
			c = intern(c, strlen(c));
			pmap_put(words, c, (void *)c);
		}
	}
	return 0;
}

/* Adds the words of each source the script's declarations come from
 * (the script, and -T's probe). */
static void add_user_words(struct pmap *words, const struct script *user)
{
	const struct source *last = user->src;

	add_words(words, user->src->text);
	for (int i = 0; i < user->decls.len; i++) {
		const struct node *d = user->decls.v[i];

		if (d->loc.src && d->loc.src != last) {
			last = d->loc.src;
			add_words(words, last->text);
		}
	}
}

/* Is the rest of the line from p an alias's ("= ..." or "+= ...")? */
static int alias_line(const char *p)
{
	for (; *p && *p != '\n' && *p != '{'; p++)
		if (*p == '=')
			return 1;
	return 0;
}

/* The name defined at p, a line's start after its blanks, or NULL. */
static const char *defined_at(const char *p)
{
	static const char *const kw[] = { "private ", "probe ", "function ", "global " };
	const char *w;

	for (int again = 1; again;) {
		again = 0;
		for (size_t i = 0; i < sizeof(kw) / sizeof(kw[0]); i++) {
			size_t n = strlen(kw[i]);

			if (strncmp(p, kw[i], n))
				continue;
			p += n;
			while (*p == ' ' || *p == '\t')
				p++;
			if (i == 0) {
				again = 1;
				break;
			}
			w = p;
			while (word_char((unsigned char)*p))
				p++;
			/* a plain probe ("probe begin {") defines nothing */
			if (i == 1 && !alias_line(p))
				return NULL;
			return p > w ? intern(w, p - w) : NULL;
		}
	}
	return NULL;
}

/* Does text define a name that is in words? */
static int defines_a_word(const char *text, const struct pmap *words)
{
	const char *p = text;

	while (*p) {
		const char *name;

		while (*p == ' ' || *p == '\t')
			p++;
		name = defined_at(p);
		if (name && pmap_get(words, name))
			return 1;
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

/* Sets want[i] for each of the n library sources the program can need. */
void libscan_select(struct session *s, struct source **src, int n, char *want)
{
	struct pmap words = { 0 };
	struct vec stpm = { 0 }, stp = { 0 };
	int changed = 1;

	if (s->list_probe || s->dump_names || !s->user || add_points(&words, s->user)) {
		memset(want, 1, n);
		return;
	}
	memset(want, 0, n);
	/* -W: the user's own tapsets (-I) are all read, so that a broken
	 * one is an error, as stap's -W has it, not skipped unread */
	for (int i = 0; s->warn_mode == 2 && i < n; i++)
		for (int k = 0; src[i] && k < s->include_dirs.len; k++) {
			const char *dir = s->include_dirs.v[k];
			size_t len = strlen(dir);

			if (!strncmp(src[i]->name, dir, len) && src[i]->name[len] == '/')
				want[i] = 1;
		}
	add_user_words(&words, s->user);
	for (int i = 0; i < n; i++)
		if (want[i])
			add_words(&words, src[i]->text);
	tapset_files(s, &stpm, &stp);
	for (int i = 0; i < stpm.len; i++) {
		struct source *m = src_load(stpm.v[i]);

		if (m)
			add_words(&words, m->text);
	}
	while (changed) {
		changed = 0;
		for (int i = 0; i < n; i++) {
			if (want[i] || !src[i] || !defines_a_word(src[i]->text, &words))
				continue;
			want[i] = 1;
			add_words(&words, src[i]->text);
			changed = 1;
		}
	}
	free(stpm.v);
	free(stp.v);
}
