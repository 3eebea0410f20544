// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loading and unloading, and the guardian.  The guardian is a child
 * forked before the module is loaded; it holds the read end of a pipe
 * whose write end only stprun holds.  stprun writes 'L' before it loads
 * the module and 'U' once it has unloaded it.  When the pipe reaches
 * EOF (stprun exited, however it died) with the module still marked
 * loaded, the guardian unloads it: stprun's death closed the control
 * file, which made the module stop itself (stp_on_release), and
 * delete_module succeeds once that release has finished.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sdt.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>
#include "stprun.h"

#define DEBUGFS		"/sys/kernel/debug"
#define DEBUGFS_MAGIC	0x64626720

char *mod_name(const char *path)
{
	const char *b = strrchr(path, '/');
	char *n, *p;
	size_t len;

	b = b ? b + 1 : path;
	len = strlen(b);
	if (len > 3 && !strcmp(b + len - 3, ".ko"))
		len -= 3;
	n = strndup(b, len);
	if (!n)
		abort();
	for (p = n; *p; p++)
		if (*p == '-')
			*p = '_';
	return n;
}

/* var=value, var an identifier; the value has no spaces (as staprun). */
int mod_param_ok(const char *arg)
{
	const char *eq = strchr(arg, '=');
	const char *p;

	if (!eq || eq == arg || isdigit((unsigned char)arg[0]))
		return 0;
	for (p = arg; p < eq; p++)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return !strpbrk(eq, " \t\n");
}

int mod_is_loaded(const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/module/%s/initstate", name);
	return stat(path, &st) == 0;
}

int mod_load(int fd, const char *name, const char *params)
{
	if (syscall(SYS_finit_module, fd, params, 0) == 0)
		return 0;
	if (errno == EEXIST)
		warnx_("module %s is already loaded", name);
	else if (errno == EPERM)
		warnx_("cannot load module %s: %s (are you root?)", name,
		       strerror(errno));
	else
		warnx_("cannot load module %s: %s (see dmesg)", name,
		       strerror(errno));
	return -1;
}

static void nap(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* 0 once it is gone; retries while it is busy (a release running). */
int mod_unload(const char *name, int seconds)
{
	int i, n = seconds * 20;

	STAP_PROBE1(staprun, remove__module, name);	/* SystemTap's marker */
	for (i = 0;; i++) {
		if (syscall(SYS_delete_module, name, O_NONBLOCK) == 0 ||
		    errno == ENOENT)
			return 0;
		if ((errno != EAGAIN && errno != EBUSY) || i >= n)
			break;
		nap(50);
	}
	warnx_("cannot unload module %s: %s", name, strerror(errno));
	return -1;
}

static char guard_name[256];

static void guardian(int rfd)
{
	int armed = 0, devnull;
	ssize_t r;
	char c;

	/* Ctrl-C and hangups are stprun's to handle; we outlive it. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	devnull = open("/dev/null", O_RDWR);
	if (devnull >= 0) {
		dup2(devnull, 0);
		dup2(devnull, 1);	/* never keep a caller's pipe open */
		close(devnull);
	}
	while ((r = read(rfd, &c, 1)) != 0) {
		if (r < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		armed = c == 'L';
	}
	if (armed && mod_is_loaded(guard_name)) {
		if (mod_unload(guard_name, 120) == 0)
			warnx_("module %s unloaded after stprun ended",
			       guard_name);
	}
	_exit(0);
}

/* Fork the guardian of module name; returns the pipe's write end. */
int guard_start(const char *name)
{
	int p[2];
	pid_t pid;

	snprintf(guard_name, sizeof(guard_name), "%s", name);
	if (pipe2(p, O_CLOEXEC))
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		close(p[1]);
		guardian(p[0]);
	}
	close(p[0]);
	return p[1];
}

void guard_tell(int fd, char what)
{
	while (write(fd, &what, 1) < 0 && errno == EINTR)
		;
}

int debugfs_ensure(void)
{
	struct statfs s;

	if (statfs(DEBUGFS, &s) == 0 && s.f_type == DEBUGFS_MAGIC)
		return 0;
	vsay("mounting debugfs at %s", DEBUGFS);
	if (mount("debugfs", DEBUGFS, "debugfs", 0, NULL)) {
		warnx_("cannot mount debugfs at %s: %s", DEBUGFS,
		       strerror(errno));
		return -1;
	}
	return 0;
}
