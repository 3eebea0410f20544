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

#include <limits.h>
#include <string.h>
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
