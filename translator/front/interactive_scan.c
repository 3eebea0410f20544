// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp -i: the shape of script text, without parsing it: how deep in
 * braces a line ends (another line is needed), where the declarations
 * of a loaded file start (one piece each), and what the cursor is in
 * (Tab).  Strings, comments and embedded C are skipped so their braces
 * do not count.
 */
#include "interactive.h"

#include <ctype.h>
#include <string.h>

/* i past a string, comment or %{ %} starting at i; else i itself. */
static size_t skip_noncode(const char *t, size_t i)
{
	const char *end;

	if (t[i] == '"') {
		for (i++; t[i] && t[i] != '"'; i++)
			if (t[i] == '\\' && t[i + 1])
				i++;
		return t[i] ? i + 1 : i;
	}
	if (t[i] == '#' || (t[i] == '/' && t[i + 1] == '/')) {
		end = strchr(t + i, '\n');
		return end ? (size_t)(end - t) : strlen(t);
	}
	if ((t[i] == '/' && t[i + 1] == '*') || (t[i] == '%' && t[i + 1] == '{')) {
		end = strstr(t + i + 2, t[i] == '/' ? "*/" : "%}");
		return end ? (size_t)(end - t) + 2 : strlen(t);
	}
	return i;
}

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_' || c == '@' || c == '$';
}

/* The declaration keyword at t+i (a word start), or NULL.  After a
 * '.' it is a probe point's component: kernel.function("f"). */
static const char *keyword_at(const char *t, size_t i)
{
	static const char *const kw[] = { "probe", "global", "function", "private",
					  "@define" };

	if (i && (ident_char(t[i - 1]) || t[i - 1] == '.'))
		return NULL;
	for (size_t k = 0; k < sizeof(kw) / sizeof(kw[0]); k++) {
		size_t n = strlen(kw[k]);

		if (!strncmp(t + i, kw[k], n) && !ident_char(t[i + n]))
			return kw[k];
	}
	return NULL;
}

int iscan_depth(const char *text)
{
	int depth = 0;

	for (size_t i = 0; text[i];) {
		size_t j = skip_noncode(text, i);

		if (j != i) {
			i = j;
			continue;
		}
		depth += text[i] == '{';
		depth -= text[i] == '}' && depth > 0;
		i++;
	}
	return depth;
}

/* The start of t+i's line when only blanks precede it there. */
static size_t line_start(const char *t, size_t i)
{
	size_t j = i;

	while (j && (t[j - 1] == ' ' || t[j - 1] == '\t'))
		j--;
	return !j || t[j - 1] == '\n' ? j : i;
}

/* Nothing but blanks and comments from a to b? */
static int no_code(const char *t, size_t a, size_t b)
{
	while (a < b) {
		size_t j = skip_noncode(t, a);

		if (j != a && t[a] != '"' && t[a] != '%') {
			a = j;
			continue;
		}
		if (!isspace((unsigned char)t[a]))
			return 0;
		a++;
	}
	return 1;
}

/* at, moved back to the line after the last code before it (from
 * last): the comments above a declaration are its own. */
static size_t with_comments(const char *t, size_t last, size_t at)
{
	size_t code_end = last;
	const char *nl;

	for (size_t i = last; i < at;) {
		size_t j = skip_noncode(t, i);

		if (j != i) {
			/* strings and embedded C are code, comments not */
			if (t[i] == '"' || t[i] == '%')
				code_end = j;
			i = j;
			continue;
		}
		if (!isspace((unsigned char)t[i]))
			code_end = i + 1;
		i++;
	}
	nl = memchr(t + code_end, '\n', at - code_end);
	return nl ? (size_t)(nl - t) + 1 : at;
}

/* Where each declaration starts, comments before it included: a
 * boundary with only comments since the last one is not one. */
static void push_start(struct vec *offsets, const char *t, size_t at)
{
	size_t last = (size_t)offsets->v[offsets->len - 1];

	if (no_code(t, last, at))
		return;
	vec_push(offsets, (void *)with_comments(t, last, at));
}

void iscan_starts(const char *text, struct vec *offsets)
{
	int depth = 0, after_private = 0, want_body = 0;

	vec_push(offsets, (void *)0);
	for (size_t i = 0; text[i];) {
		size_t j = skip_noncode(text, i);
		const char *kw;

		if (j != i) {
			/* embedded C at the top, not a function's body, is a
			 * piece of its own */
			if (!depth && text[i] == '%' && !want_body)
				push_start(offsets, text, line_start(text, i));
			want_body &= text[i] != '%';
			i = j;
			continue;
		}
		kw = depth ? NULL : keyword_at(text, i);
		if (kw) {
			if (!after_private)
				push_start(offsets, text, line_start(text, i));
			after_private = !strcmp(kw, "private");
			want_body = !strcmp(kw, "function");
			i += strlen(kw);
			continue;
		}
		want_body &= !(text[i] == '{' && !depth);
		depth += text[i] == '{';
		depth -= text[i] == '}' && depth > 0;
		i++;
	}
}

/* The first point of "POINT, POINT... {" or "NAME = POINT... {" from p. */
static const char *first_point(const char *text, size_t from, size_t to)
{
	size_t a = from, b;
	int parens = 0;

	for (size_t i = from; i < to; i++)
		if (text[i] == '=' && text[i + 1] != '=')
			a = i + 1;
	while (a < to && isspace((unsigned char)text[a]))
		a++;
	for (b = a; b < to; b++) {
		if (text[b] == '"')
			b = skip_noncode(text, b) - 1;
		else if (text[b] == '(')
			parens++;
		else if (text[b] == ')')
			parens--;
		else if (!parens && (text[b] == ',' || isspace((unsigned char)text[b])))
			break;
	}
	return b > a ? ar_strndup(text + a, b - a) : NULL;
}

int iscan_context(const char *text, const char **point)
{
	int depth = 0;
	size_t probe_at = 0, brace_at = 0;
	int in_probe = 0;

	*point = NULL;
	for (size_t i = 0; text[i];) {
		size_t j = skip_noncode(text, i);
		const char *kw;

		if (j != i) {
			i = j;
			continue;
		}
		kw = depth ? NULL : keyword_at(text, i);
		if (kw) {
			in_probe = !strcmp(kw, "probe");
			probe_at = i + strlen(kw);
			brace_at = 0;
			i = probe_at;
			continue;
		}
		if (text[i] == '{' && !depth && in_probe)
			brace_at = i;
		depth += text[i] == '{';
		depth -= text[i] == '}' && depth > 0;
		if (!depth && text[i] == '}')
			in_probe = 0;
		i++;
	}
	if (!depth)
		return in_probe ? 1 : 0;
	if (in_probe && brace_at)
		*point = first_point(text, probe_at, brace_at);
	return 2;
}
