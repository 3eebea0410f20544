// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -F and -A: a session that outlives its stprun.
 *
 * -F without -o: once the begin probes ran, stprun writes out what it
 * has read and tells the module where the output stands (STP_MSG_DETACH:
 * the sequence number of the first record not written), then closes ctl
 * and exits, leaving the module loaded and its probes running.  Output
 * waits in the module's buffers; what does not fit is counted there.
 * stprun -A NAME opens ctl again and sends STP_MSG_ATTACH; the answer
 * gives that sequence number, so records come out in order as if one
 * stprun had read them all, and the bytes dropped meanwhile, which are
 * reported at once (and again in the end-of-run summary, with the rest).
 *
 * -F with -o FILE: stprun goes to the background once the begin probes
 * ran (fork, setsid, standard files on /dev/null) and runs the session
 * as usual, into FILE, until a signal or exit() ends it.
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "stprun.h"

#define DETACH_ROUNDS	40	/* rounds of 50 ms to wait for a gap */

static void nap_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000L };

	while (nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/*
 * A record read but held for a predecessor on another CPU would be lost
 * to the next stprun: wait for the gap to fill (the module closes
 * partial sub-buffers every 100 ms), and only after two seconds give up
 * on it as the end of a run does (counted).
 */
void detach_prepare(struct traces *t, FILE *out, struct stp_msg_detach *m)
{
	int i;

	traces_pump(t, out, 0);
	for (i = 0; traces_held(t) && i < DETACH_ROUNDS; i++) {
		nap_ms(50);
		traces_pump(t, out, 0);
	}
	if (traces_held(t))
		traces_pump(t, out, 1);
	memset(m, 0, sizeof(*m));
	m->next_seq = traces_next(t);
}

void detach_said(const char *name)
{
	printf("%s\n", name);
	fflush(stdout);
	warnx_("detached from %s, which runs on; 'stprun -A %s' attaches again",
	       name, name);
}

int daemonize(const char *name)
{
	pid_t pid;
	int fd;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid > 0) {
		printf("%s %d\n", name, (int)pid);
		fflush(stdout);
		_exit(0);
	}
	setsid();
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	return 0;
}

int attach_reply(struct traces *t, const char *name, const void *p, size_t len)
{
	struct stp_msg_attached a;

	memset(&a, 0, sizeof(a));
	memcpy(&a, p, len < sizeof(a) ? len : sizeof(a));
	if (a.rc) {
		warnx_("module %s is not detached (no stprun -F left it running)",
		       name);
		return -1;
	}
	traces_resume(t, a.next_seq);
	vsay("attached to %s", name);
	if (a.dropped)
		fprintf(stderr, "WARNING: %" PRId64 " output bytes dropped while "
			"detached (transport buffers full); raise with -b MB "
			"(buffer size per CPU)\n", (int64_t)a.dropped);
	return 0;
}
