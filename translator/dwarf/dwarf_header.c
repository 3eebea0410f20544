// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * @cast(p, "T", "<sys/un.h>"): T as the C headers named declare it, as
 * SystemTap finds it.  The headers are compiled (cc -g, every type kept,
 * not only those used) into an object whose DWARF is read like a
 * program's.  The object is kept under STP_CACHE by the headers' text,
 * so each set of headers is compiled once.
 */
#include "dw.h"
#include "../symbols/symbols.h"
#include "../front/markers.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* The "#include <h>" lines of "<a.h><b.h>" into src; 0 when it names
 * none or a name holds what no header name does. */
static int include_lines(const char *headers, struct sbuf *src)
{
	int n = 0;

	for (const char *p = strchr(headers, '<'); p; p = strchr(p, '<')) {
		const char *end = strchr(p, '>');

		if (!end || end == p + 1 || strcspn(p + 1, "<>\"\n") != (size_t)(end - p - 1))
			return 0;
		sb_printf(src, "#include <%.*s>\n", (int)(end - p - 1), p + 1);
		n++;
		p = end + 1;
	}
	return n;
}

static uint64_t fnv(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

/* cc's first line of complaint, from its log. */
static const char *first_error(const char *log)
{
	char line[256] = "";
	FILE *f = fopen(log, "r");

	if (f) {
		while (fgets(line, sizeof(line), f) && !strstr(line, "error"))
			line[0] = '\0';
		fclose(f);
	}
	line[strcspn(line, "\n")] = '\0';
	return ar_strdup(line[0] ? line : "the compiler failed");
}

/* Compile src into obj (through obj.tmp: a half-written object is never
 * found); NULL, or why not. */
static const char *compile(const char *src, const char *obj)
{
	const char *c = ar_printf("%s.c", obj), *tmp = ar_printf("%s.tmp", obj);
	const char *log = ar_printf("%s.log", obj);
	char *const argv[] = { "cc", "-g", "-fno-eliminate-unused-debug-types", "-c", "-o",
			       (char *)tmp, (char *)c, NULL };
	FILE *f = fopen(c, "w");
	int wrote, rc;

	if (!f)
		return ar_printf("cannot write %s: %s", c, strerror(errno));
	wrote = fputs(src, f) != EOF;
	if (fclose(f) || !wrote)
		return ar_printf("cannot write %s: %s", c, strerror(errno));
	rc = markers_system(argv, log, 0);
	if (rc == 127)
		return "cannot run cc (install gcc)";
	if (rc)
		return first_error(log);
	if (rename(tmp, obj))
		return ar_printf("cannot keep %s: %s", obj, strerror(errno));
	unlink(c);
	unlink(log);
	return NULL;
}

struct dwarf_file *dw_header(const char *headers, const char **why)
{
	struct sbuf src = { 0 };
	const char *dir = cache_dir(), *obj, *err, *tmp;
	struct stat sb;

	if (!include_lines(headers, &src)) {
		free(src.s);
		*why = ar_printf("'%s' names no header: \"<sys/un.h>\", \"<linux/fs.h>\"", headers);
		return NULL;
	}
	if (dir) {
		const char *d = ar_printf("%s/dwarf", dir);

		mkdir(dir, 0755);
		mkdir(d, 0755);
		obj = ar_printf("%s/hdr-%016llx.o", d, (unsigned long long)fnv(src.s));
	} else if ((tmp = tmp_dir("stp-hdr", 0))) {
		obj = ar_printf("%s/hdr.o", tmp);
	} else {
		free(src.s);
		*why = ar_printf("no directory to compile %s in: %s", headers, strerror(errno));
		return NULL;
	}
	if (stat(obj, &sb) && (err = compile(src.s, obj))) {
		free(src.s);
		*why = ar_printf("cannot compile %s: %s", headers, err);
		return NULL;
	}
	free(src.s);
	return dw_open(obj, ar_strdup(headers), 1, why);
}
