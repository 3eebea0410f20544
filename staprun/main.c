// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stprun [-v] [-o FILE [-S MB[,N]]] [-F] [-c CMD | -x PID] [-b MB]
 *        [-D NAME=N]... [-G var=value]... MODULE.ko [var=value ...]
 * stprun [-v] [-o FILE [-S MB[,N]]] -A MODULE
 *
 * The session, as stprun sees it: load the module; send START (the
 * write returns once the begin probes ran); release the -c command;
 * then, until DONE, move output from the trace files to stdout and
 * show control messages.  EXIT from the module, a signal, or the end
 * of the -c command sends STOP (once); the write returns after the end
 * probes ran and DONE is queued.  Then drain the trace files, print the
 * summary and unload.  The guardian (module.c) unloads the module if
 * stprun dies on the way.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/sdt.h>
#include <sys/wait.h>
#include <unistd.h>
#include "cmdline.h"
#include "rotate.h"
#include "stprun.h"
#include "vitals_msg.h"

#define DEBUGFS		"/sys/kernel/debug"
#define CTL_BUF		(64 * 1024)	/* as the module's queue */

int stprun_verbose;

static volatile sig_atomic_t got_signal;

struct run {
	char *path, *name, *params;
	const char *out_path, *cmd;
	struct cmd command;	/* -c CMD split into words */
	int target;
	int guard, ctl;
	FILE *out;
	struct traces *tr;
	pid_t child;
	int child_stopped;	/* the child waits, stopped, for SIGCONT */
	int child_err;		/* read end: errno if the exec failed */
	int stop_sent, started, failed, done;
	const char *vitals_db;	/* --vitals-db */
	uint64_t vitals_max_bytes, vitals_max_age_s;	/* --vitals-limit */
	struct epochs *epochs;	/* when the script uses chopstix.stp */
	int detach, attach;	/* -F, -A */
	int detached;		/* -F without -o: left it running */
	long rotate_mb, rotate_n;	/* -S */
	int stdin_asked;	/* looked for the script's __stdin file */
};

void warnx_(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("stprun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

void vsay(const char *fmt, ...)
{
	va_list ap;

	if (!stprun_verbose)
		return;
	va_start(ap, fmt);
	fputs("stprun: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void usage(FILE *f)
{
	fputs("usage: stprun [-v] [-o FILE] [-c CMD | -x PID] [-b MB] [--vitals-db PATH] "
	      "[-D NAME=N]... [-G var=value]...\n"
	      "              [-S MB[,N]] [-F] MODULE.ko [var=value ...]\n"
	      "       stprun [-v] [-o FILE] [-S MB[,N]] -A MODULE\n"
	      "  -v            report progress on stderr\n"
	      "  -o FILE       write the output to FILE\n"
	      "  -S MB[,N]     with -o: FILE.0, FILE.1, ..., each at most MB "
	      "megabytes,\n"
	      "                the N newest kept\n"
	      "  -F            with -o: run in the background (prints the "
	      "module and\n"
	      "                the pid); without: leave the module running, "
	      "detached\n"
	      "  -A            attach to MODULE, left running by -F\n"
	      "  -c CMD        run CMD once the probes are in; stop when it "
	      "exits; CMD is\n"
	      "                split into words as by a shell and run without "
	      "one; sh -c\n"
	      "                runs it when it holds | & ; < > ( ) { } $( ` "
	      "or a newline,\n"
	      "                or starts with a shell builtin (cd, read, ...)\n"
	      "  -x PID        target() is PID\n"
	      "  -b MB         output buffer per CPU, 1..4095 MB\n"
	      "  --vitals-db PATH  the vital-signs store of a script that uses\n"
	      "                chopstix.stp (default: /var/lib/stp/vitals.db for root,\n"
	      "                ~/.local/share/stp/vitals.db otherwise)\n"
	      "  --vitals-limit MB[,DAYS]  keep the store under MB megabytes and\n"
	      "                DAYS days of epochs (0: no limit), the oldest deleted\n"
	      "  -D NAME=N     set the module's limit NAME (stpd_NAME)\n"
	      "  -G var=value  set the script's global var\n", f);
}

static void append_param(char **params, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void append_param(char **params, const char *fmt, ...)
{
	char *p, *n;
	va_list ap;

	va_start(ap, fmt);
	if (vasprintf(&p, fmt, ap) < 0)
		abort();
	va_end(ap);
	if (asprintf(&n, "%s%s%s", *params, **params ? " " : "", p) < 0)
		abort();
	free(p);
	free(*params);
	*params = n;
}

static int parse_long(const char *s, long lo, long hi, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return !errno && end != s && !*end && *v >= lo && *v <= hi;
}

/* " 'a' 'b c'": n words (n < 0: up to NULL), each in quotes. */
static char *quoted(char **w, int n)
{
	char *t = strdup(""), *next;

	for (int i = 0; n < 0 ? w[i] != NULL : i < n; i++) {
		if (asprintf(&next, "%s '%s'", t, w[i]) < 0)
			abort();
		free(t);
		t = next;
	}
	return t;
}

/* -v: how the command will run, word by word. */
static void cmd_say(const struct cmd *c)
{
	char *a = quoted(c->argv, -1), *e = quoted(c->env, c->nenv);

	vsay("-c runs%s%s%s", a, c->nenv ? ", environment" : "", e);
	free(a);
	free(e);
}

/* Before the module is loaded: a command that cannot run stops here. */
static int cmd_check(struct run *r)
{
	char *err;

	if (cmd_parse(&r->command, r->cmd, &err)) {
		warnx_("%s", err ? err : "-c: out of memory");
		return 1;
	}
	if (stprun_verbose)
		cmd_say(&r->command);
	return 0;
}

/* -S, -F and -A with the rest; nargs: module arguments.  0, or 1. */
static int check_modes(const struct run *r, int nargs)
{
	if (r->rotate_mb && !r->out_path) {
		warnx_("-S needs -o FILE");
		return 1;
	}
	if (r->detach && (r->cmd || r->attach)) {
		warnx_("-F and %s exclude each other", r->cmd ? "-c" : "-A");
		return 1;
	}
	if (r->attach && (r->cmd || r->target || *r->params || nargs > 0)) {
		warnx_("-A attaches to a running module: -c, -x, -b, -D, -G "
		       "and module arguments are for loading one");
		return 1;
	}
	return 0;
}

enum { OPT_VITALS_DB = 256, OPT_VITALS_LIMIT };
static const struct option long_opts[] = {
	{ "vitals-db", required_argument, NULL, OPT_VITALS_DB },
	{ "vitals-limit", required_argument, NULL, OPT_VITALS_LIMIT },
	{ NULL, 0, NULL, 0 },
};

/* 0, or 1 after a message. */
static int parse_args(struct run *r, int argc, char **argv)
{
	long v;
	int c, i;

	r->params = strdup("");
	while ((c = getopt_long(argc, argv, "+vo:c:x:b:D:G:S:FAh", long_opts, NULL)) != -1) {
		switch (c) {
		case OPT_VITALS_DB:
			r->vitals_db = optarg;
			break;
		case OPT_VITALS_LIMIT:
			if (epochs_limits(optarg, &r->vitals_max_bytes,
					  &r->vitals_max_age_s)) {
				warnx_("--vitals-limit wants MB[,DAYS], not '%s'", optarg);
				return 1;
			}
			break;
		case 'v':
			stprun_verbose++;
			break;
		case 'o':
			r->out_path = optarg;
			break;
		case 'c':
			r->cmd = optarg;
			break;
		case 'x':
			if (!parse_long(optarg, 1, 0x7fffffff, &v)) {
				warnx_("-x wants a process id, not '%s'", optarg);
				return 1;
			}
			r->target = v;
			break;
		case 'b':
			if (!parse_long(optarg, 1, 4095, &v)) {
				warnx_("-b wants a size in MB (1..4095), not '%s'",
				       optarg);
				return 1;
			}
			append_param(&r->params, "stp_bufsize=%ld", v << 20);
			break;
		case 'D': {
			const char *eq = strchr(optarg, '=');

			if (!mod_param_ok(optarg) ||
			    !parse_long(eq + 1, -0x7fffffffL - 1, 0x7fffffff, &v)) {
				warnx_("-D wants NAME=N, not '%s'", optarg);
				return 1;
			}
			append_param(&r->params, "stpd_%s", optarg);
			break;
		}
		case 'G':
			if (!mod_param_ok(optarg)) {
				warnx_("-G wants var=value, not '%s'", optarg);
				return 1;
			}
			append_param(&r->params, "%s", optarg);
			break;
		case 'S':
			if (rotate_parse(optarg, &r->rotate_mb, &r->rotate_n)) {
				warnx_("-S wants SIZE_MB[,COUNT] (megabytes, "
				       "then files, each from 1), not '%s'",
				       optarg);
				return 1;
			}
			break;
		case 'F':
			r->detach = 1;
			break;
		case 'A':
			r->attach = 1;
			break;
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return 1;
		}
	}
	if (check_modes(r, argc - optind - 1))
		return 1;
	/* the module's own -v notes (probe points kprobes refused, ...) */
	if (stprun_verbose)
		append_param(&r->params, "stpd_verbose=%d", stprun_verbose);
	if (r->cmd && r->target) {
		warnx_("-c and -x exclude each other");
		return 1;
	}
	if (r->cmd && cmd_check(r))
		return 1;
	if (optind >= argc) {
		warnx_("no module given");
		usage(stderr);
		return 1;
	}
	r->path = argv[optind];
	for (i = optind + 1; i < argc; i++) {
		if (!mod_param_ok(argv[i])) {
			warnx_("module arguments are var=value, not '%s'",
			       argv[i]);
			return 1;
		}
		append_param(&r->params, "%s", argv[i]);
	}
	r->name = mod_name(r->path);
	return 0;
}

static void on_signal(int sig)
{
	got_signal = sig;
}

static void signals(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;	/* no SA_RESTART: reads return */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

static int ctl_send(struct run *r, uint32_t type, const void *p, uint32_t len)
{
	char buf[sizeof(struct stp_msg_hdr) + 64];
	struct stp_msg_hdr h = { type, len };
	ssize_t w;

	STAP_PROBE3(staprun, send__ctlmsg, type, p, len);	/* SystemTap's marker */
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), p, len);
	do
		w = write(r->ctl, buf, sizeof(h) + len);
	while (w < 0 && errno == EINTR);
	if (w != (ssize_t)(sizeof(h) + len)) {
		warnx_("writing to the module: %s", strerror(errno));
		return -1;
	}
	return 0;
}

/* Every closed epoch the module holds, if the script uses chopstix.stp. */
static void epochs_drain(struct run *r)
{
	int rc;

	if (!r->epochs && !epochs_present(r->name))
		return;
	if (!r->epochs)
		r->epochs = epochs_new(r->name, r->vitals_db, r->vitals_max_bytes,
				       r->vitals_max_age_s);
	while (r->epochs && (rc = epochs_collect(r->epochs, r->out)) > 0)
		;
	if (!r->epochs || rc < 0)
		r->failed = 1;
}

static void stop(struct run *r, const char *why)
{
	if (r->stop_sent)
		return;
	r->stop_sent = 1;
	vsay("stopping (%s)", why);
	/* room for the end probes' output: full buffers (stprun -A after
	 * a long detach) would drop it */
	if (traces_pump(r->tr, r->out, 0))
		r->failed = 1;
	/* an epoch closed, its notice not read yet: take it now, so that the
	 * module can close the last one (it has two copies) */
	epochs_drain(r);
	if (ctl_send(r, STP_MSG_STOP, NULL, 0))
		r->failed = r->done = 1;
}

/*
 * The child, from fork to exec.  It waits for the probes stopped by its
 * own SIGSTOP, not in a read(): a probe armed meanwhile (vfs_read's
 * return, say) would see the read return in target()'s process.  Once
 * continued, its first system call is the exec.  PR_SET_PDEATHSIG: if
 * stprun is killed, the command goes with it, started or not.
 */
static void child(struct run *r, pid_t parent, int err_fd)
{
	const struct cmd *c = &r->command;
	ssize_t w;
	int e;

	close(r->ctl);		/* stprun's death must release ctl */
	close(r->guard);	/* ... and reach the guardian */
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	signal(SIGPIPE, SIG_DFL);
	for (int i = 0; i < c->nenv; i++)
		putenv(c->env[i]);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() != parent)
		_exit(127);
	kill(getpid(), SIGSTOP);
	execvp(c->path, c->argv);
	e = errno;
	w = write(err_fd, &e, sizeof(e));	/* short: stprun sees the exit */
	(void)w;
	_exit(127);
}

/* -c: a child stopped until the probes are in; it then runs CMD. */
static int start_child(struct run *r)
{
	pid_t parent = getpid();
	int e[2], st;

	if (pipe2(e, O_CLOEXEC))
		return -1;
	r->child = fork();
	if (r->child < 0)
		return -1;
	if (r->child == 0) {
		close(e[0]);
		child(r, parent, e[1]);
	}
	close(e[1]);
	r->child_err = e[0];
	r->target = r->child;
	if (waitpid(r->child, &st, WUNTRACED) != r->child || !WIFSTOPPED(st)) {
		r->child = 0;
		errno = ECHILD;
		return -1;
	}
	r->child_stopped = 1;
	return 0;
}

/* Go: continue the child into its exec; else it is killed unstarted. */
static void release_child(struct run *r, int go)
{
	if (!r->child_stopped)
		return;
	r->child_stopped = 0;
	if (kill(r->child, go ? SIGCONT : SIGKILL))
		warnx_("cannot start the command: %s", strerror(errno));
}

/* The child has exited: if it could not exec the command, say why. */
static void exec_failed(struct run *r)
{
	int e;

	if (read(r->child_err, &e, sizeof(e)) == sizeof(e)) {
		warnx_("cannot run '%s': %s", r->command.path, strerror(e));
		r->failed = 1;
	}
	close(r->child_err);
	r->child_err = -1;
}

static void child_check(struct run *r)
{
	int st;

	if (r->child <= 0 || waitpid(r->child, &st, WNOHANG) != r->child)
		return;
	r->child = 0;
	exec_failed(r);
	stop(r, "command exited");
}

/* The script ended before the -c command: SIGTERM it, SIGKILL later. */
static void end_child(struct run *r)
{
	int i;

	if (r->child <= 0)
		return;
	kill(r->child, SIGTERM);
	for (i = 0; i < 20; i++) {
		if (waitpid(r->child, NULL, WNOHANG) == r->child)
			return;
		usleep(50000);
	}
	kill(r->child, SIGKILL);
	waitpid(r->child, NULL, 0);
}

/*
 * system(): cmd (len bytes, no NUL) run by sh -c in the background, as
 * SystemTap runs it: a grandchild, so stprun neither waits for it nor
 * leaves a zombie; it writes to stprun's own stdout and stderr.
 */
static void run_system(const char *cmd, size_t len)
{
	char *c = strndup(cmd, len);
	pid_t pid;

	if (!c)
		return;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		if (fork() == 0) {
			execl("/bin/sh", "sh", "-c", c, (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, NULL, 0);
	else
		warnx_("system(): cannot start '%s': %s", c, strerror(errno));
	free(c);
}

/*
 * switch_file(): the output read so far stays in this file, what follows
 * goes to the next: FILE.N+1 with -S, else FILE.1, FILE.2, ... after
 * FILE.  Without -o there is no file to switch: said once.
 */
static void switch_output(struct run *r)
{
	static long n;
	char name[4096];
	FILE *f;

	if (!r->out_path) {
		if (!n++)
			warnx_("switch_file(): the output goes to no file (-o FILE): nothing to switch");
		return;
	}
	traces_pump(r->tr, r->out, 0);
	if (r->rotate_mb) {
		if (rotate_next(r->out))
			warnx_("switch_file(): cannot go to the next file: %s", strerror(errno));
		return;
	}
	snprintf(name, sizeof(name), "%s.%ld", r->out_path, ++n);
	f = fopen(name, "we");
	if (!f) {
		warnx_("switch_file(): cannot write %s: %s", name, strerror(errno));
		return;
	}
	if (fclose(r->out))
		r->failed = 1;
	r->out = f;
}

static void on_msg(struct run *r, const struct stp_msg_hdr *h, const char *p)
{
	struct stp_msg_started s;

	switch (h->type) {
	case STP_MSG_STARTED:
		memset(&s, 0, sizeof(s));
		memcpy(&s, p, h->len < sizeof(s) ? h->len : sizeof(s));
		r->started = 1;
		if (s.rc)
			r->failed = 1;
		vsay("started%s", s.rc ? " (begin failed)" : "");
		release_child(r, !s.rc && !r->stop_sent);
		break;
	case STP_MSG_EXIT:
		stop(r, "the script exited");
		break;
	case STP_MSG_ERROR:
	case STP_MSG_WARNING:
		fwrite(p, 1, h->len, stderr);
		break;
	case STP_MSG_SYSTEM:
		run_system(p, h->len);
		break;
	case STP_MSG_SWITCH_FILE:
		switch_output(r);
		break;
	case STP_MSG_CX_EPOCH:
		if (!r->epochs)
			r->epochs = epochs_new(r->name, r->vitals_db, r->vitals_max_bytes,
					       r->vitals_max_age_s);
		if (!r->epochs || epochs_collect(r->epochs, r->out) < 0)
			r->failed = 1;
		break;
	case STP_MSG_ATTACHED:
		if (attach_reply(r->tr, r->name, p, h->len))
			r->failed = r->done = 1;
		r->started = 1;
		break;
	case STP_MSG_DONE:
		r->failed |= report_done((const struct stp_msg_done *)p,
					 h->len);
		r->done = 1;
		break;
	default:
		warnx_("unknown message %u from the module", h->type);
	}
}

/* Wait up to ~50 ms in the module for messages and handle them. */
static void ctl_poll(struct run *r)
{
	static _Alignas(8) char buf[CTL_BUF];
	struct stp_msg_hdr h;
	ssize_t n, off;

	n = read(r->ctl, buf, sizeof(buf));
	if (n < 0) {
		if (errno == EINTR)
			return;
		warnx_("reading from the module: %s", strerror(errno));
		r->failed = r->done = 1;
		return;
	}
	for (off = 0; off + (ssize_t)sizeof(h) <= n; off += sizeof(h) + h.len) {
		memcpy(&h, buf + off, sizeof(h));
		if (h.len > n - off - sizeof(h))
			break;
		on_msg(r, &h, buf + off + sizeof(h));
	}
}

/* -F, once the begin probes ran: 1 when stprun is to leave now. */
static int detach_or_daemon(struct run *r)
{
	struct stp_msg_detach m;

	r->detach = 0;
	if (r->out_path) {
		if (daemonize(r->name))
			warnx_("cannot go to the background: %s; running here",
			       strerror(errno));
		return 0;
	}
	detach_prepare(r->tr, r->out, &m);
	if (ctl_send(r, STP_MSG_DETACH, &m, sizeof(m))) {
		r->failed = 1;
		return 0;
	}
	r->detached = 1;
	return 1;
}

static int session(struct run *r)
{
	struct stp_msg_start m = { 0 };
	char dir[512];

	snprintf(dir, sizeof(dir), DEBUGFS "/" STP_DEBUGFS_PREFIX "%s", r->name);
	r->tr = traces_open(dir);
	snprintf(dir + strlen(dir), sizeof(dir) - strlen(dir), "/ctl");
	r->ctl = open(dir, O_RDWR | O_CLOEXEC);
	if (r->ctl < 0 || !r->tr) {
		if (r->ctl < 0 && errno == EBUSY)
			warnx_("module %s has a stprun attached already", r->name);
		else if (r->ctl < 0)
			warnx_("cannot open %s: %s", dir, strerror(errno));
		return -1;
	}
	if (r->cmd && start_child(r)) {
		warnx_("cannot start the command: %s", strerror(errno));
		return -1;
	}
	signals();
	m.target = r->target;
	vsay("starting (target %d)", r->target);
	if (r->attach ? ctl_send(r, STP_MSG_ATTACH, NULL, 0) :
	    ctl_send(r, STP_MSG_START, &m, sizeof(m)))
		return -1;
	while (r->attach && !r->started && !r->done)
		ctl_poll(r);	/* output waits for where it stands */
	while (!r->done) {
		if (r->detach && r->started && !r->stop_sent && !r->failed &&
		    detach_or_daemon(r))
			return 0;
		if (got_signal) {
			stop(r, strsignal(got_signal));
			got_signal = 0;
		}
		ctl_poll(r);
		if (traces_pump(r->tr, r->out, 0))
			r->failed = 1;
		if (r->started && !r->stdin_asked && !r->detach) {
			r->stdin_asked = 1;
			if (stdin_start(r->name) < 0)
				warnx_("cannot open the script's standard input: %s", strerror(errno));
		}
		if (stdin_pump())
			r->failed = 1;
		child_check(r);
	}
	stdin_stop();
	epochs_drain(r);	/* the last epoch, closed after the one before was read */
	if (traces_pump(r->tr, r->out, 1))
		r->failed = 1;
	return 0;
}

/* -F without -o: the session runs on; the guardian stands down. */
static int leave(struct run *r)
{
	int rc = fflush(r->out) || (r->out != stdout && fclose(r->out));

	traces_close(r->tr);
	close(r->ctl);		/* detached: the module goes on */
	guard_tell(r->guard, 'D');
	detach_said(r->name);
	return rc ? 1 : 0;
}

/* -A MODULE: the session of a module -F left running, to its end. */
static int attach(struct run *r)
{
	int rc;

	if (!mod_is_loaded(r->name)) {
		warnx_("module %s is not loaded", r->name);
		return 1;
	}
	r->guard = guard_start(r->name);
	if (r->guard < 0) {
		warnx_("cannot fork: %s", strerror(errno));
		return 1;
	}
	guard_tell(r->guard, 'L');	/* if this stprun dies, unload it */
	rc = debugfs_ensure();
	if (!rc)
		rc = session(r);
	if (r->ctl < 0)
		guard_tell(r->guard, 'D');	/* not ours to unload */
	return rc;
}

int main(int argc, char **argv)
{
	struct run r = { .ctl = -1, .guard = -1, .child_err = -1 };
	int fd, rc;

	if (parse_args(&r, argc, argv))
		return 1;
	r.out = stdout;
	if (r.out_path && !(r.out = r.rotate_mb ?
			    rotate_open(r.out_path, r.rotate_mb << 20, r.rotate_n) :
			    fopen(r.out_path, "w"))) {
		warnx_("cannot write %s%s: %s", r.out_path, r.rotate_mb ? ".0" : "",
		       strerror(errno));
		return 1;
	}
	if (r.attach) {
		rc = attach(&r);
		if (r.ctl < 0)
			return 1;	/* never attached: as it was */
		goto ended;
	}
	fd = open(r.path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		warnx_("cannot open module %s: %s", r.path, strerror(errno));
		return 1;
	}
	if (mod_is_loaded(r.name)) {
		warnx_("module %s is already loaded", r.name);
		return 1;
	}
	r.guard = guard_start(r.name);
	if (r.guard < 0) {
		warnx_("cannot fork: %s", strerror(errno));
		return 1;
	}
	vsay("loading %s as %s%s%s", r.path, r.name, *r.params ? " with " : "",
	     r.params);
	guard_tell(r.guard, 'L');
	STAP_PROBE1(staprun, insert__module, r.path);	/* SystemTap's marker */
	if (mod_load(fd, r.name, r.params)) {
		guard_tell(r.guard, 'U');
		return 1;
	}
	close(fd);
	rc = debugfs_ensure();
	if (!rc)
		rc = session(&r);
	if (r.detached)
		return leave(&r);
ended:
	release_child(&r, 0);
	traces_close(r.tr);	/* open files pin the module */
	if (r.ctl >= 0)
		close(r.ctl);	/* unless DONE came, the module stops itself */
	vsay("unloading %s", r.name);
	if (mod_unload(r.name, 10) == 0)
		guard_tell(r.guard, 'U');
	else
		rc = -1;
	epochs_free(r.epochs);
	if (fflush(r.out) || (r.out != stdout && fclose(r.out)))
		rc = -1;
	end_child(&r);
	return rc || r.failed ? 1 : 0;
}
