// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The session the pass markers pass, and the paths of stp's programs
 * for tapsets/stap_markers.stp.
 *
 * SystemTap's markers pass its C++ systemtap_session, and its example
 * stap_time.stp reads the script's name out of it with
 * @cast(session, "struct systemtap_session")->script_file, through
 * libstdc++'s std::string (_M_dataplus._M_p, _M_string_length,
 * _M_local_buf).  stp passes a struct of that name whose two members
 * SystemTap's scripts read are laid out as libstdc++'s strings are
 * (pointer, length, 16-byte local buffer), holding the script's file
 * name and its -e text, so that such scripts run unchanged.
 */
#include "markers.h"

#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

/* libstdc++'s std::string, as SystemTap's scripts walk it. */
struct stp_cxx_string {
	struct {
		const char *_M_p;	/* the text: _M_local_buf when short */
	} _M_dataplus;
	size_t _M_string_length;
	char _M_local_buf[16];
};

/* What SystemTap's scripts read of its session (see above), and
 * stp's own session for scripts written for stp. */
struct systemtap_session {
	struct stp_cxx_string script_file;
	struct stp_cxx_string cmdline_script;
	const struct session *stp_session;
};

static struct systemtap_session marker_session;

static void cxx_string(struct stp_cxx_string *c, const char *text)
{
	size_t n = text ? strlen(text) : 0;

	c->_M_string_length = n;
	if (n < sizeof(c->_M_local_buf)) {
		memcpy(c->_M_local_buf, text ? text : "", n + 1);
		c->_M_dataplus._M_p = c->_M_local_buf;
	} else {
		c->_M_dataplus._M_p = text;
	}
}

const void *markers_session(const struct session *s)
{
	if (marker_session.stp_session != s) {
		cxx_string(&marker_session.script_file, s->script_file);
		cxx_string(&marker_session.cmdline_script, s->script_text);
		marker_session.stp_session = s;
	}
	return &marker_session;
}

/* This program's path, or NAME when /proc cannot say. */
static const char *self_path(const char *name)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return name;
	exe[n] = '\0';
	return ar_printf("%s", exe);
}

struct source *markers_library(void)
{
	const char *text = ar_printf("@define stp_exe %%( \"%s\" %%)\n"
			 "@define stprun_exe %%( \"%s\" %%)\n",
			 self_path("stp"), run_helper("stprun"));
	struct source *src = src_new("<stp>", text, strlen(text));

	src->is_macro_lib = 1;
	return src;
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

int markers_system(char *const argv[], const char *log, int verbose)
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
