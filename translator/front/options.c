// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The command line, as SystemTap's stap takes it.  Options that later
 * passes act on are accepted here; the driver says which pass a
 * request needs when that pass is not in this build.
 */
#include "session.h"
#include "version.h"
#include "../../staprun/cmdline.h"
#include "../../staprun/rotate.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
	LONG_HELP = 256,
	LONG_VERSION,
	LONG_COMPATIBLE,
	LONG_REMOTE,
	LONG_VMLINUX,
	LONG_SYSROOT,
	LONG_SMP,
	LONG_DUMP_PROBE_TYPES,
	LONG_VITALS_DB,
	LONG_VITALS_LIMIT,
	LONG_ALL_MODULES,
	LONG_LDD,
	LONG_DUMP_FUNCTIONS,
	LONG_DUMP_PROBE_ALIASES,
	LONG_RUNTIME,
	LONG_PROLOGUE,
};

static const struct option long_opts[] = {
	{ "help", no_argument, NULL, LONG_HELP },
	{ "version", no_argument, NULL, LONG_VERSION },
	{ "compatible", required_argument, NULL, LONG_COMPATIBLE },
	{ "remote", required_argument, NULL, LONG_REMOTE },
	{ "vmlinux", required_argument, NULL, LONG_VMLINUX },
	{ "sysroot", required_argument, NULL, LONG_SYSROOT },
	{ "smp", required_argument, NULL, LONG_SMP },
	{ "dump-probe-types", no_argument, NULL, LONG_DUMP_PROBE_TYPES },
	{ "vitals-db", required_argument, NULL, LONG_VITALS_DB },
	{ "vitals-limit", required_argument, NULL, LONG_VITALS_LIMIT },
	{ "all-modules", no_argument, NULL, LONG_ALL_MODULES },
	{ "ldd", no_argument, NULL, LONG_LDD },
	{ "dump-functions", no_argument, NULL, LONG_DUMP_FUNCTIONS },
	{ "dump-probe-aliases", no_argument, NULL, LONG_DUMP_PROBE_ALIASES },
	{ "interactive", no_argument, NULL, 'i' },
	{ "runtime", required_argument, NULL, LONG_RUNTIME },
	{ "prologue-searching", optional_argument, NULL, LONG_PROLOGUE },
	{ NULL, 0, NULL, 0 },
};

static void usage(FILE *f)
{
	fputs(
"Usage: stp [options] FILE [ARGS...]     run a script file\n"
"       stp [options] -e SCRIPT [ARGS...] run a script given inline\n"
"       stp [options] -l PROBE | -L PROBE  list matching probe points\n"
"       stp --dump-probe-types              list the probe point types\n"
"       stp --dump-functions | --dump-probe-aliases  list the tapsets' names\n"
"       stp [options] -i [FILE]            build a script at a prompt (help there)\n"
"\n"
"Options:\n"
"  -p NUM         stop after pass NUM (1 parse, 2 elaborate, 3 translate,\n"
"                 4 build, 5 run)\n"
"  -v             report each pass (repeat for more detail)\n"
"  -e SCRIPT      the script text itself\n"
"  -I DIR         look for tapsets in DIR too\n"
"  -D NAME=VALUE  define a C macro for the module (limits such as MAXACTION)\n"
"  -g             guru mode: embedded C and writes to target variables\n"
"  -m NAME        name the module NAME\n"
"  -r KRELEASE    build for kernel release KRELEASE (default: running)\n"
"  -o FILE        send the script's output to FILE\n"
"  -S MB[,N]      with -o: FILE.0, FILE.1, ..., each at most MB megabytes,\n"
"                 the N newest kept\n"
"  -F             with -o: stprun runs in the background (prints the\n"
"                 module and its pid); without: the module runs on, detached\n"
"                 (stprun -A MODULE attaches again)\n"
"  -c CMD         run CMD; target() is its pid; exit when it does.  CMD is\n"
"                 split into words as by a shell and run without one; sh -c\n"
"                 runs it when it holds | & ; < > ( ) { } $( ` or a newline,\n"
"                 or starts with a shell builtin (cd, read, ...)\n"
"  -x PID         target() is PID\n"
"  -k             keep the temporary directory\n"
"  -B OPT         pass OPT to kbuild's make\n"
"  -G VAR=VALUE   set a global variable at load time\n"
"  -s NUM         transport buffer size in MB\n"
"  -T SECONDS     exit after SECONDS (a fraction too: 0.5)\n"
"  -u             keep unused code (no dead-code elimination)\n"
"  -w             no warnings (then -W has none to make errors)\n"
"  -W             warnings are errors\n"
"  -i, --interactive  a prompt that builds the script piece by piece, checks\n"
"                 each, runs it, and completes probe points and names (Tab)\n"
"  -l PROBE       list probe points matching PROBE\n"
"  -L PROBE       list them with the variables each offers\n"
"  --compatible=VERSION  language compatibility level (systemtap_v)\n"
"  --prologue-searching[=always|never|auto], -P (always)  probe a function\n"
"                 past its prologue always, never (at its entry), or (auto,\n"
"                 the default) unless its variables have location lists\n"
"  --remote=qemu  run in a throwaway QEMU guest\n"
"  --smp=N        the guest's CPUs with --remote=qemu (default 1)\n"
"  --runtime=kmod|bpf  a kernel module (default), or BPF programs\n"
"  --dump-probe-types  list the probe point types, one per line\n"
"  --dump-functions    list the tapsets' functions, one name per line\n"
"  --dump-probe-aliases  list the tapsets' probe aliases, one per line\n"
"  --vmlinux=PATH kernel debuginfo to use\n"
"  -d FILE        debuginfo of a module or program (FILE.ko, FILE.debug)\n"
"  --sysroot=DIR  the target's root directory (System.map, headers)\n"
"  --vitals-db=PATH  where a script using chopstix.stp (vitals.stp) stores\n"
"                 its epochs (default /var/lib/stp/vitals.db for root,\n"
"                 ~/.local/share/stp/vitals.db for others)\n"
"  --vitals-limit=MB[,DAYS]  keep that store under MB megabytes and DAYS\n"
"                 days; the oldest epochs go first, never the newest\n"
"  --all-modules  symbols of every loaded kernel module in backtraces: stp\n"
"                 always has them (the kernel's kallsyms names them)\n"
"  --ldd          symbols of the shared libraries of -c/-d programs: stp\n"
"                 always has them (stprun reads the process's mappings)\n"
"  --help         this text\n"
"  --version      version and build information\n", f);
}

static int bad(const char *fmt, const char *arg)
{
	fputs("stp: ", stderr);
	fprintf(stderr, fmt, arg);
	fputs("\n", stderr);
	return 1;
}

static int pass_number(struct session *s, const char *arg)
{
	char *end;
	long n = strtol(arg, &end, 10);

	if (*end || n < 1 || n > 5)
		return bad("-p takes a pass number from 1 to 5, not '%s'", arg);
	s->last_pass = (int)n;
	return 0;
}

/* -T SECONDS: a number above 0 (0.5 is 500 ms), at most a year. */
static int timeout(struct session *s, const char *arg)
{
	char *end;
	double sec = strtod(arg, &end);

	if (end == arg || *end || !(sec * 1000 >= 1) || sec > 366 * 86400.0)
		return bad("-T takes a number of seconds above 0, not '%s'", arg);
	s->timeout_ms = (long)(sec * 1000 + 0.5);
	return 0;
}

static int name_value(struct vec *v, const char *opt, const char *arg)
{
	const char *eq = strchr(arg, '=');

	if (!arg[0] || eq == arg)
		return bad(opt, arg);
	vec_push(v, (void *)arg);
	return 0;
}

/* --all-modules and --ldd: accepted, and said to be no-ops under -v */
static int all_modules, ldd;

static void symbol_opts_note(const struct session *s)
{
	if (s->verbose && all_modules)
		fputs("stp: --all-modules changes nothing: kernel modules' symbols "
		      "come from the running kernel's kallsyms, always\n", stderr);
	if (s->verbose && ldd)
		fputs("stp: --ldd changes nothing: shared libraries' symbols come "
		      "from each process's mappings (stprun reads them), always\n", stderr);
}

static int one_opt(struct session *s, int c, const char *arg)
{
	char *end;

	switch (c) {
	case 'p': return pass_number(s, arg);
	case 'v': s->verbose++; return 0;
	case 'e':
		if (s->script_text)
			return bad("only one script can be given: a second -e '%s'", arg);
		s->script_text = arg;
		return 0;
	case 'I': vec_push(&s->include_dirs, (void *)arg); return 0;
	case 'D': return name_value(&s->defines, "-D needs NAME or NAME=VALUE, not '%s'", arg);
	case 'G':
		if (!strchr(arg, '='))
			return bad("-G needs VAR=VALUE, not '%s'", arg);
		return name_value(&s->globals, "-G needs VAR=VALUE, not '%s'", arg);
	case 'B': vec_push(&s->bopts, (void *)arg); return 0;
	case 'g': s->guru = 1; return 0;
	case 'm': s->module_name = arg; return 0;
	case 'r': s->kernel_release = arg; return 0;
	case 'o': s->output_file = arg; return 0;
	case 'c': s->command = arg; return 0;
	case 'x':
		s->target_pid = strtol(arg, &end, 10);
		if (*end || s->target_pid <= 0)
			return bad("-x takes a process id, not '%s'", arg);
		return 0;
	case 's':
		s->buffer_mb = (int)strtol(arg, &end, 10);
		if (*end || s->buffer_mb < 1 || s->buffer_mb > 4095)
			return bad("-s takes a size in MB (1-4095), not '%s'", arg);
		return 0;
	case 'T': return timeout(s, arg);
	case 'F': s->detach = 1; return 0;
	case 'S': {
		long mb, n;

		if (rotate_parse(arg, &mb, &n))
			return bad("-S takes SIZE_MB[,COUNT] (a number of megabytes, then of files, each from 1), not '%s'", arg);
		s->rotate = arg;
		return 0;
	}
	case 'k': s->keep = 1; return 0;
	case 'u': s->unoptimized = 1; return 0;
	/* -w wins over -W, before or after it, as in SystemTap */
	case 'w': s->warn_mode = 0; return 0;
	case 'W': s->warn_mode = s->warn_mode ? 2 : 0; return 0;
	case 'l': s->list_probe = arg; return 0;
	case 'L': s->list_probe = arg; s->list_vars = 1; return 0;
	case 'i': s->interactive = 1; return 0;
	case LONG_COMPATIBLE: s->compatible = arg; return 0;
	case 'P': s->prologue = 1; return 0;
	case LONG_PROLOGUE:
		if (!arg || !strcmp(arg, "always"))
			s->prologue = 1;
		else if (!strcmp(arg, "never"))
			s->prologue = -1;
		else if (!strcmp(arg, "auto"))
			s->prologue = 0;
		else
			return bad("--prologue-searching takes always, never or auto, not '%s'", arg);
		return 0;
	case LONG_REMOTE: s->remote = arg; return 0;
	case LONG_RUNTIME:
		if (strcmp(arg, "kmod") && strcmp(arg, "bpf"))
			return bad("--runtime takes kmod or bpf, not '%s'", arg);
		s->runtime = arg;
		return 0;
	case LONG_SMP:
		s->smp = (int)strtol(arg, &end, 10);
		if (*end || s->smp < 1 || s->smp > 64)
			return bad("--smp takes a number of CPUs (1-64), not '%s'", arg);
		return 0;
	case LONG_VMLINUX: s->vmlinux = arg; return 0;
	case 'd': vec_push(&s->debug_files, (void *)arg); return 0;
	case LONG_SYSROOT: s->sysroot = arg; return 0;
	case LONG_VITALS_DB: s->vitals_db = arg; return 0;
	case LONG_VITALS_LIMIT: s->vitals_limit = arg; return 0;
	/* SystemTap's ways to load more symbols; stp finds them all already */
	case LONG_ALL_MODULES: all_modules = 1; return 0;
	case LONG_LDD: ldd = 1; return 0;
	case LONG_DUMP_FUNCTIONS: s->dump_names = 1; return 0;
	case LONG_DUMP_PROBE_ALIASES: s->dump_names = 2; return 0;
	default: return 1;
	}
}

/* Checks of options together, before any pass runs.  0, or 1. */
static int finish_opts(struct session *s)
{
	struct cmd c;
	char *err;

	if (s->smp && !s->remote)
		return bad("%s", "--smp needs --remote=qemu");
	if (s->rotate && !s->output_file)
		return bad("-S %s needs -o FILE", s->rotate);
	if (s->detach && s->command)
		return bad("-F and -c '%s' exclude each other (a detached run has no command)", s->command);
	if (s->command && s->target_pid)
		return bad("-c '%s' and -x exclude each other (target() is the command's "
			   "process, or the one -x names)", s->command);
	if (s->detach && s->remote)
		return bad("-F and --remote=%s exclude each other (the guest ends with the run)", s->remote);
	if (!s->command)
		return 0;
	/* the same split stprun makes, so that a bad command stops here
	 * (with --remote=qemu, $VAR as this environment has it) */
	if (cmd_parse(&c, s->command, &err))
		return bad("%s", err ? err : "-c: out of memory");
	cmd_free(&c);
	return 0;
}

/* Returns -1 to go on, or an exit status. */
int opts_parse(struct session *s, int argc, char **argv)
{
	int c;

	s->last_pass = 5;
	s->warn_mode = 1;
	opterr = 0;
	/* As stap: options may follow the script file too ("stp s.stp -c
	 * CMD"); its arguments are what is left, and "--" ends the options */
	while ((c = getopt_long(argc, argv, "p:ve:I:D:G:B:gm:r:o:c:x:s:T:FS:kuwWl:L:d:iP",
				long_opts, NULL)) != -1) {
		if (c == LONG_HELP) {
			usage(stdout);
			return 0;
		}
		if (c == LONG_DUMP_PROBE_TYPES) {
			probe_types_dump(stdout);
			return 0;
		}
		if (c == LONG_VERSION) {
			printf("stp %s: SystemTap-compatible tracer (language %s)\n",
			       STP_VERSION, STP_LANGUAGE_VERSION);
			return 0;
		}
		if (c == '?') {
			if (optopt && optopt < 256 &&
			    strchr("peIDGBmrocxsTSlLd", optopt))
				fprintf(stderr, "stp: option -%c needs an argument\n",
					optopt);
			else if (optopt)
				fprintf(stderr, "stp: unknown option -%c (see stp --help)\n",
					optopt);
			else
				fprintf(stderr, "stp: unknown option %s (see stp --help)\n",
					argv[optind - 1]);
			return 1;
		}
		if (one_opt(s, c, optarg))
			return 1;
	}
	if (finish_opts(s))
		return 1;
	symbol_opts_note(s);
	if (s->interactive && (s->list_probe || s->dump_names))
		return bad("%s", "-i builds a script: -l, -L and --dump-* list names instead");
	if (!s->script_text && !s->list_probe && !s->dump_names) {
		if (optind >= argc && s->interactive)
			return -1;
		if (optind >= argc) {
			fputs("stp: no script given (a FILE, or -e SCRIPT; see stp --help)\n",
			      stderr);
			return 1;
		}
		s->script_file = argv[optind++];
	}
	s->argc = argc - optind;
	s->argv = argv + optind;
	return -1;
}
