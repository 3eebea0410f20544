// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * input.char and input.line (tapsets/input.stp): the script reads
 * stprun's standard input through its procfs file
 * /proc/systemtap/MODULE/__stdin.  stprun writes each byte it reads
 * there in a write() of its own, so input.char fires once a character;
 * the tapset gathers lines.  A terminal is taken out of line mode and
 * echo for the session (a key reaches the script when pressed, and the
 * script decides what to show), and put back as it was at exit.
 */
#include "stprun.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

static int to_module = -1;
static struct termios saved;
static int saved_ok;

static void restore_terminal(void)
{
	if (saved_ok)
		tcsetattr(STDIN_FILENO, TCSANOW, &saved);
	saved_ok = 0;
}

static void raw_terminal(void)
{
	struct termios t;

	if (!isatty(STDIN_FILENO) || tcgetattr(STDIN_FILENO, &saved))
		return;
	t = saved;
	t.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
	t.c_cc[VMIN] = 1;
	t.c_cc[VTIME] = 0;
	if (tcsetattr(STDIN_FILENO, TCSANOW, &t))
		return;
	saved_ok = 1;
	atexit(restore_terminal);
}

int stdin_start(const char *modname)
{
	char path[256];

	snprintf(path, sizeof(path), "/proc/systemtap/%s/__stdin", modname);
	to_module = open(path, O_WRONLY | O_CLOEXEC);
	if (to_module < 0)
		return errno == ENOENT ? 0 : -1;
	vsay("the script reads standard input (%s)", path);
	raw_terminal();
	return 1;
}

/* Whatever standard input has now, byte by byte, to the module. */
int stdin_pump(void)
{
	struct pollfd p = { .fd = STDIN_FILENO, .events = POLLIN };
	char buf[256];
	ssize_t n;

	if (to_module < 0 || poll(&p, 1, 0) <= 0)
		return 0;
	n = read(STDIN_FILENO, buf, sizeof(buf));
	if (n <= 0) {
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			return 0;
		stdin_stop();	/* end of input: the script reads no more */
		return 0;
	}
	for (ssize_t i = 0; i < n; i++)
		if (write(to_module, buf + i, 1) != 1 && errno != EIO) {
			warnx_("cannot pass standard input to the script: %s", strerror(errno));
			stdin_stop();
			return -1;
		}
	return 0;
}

void stdin_stop(void)
{
	if (to_module >= 0)
		close(to_module);
	to_module = -1;
	restore_terminal();
}
