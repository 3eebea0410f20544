// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Pass 4: the generated C file becomes NAME.ko through kbuild, against
 * SYSROOT/lib/modules/KRELEASE/build.  The runtime's kernel API feature
 * tests (runtime/features/NAME.c, each compiled alone: it builds or it
 * does not) run once per kernel and are cached as stp_features.h.
 * Finished modules are cached by a hash of everything that goes into
 * them, so a repeated run skips translation and build.
 */
#include "build.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static int mkdirs(const char *path)
{
	char buf[PATH_MAX];

	snprintf(buf, sizeof(buf), "%s", path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(buf, 0755);
		*p = '/';
	}
	return mkdir(buf, 0755) && errno != EEXIST ? -1 : 0;
}

static int write_file(const char *path, const char *data, size_t n)
{
	FILE *f = fopen(path, "w");
	int ok;

	if (!f)
		return -1;
	ok = fwrite(data, 1, n, f) == n;
	return fclose(f) || !ok ? -1 : 0;
}

/* The generated C, each BUILD_LINE_BACK marker after embedded C turned into
 * the "#line" of the next line of this file, so that the compiler names
 * the generated code's own lines again. */
static int write_generated(const char *path, const char *src, size_t n)
{
	static const char marker[] = BUILD_LINE_BACK;
	const size_t mlen = sizeof(marker) - 1;
	struct sbuf sb = { 0 };
	int line = 1, rc;

	for (const char *p = src, *end = src + n; p < end;) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = nl ? (size_t)(nl - p) + 1 : (size_t)(end - p);

		if (len == mlen && !memcmp(p, marker, mlen))
			sb_printf(&sb, "#line %d \"%s\"\n", line + 1, path);
		else
			sb_putn(&sb, p, len);
		line++;
		p += len;
	}
	rc = write_file(path, sb.s ? sb.s : "", sb.len);
	free(sb.s);
	return rc;
}

/* An error the compiler found outside the generated file and the
 * runtime: in a script's embedded C, which "#line" names. */
static int embedded_c_failed(const char *log, const char *work)
{
	for (const char *p = log; (p = strstr(p, ": error:")); p++) {
		const char *b = p;

		while (b > log && b[-1] != '\n')
			b--;
		if (strncmp(b, work, strlen(work)) && !strstr(b, "/runtime/") &&
		    (size_t)(p - b) < 4096 && memchr(b, ':', (size_t)(p - b)))
			return 1;
	}
	return 0;
}

static int copy_file(const char *from, const char *to)
{
	size_t n;
	char *data = util_read_file(from, &n);
	int rc;

	if (!data)
		return -1;
	rc = write_file(ar_printf("%s.tmp%d", to, (int)getpid()), data, n);
	free(data);
	if (!rc)
		rc = rename(ar_printf("%s.tmp%d", to, (int)getpid()), to);
	return rc;
}

/* argv as one line, for the stap.system marker. */
static const char *command_line(char *const argv[])
{
	struct sbuf sb = { 0 };
	const char *r;

	for (int i = 0; argv[i]; i++)
		sb_printf(&sb, "%s%s", i ? " " : "", argv[i]);
	r = ar_printf("%s", sb.s ? sb.s : "");
	free(sb.s);
	return r;
}

/* Run argv; its output goes to log (or is kept when verbose).  The
 * markers are SystemTap's for its stap_system(). */
static int run(char *const argv[], const char *log, int verbose)
{
	pid_t pid;
	int st, rc;

	STAP_PROBE1(stap, stap_system__start, command_line(argv));
	pid = fork();
	STAP_PROBE2(stap, stap_system__spawn, pid < 0 ? -1 : 0, pid);
	if (pid < 0)
		return -1;
	if (!pid) {
		if (!verbose) {
			int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

			if (fd >= 0) {
				dup2(fd, 1);
				dup2(fd, 2);
				close(fd);
			}
		}
		execvp(argv[0], argv);
		_exit(127);
	}
	rc = waitpid(pid, &st, 0) < 0 ? -1 : WIFEXITED(st) ? WEXITSTATUS(st) : -1;
	STAP_PROBE1(stap, stap_system__complete, rc);
	return rc;
}

/* stp_features.h for this kernel: cached, else made by compiling each test. */
static const char *features(const struct session *s, const char *runtime)
{
	struct sbuf h = { 0 }, hdr = { 0 }, kb = { 0 };
	const char *fdir = ar_printf("%s/features", runtime);
	const char *kdir = build_kernel_dir(s);
	const char *cached, *work;
	char tmpl[] = "/tmp/stp-featXXXXXX";
	struct vec names = { 0 };
	DIR *d;
	struct dirent *de;

	build_hash_dir(&h, fdir, 0);
	build_hash_file(&h, ar_printf("%s/.config", kdir));
	cached = ar_printf("%s/features-%s-%zx.h", build_cache_root(), s->kernel_release,
			   util_hash(h.s ? h.s : "", h.len));
	free(h.s);
	if (!access(cached, R_OK))
		return cached;
	work = mkdtemp(tmpl);
	if (!work)
		return NULL;
	d = opendir(fdir);
	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);

		if (n > 2 && !strcmp(de->d_name + n - 2, ".c")) {
			const char *name = ar_printf("%.*s", (int)(n - 2), de->d_name);

			vec_push(&names, (void *)name);
			copy_file(ar_printf("%s/%s", fdir, de->d_name),
				  ar_printf("%s/ft_%s.c", work, name));
			sb_printf(&kb, "obj-m += ft_%s.o\n", name);
		}
	}
	if (d)
		closedir(d);
	write_file(ar_printf("%s/Kbuild", work), kb.s ? kb.s : "", kb.len);
	{
		char *argv[] = { "make", "-k", "-j2", "-C", (char *)kdir,
				 (char *)ar_printf("M=%s", work), "modules", NULL };

		/* failures are the answer, not an error */
		run(argv, ar_printf("%s/log", work), 0);
	}
	sb_puts(&hdr, "/* Kernel API features of this kernel: generated by stp. */\n");
	for (int i = 0; i < names.len; i++) {
		const char *n = names.v[i];

		if (!access(ar_printf("%s/ft_%s.o", work, n), R_OK))
			sb_printf(&hdr, "#define STP_HAVE_%s 1\n", n);
		else
			sb_printf(&hdr, "/* #undef STP_HAVE_%s */\n", n);
	}
	mkdirs(build_cache_root());
	write_file(ar_printf("%s.tmp%d", cached, (int)getpid()), hdr.s, hdr.len);
	rename(ar_printf("%s.tmp%d", cached, (int)getpid()), cached);
	free(hdr.s);
	free(kb.s);
	run((char *const[]){ "rm", "-rf", (char *)work, NULL }, "/dev/null", 0);
	return cached;
}

int build_cached(const char *key, const char *module)
{
	return !access(ar_printf("%s/%s.ko", key, module), R_OK);
}

int build_module(const struct session *s, const char *module, const char *csrc,
		 size_t clen, const char *key)
{
	char tmpl[] = "/tmp/stp-buildXXXXXX";
	const char *work = mkdtemp(tmpl);
	const char *parent = build_runtime_parent(s);
	const char *feat, *kdir = build_kernel_dir(s);
	struct sbuf kb = { 0 };
	int rc;

	if (!work) {
		fprintf(stderr, "stp: cannot make a build directory: %s\n", strerror(errno));
		return -1;
	}
	if (access(ar_printf("%s/Makefile", kdir), R_OK)) {
		fprintf(stderr, "stp: no kernel build tree at %s; install the kernel headers "
			"(Debian: linux-headers-%s)\n", kdir, s->kernel_release);
		return -1;
	}
	feat = features(s, ar_printf("%s/runtime", parent));
	if (!feat || copy_file(feat, ar_printf("%s/stp_features.h", work))) {
		fprintf(stderr, "stp: kernel feature tests failed for %s\n", kdir);
		return -1;
	}
	write_generated(ar_printf("%s/%s.c", work, module), csrc, clen);
	sb_printf(&kb, "obj-m := %s.o\nccflags-y := -I%s -I%s/runtime -I%s "
		  "-Wno-unused-label -Wno-unused-variable -Wno-unused-function "
		  "-Wno-declaration-after-statement -g0\n", module, parent, parent, work);
	write_file(ar_printf("%s/Kbuild", work), kb.s, kb.len);
	free(kb.s);
	{
		char *argv[] = { "make", "-C", (char *)kdir, (char *)ar_printf("M=%s", work),
				 s->verbose > 1 ? "V=1" : "V=0", "modules", NULL };

		rc = run(argv, ar_printf("%s/build.log", work), s->verbose > 1);
	}
	if (rc || access(ar_printf("%s/%s.ko", work, module), R_OK)) {
		size_t n;
		char *log = util_read_file(ar_printf("%s/build.log", work), &n);

		if (log && embedded_c_failed(log, work))
			fprintf(stderr, "stp: the script's embedded C does not compile for this "
				"kernel (the compiler's errors below name its lines). The "
				"generated C and the compiler's output are kept in %s\n", work);
		else
			fprintf(stderr, "stp: building the module failed; this is a bug in stp. "
				"The generated C and the compiler's output are kept in %s\n", work);
		if (log) {
			fwrite(log, 1, n, stderr);
			free(log);
		}
		return -1;
	}
	mkdirs(key);
	STAP_PROBE2(stap, cache__add__module, ar_printf("%s/%s.ko", work, module),
		    ar_printf("%s/%s.ko", key, module));
	STAP_PROBE2(stap, cache__add__source, ar_printf("%s/%s.c", work, module),
		    ar_printf("%s/%s.c", key, module));
	if (copy_file(ar_printf("%s/%s.ko", work, module), ar_printf("%s/%s.ko", key, module)) ||
	    copy_file(ar_printf("%s/%s.c", work, module), ar_printf("%s/%s.c", key, module))) {
		fprintf(stderr, "stp: cannot write the cache %s: %s\n", key, strerror(errno));
		return -1;
	}
	if (s->keep)
		fprintf(stderr, "Keeping the build directory %s\n", work);
	else
		run((char *const[]){ "rm", "-rf", (char *)work, NULL }, "/dev/null", 0);
	return 0;
}

int build_install(const char *key, const char *module, const char *dest)
{
	return copy_file(ar_printf("%s/%s.ko", key, module), dest);
}
