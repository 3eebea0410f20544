// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the preprocessor: conditionals on every condition kind,
 * @define macros and macro libraries, script arguments, the expansion
 * chain that expanded tokens carry, and the exact text of its errors.
 *
 * Most checks compare the output tokens joined by single spaces
 * (strings in double quotes, the final EOF left out).
 */
#include "preprocess.h"
#include "../../lib/base.h"
#include "unit.h"

/* ---- the session the conditions test ---- */

static const char *const config_table[][2] = {
	{ "CONFIG_SMP", "y" },
	{ "CONFIG_HZ", "250" },
	{ "CONFIG_MODULES", "m" },
	{ "CONFIG_LOCALVERSION", "-custom" },
};

static const char *last_config;	/* the name the callback was asked */

static const char *fake_config(void *ctx, const char *name)
{
	int *calls = ctx;

	(*calls)++;
	last_config = name;
	for (size_t i = 0; i < sizeof(config_table) / sizeof(config_table[0]);
	     i++)
		if (!strcmp(config_table[i][0], name))
			return config_table[i][1];
	return "";
}

static char *default_argv[] = { "5+5", "a\"b\\c", NULL };
static int config_calls;

static struct pp_env env_default(void)
{
	struct pp_env e = { 0 };

	e.kernel_v = "6.1.0";
	e.kernel_vr = "6.1.0-42-amd64";
	e.arch = "x86_64";
	e.runtime = "kernel";
	e.systemtap_v = "5.0";
	e.privilege = "stapdev";
	e.guru = 0;
	e.argc = 2;
	e.argv = default_argv;
	e.config = fake_config;
	e.config_ctx = &config_calls;
	return e;
}

/* ---- running the preprocessor ---- */

struct pped {
	char *out;	/* output tokens, see the top of the file */
	char *err;	/* stderr */
	int nerr;	/* errors reported */
	const struct tokens *ts;	/* valid until pp's next file */
};

static char *join_tokens(const struct tokens *ts)
{
	struct sbuf sb = { 0 };

	for (int i = 0; i < ts->len; i++) {
		const struct token *t = &ts->t[i];

		if (t->kind == TK_EOF)
			break;
		if (sb.len)
			sb_putc(&sb, ' ');
		if (t->kind == TK_STRING)
			sb_printf(&sb, "\"%.*s\"", t->len, t->str);
		else if (t->kind == TK_EMBEDDED)
			sb_printf(&sb, "%%{%.*s%%}", t->len, t->str);
		else
			sb_puts(&sb, t->str);
	}
	return sb.s ? sb.s : ar_strdup("");
}

static struct source *mksrc(const char *name, const char *text)
{
	return src_new(name, text, strlen(text));
}

static struct pped run_src(struct pp *pp, const struct source *src)
{
	struct pped r = { 0 };
	int before = diag_errors();

	unit_capture_begin();
	r.ts = pp_source(pp, src);
	r.err = unit_capture_end();
	r.nerr = diag_errors() - before;
	r.out = join_tokens(r.ts);
	return r;
}

static struct pped run_env(const struct pp_env *env, const char *text)
{
	struct pp_env *e = ar_alloc(sizeof(*e));

	*e = *env;
	return run_src(pp_new(e), mksrc("t.stp", text));
}

static struct pped run(const char *text)
{
	struct pp_env e = env_default();

	return run_env(&e, text);
}

/* Clean input that must give exactly this output. */
#define CHECK_PP(text, expected)                                          \
	do {                                                              \
		struct pped r_ = run(text);                               \
		CHECK_EQ_STR(r_.out, expected);                           \
		CHECK_EQ_INT(r_.nerr, 0);                                 \
		CHECK_EQ_STR(r_.err, "");                                 \
	} while (0)

/* Same, in a given environment. */
#define CHECK_PP_ENV(env, text, expected)                                 \
	do {                                                              \
		struct pped r_ = run_env(env, text);                      \
		CHECK_EQ_STR(r_.out, expected);                           \
		CHECK_EQ_INT(r_.nerr, 0);                                 \
		CHECK_EQ_STR(r_.err, "");                                 \
	} while (0)

/* Input with exactly one error: the output and the whole diagnostic. */
#define CHECK_PP_ERR(text, expected, message)                             \
	do {                                                              \
		struct pped r_ = run(text);                               \
		CHECK_EQ_STR(r_.out, expected);                           \
		CHECK_EQ_INT(r_.nerr, 1);                                 \
		CHECK_EQ_STR(r_.err, message);                            \
	} while (0)

/* "%( COND %? yes %: no %)" -> "yes" or "no" */
static const char *cond_env(const struct pp_env *env, const char *cond)
{
	struct pped r = run_env(env, ar_printf("%%( %s %%? yes %%: no %%)", cond));

	if (r.nerr) {
		printf("    condition %s: %s", cond, r.err);
		return "error";
	}
	return r.out;
}

static const char *cond(const char *c)
{
	struct pp_env e = env_default();

	return cond_env(&e, c);
}

#define CHECK_COND(c, want) CHECK_EQ_STR(cond(c), want)
#define CHECK_COND_ENV(env, c, want) CHECK_EQ_STR(cond_env(env, c), want)

/* ---- version ordering ---- */

TEST(vercmp_orders_like_strverscmp)
{
	CHECK(pp_vercmp("6.9", "6.10") < 0);
	CHECK(pp_vercmp("6.10", "6.9") > 0);
	CHECK(pp_vercmp("5.10.0", "5.4") > 0);
	CHECK(pp_vercmp("2.6.32", "2.6.32") == 0);
	CHECK(pp_vercmp("4.0", "10.0") < 0);
	CHECK(pp_vercmp("6.1.0-42-amd64", "6.1.0-9-amd64") > 0);
}

/* ---- condition kinds ---- */

TEST(cond_kernel_v)
{
	struct pp_env e = env_default();

	CHECK_COND("kernel_v >= \"5.10\"", "yes");
	CHECK_COND("kernel_v < \"5.10\"", "no");
	CHECK_COND("kernel_v > \"6.0.99\"", "yes");
	CHECK_COND("kernel_v <= \"6.1.0\"", "yes");
	CHECK_COND("kernel_v < \"6.1.0\"", "no");
	CHECK_COND("kernel_v == \"6.1.0\"", "yes");
	CHECK_COND("kernel_v != \"6.1.0\"", "no");
	CHECK_COND("kernel_v == \"6.*\"", "yes");
	/* Version order, not byte order: 6.9 < 6.10 < 6.10.1. */
	e.kernel_v = "6.9.0";
	CHECK_COND_ENV(&e, "kernel_v < \"6.10\"", "yes");
	CHECK_COND_ENV(&e, "kernel_v >= \"6.10\"", "no");
	CHECK_COND_ENV(&e, "kernel_v > \"6.8.12\"", "yes");
	e.kernel_v = "6.10.1";
	CHECK_COND_ENV(&e, "kernel_v > \"6.9\"", "yes");
	CHECK_COND_ENV(&e, "\"6.9\" < kernel_v", "yes");
}

TEST(cond_kernel_vr)
{
	CHECK_COND("kernel_vr == \"6.1.0-42-amd64\"", "yes");
	CHECK_COND("kernel_vr == \"6.1.0-*-amd64\"", "yes");
	CHECK_COND("kernel_vr == \"6.1.?-42-*\"", "yes");
	CHECK_COND("kernel_vr == \"5.*\"", "no");
	CHECK_COND("kernel_vr != \"*-rt*\"", "yes");
	CHECK_COND("kernel_vr != \"*amd64\"", "no");
	CHECK_COND("kernel_vr > \"6.1.0-9-amd64\"", "yes");
}

TEST(cond_arch)
{
	CHECK_COND("arch == \"x86_64\"", "yes");
	CHECK_COND("arch == \"x86*\"", "yes");
	CHECK_COND("arch == \"i?86\"", "no");
	CHECK_COND("arch != \"arm64\"", "yes");
	CHECK_COND("arch != \"x86_64\"", "no");
}

TEST(cond_runtime)
{
	struct pp_env e = env_default();

	CHECK_COND("runtime == \"kernel\"", "yes");
	CHECK_COND("runtime == \"bpf\"", "no");
	e.runtime = "dyninst";
	CHECK_COND_ENV(&e, "runtime == \"dyninst\"", "yes");
	CHECK_COND_ENV(&e, "runtime != \"kernel\"", "yes");
}

TEST(cond_config)
{
	struct pp_env e = env_default();

	config_calls = 0;
	CHECK_COND("CONFIG_SMP == \"y\"", "yes");
	CHECK_EQ_INT(config_calls, 1);
	CHECK_EQ_STR(last_config, "CONFIG_SMP");
	CHECK_COND("CONFIG_SMP != \"y\"", "no");
	CHECK_COND("CONFIG_MODULES == \"m\"", "yes");
	CHECK_COND("CONFIG_MODULES == \"[ym]\"", "yes");
	CHECK_COND("CONFIG_NUMA == \"y\"", "no");
	CHECK_EQ_STR(last_config, "CONFIG_NUMA");
	CHECK_COND("CONFIG_NUMA == \"\"", "yes");
	CHECK_COND("CONFIG_HZ == 250", "yes");
	CHECK_COND("CONFIG_HZ >= 1000", "no");
	CHECK_COND("CONFIG_HZ > 99", "yes");
	CHECK_COND("CONFIG_LOCALVERSION == \"-custom\"", "yes");
	/* Without a callback, every option is unset. */
	e.config = NULL;
	CHECK_COND_ENV(&e, "CONFIG_SMP == \"y\"", "no");
	CHECK_COND_ENV(&e, "CONFIG_SMP == \"\"", "yes");
}

TEST(cond_systemtap_v)
{
	struct pp_env e = env_default();

	CHECK_COND("systemtap_v >= \"4.0\"", "yes");
	CHECK_COND("systemtap_v < \"1.8\"", "no");
	CHECK_COND("systemtap_v < \"10.0\"", "yes");
	CHECK_COND("systemtap_v == \"5.0\"", "yes");
	e.systemtap_v = "2.9";
	CHECK_COND_ENV(&e, "systemtap_v >= \"2.10\"", "no");
	CHECK_COND_ENV(&e, "systemtap_v <= \"3.0\"", "yes");
}

TEST(cond_systemtap_privilege)
{
	struct pp_env e = env_default();

	CHECK_COND("systemtap_privilege == \"stapdev\"", "yes");
	CHECK_COND("systemtap_privilege != \"stapusr\"", "yes");
	CHECK_COND("systemtap_privilege == \"stap*\"", "yes");
	e.privilege = "stapusr";
	CHECK_COND_ENV(&e, "systemtap_privilege == \"stapdev\"", "no");
	CHECK_COND_ENV(&e, "systemtap_privilege == \"stapusr\"", "yes");
}

TEST(cond_guru_mode)
{
	struct pp_env e = env_default();

	CHECK_COND("guru_mode == 0", "yes");
	CHECK_COND("guru_mode == 1", "no");
	CHECK_COND("guru_mode != 0", "no");
	e.guru = 1;
	CHECK_COND_ENV(&e, "guru_mode == 1", "yes");
}

/* A name, a runtime, a mode: equal or not, never ordered (as stap). */
TEST(cond_eq_only)
{
	CHECK_PP_ERR("%( guru_mode > 0 %? yes %: no %)", "no",
		     "t.stp:1:14: parse error: expected '==' or '!=' after guru_mode, saw '>'\n"
		     "%( guru_mode > 0 %? yes %: no %)\n"
		     "             ^\n");
	CHECK_PP_ERR("%( arch <= \"x\" %? yes %)", "",
		     "t.stp:1:9: parse error: expected '==' or '!=' after arch, saw '<='\n"
		     "%( arch <= \"x\" %? yes %)\n"
		     "        ^~\n");
	CHECK_EQ_STR(cond("runtime != \"bpf\""), "yes");
}

TEST(cond_arg_count)
{
	struct pp_env e = env_default();

	CHECK_COND("$# == 2", "yes");
	CHECK_COND("$# > 1", "yes");
	CHECK_COND("$# < 2", "no");
	CHECK_COND("$# >= 3", "no");
	CHECK_COND("@# == \"2\"", "yes");
	CHECK_COND("@# != \"2\"", "no");
	e.argc = 0;
	e.argv = NULL;
	CHECK_COND_ENV(&e, "$# == 0", "yes");
	CHECK_COND_ENV(&e, "@# == \"0\"", "yes");
}

TEST(cond_literals)
{
	CHECK_COND("1 < 2", "yes");
	CHECK_COND("2 < 1", "no");
	CHECK_COND("-1 < 0", "yes");
	CHECK_COND("0 > -1", "yes");
	CHECK_COND("0x10 == 16", "yes");
	CHECK_COND("\"abc\" == \"a*\"", "yes");
	CHECK_COND("\"abc\" < \"abd\"", "yes");
}

TEST(cond_and_or)
{
	CHECK_COND("arch == \"x86_64\" && runtime == \"kernel\"", "yes");
	CHECK_COND("arch == \"x86_64\" && runtime == \"bpf\"", "no");
	CHECK_COND("arch == \"arm64\" && runtime == \"kernel\"", "no");
	CHECK_COND("arch == \"arm64\" || runtime == \"kernel\"", "yes");
	CHECK_COND("arch == \"arm64\" || runtime == \"bpf\"", "no");
	CHECK_COND("1 == 1 || 1 == 0 && 1 == 0", "yes");
	CHECK_COND("1 == 0 && 1 == 0 || 1 == 1", "yes");
	CHECK_COND("(1 == 1 || 1 == 0) && 1 == 0", "no");
	CHECK_COND("1 == 0 || 1 == 0 || 2 == 2", "yes");
	CHECK_COND("1 == 1 && 2 == 2 && 3 == 4", "no");
}

TEST(cond_no_else)
{
	CHECK_PP("a %( arch == \"x86_64\" %? b %) c", "a b c");
	CHECK_PP("a %( arch == \"arm\" %? b %) c", "a c");
}

TEST(cond_branches_hold_many_tokens)
{
	CHECK_PP("%( 1 == 1 %? probe begin { x = 1 } %: probe end { } %)",
		 "probe begin { x = 1 }");
	CHECK_PP("%( 1 == 0 %? probe begin { x = 1 } %: probe end { } %)",
		 "probe end { }");
	CHECK_PP("%( 1 == 1 %? %: x %)", "");
}

TEST(cond_nested)
{
	static const char *text =
		"%( arch == \"x86_64\" %?"
		"  %( runtime == \"kernel\" %? A %: B %)"
		"%: %( runtime == \"kernel\" %? C %: D %) %)";
	struct pp_env e = env_default();

	CHECK_PP_ENV(&e, text, "A");
	e.runtime = "bpf";
	CHECK_PP_ENV(&e, text, "B");
	e.arch = "arm64";
	CHECK_PP_ENV(&e, text, "D");
	e.runtime = "kernel";
	CHECK_PP_ENV(&e, text, "C");
}

TEST(cond_inside_statement)
{
	CHECK_PP("probe begin { x = %( arch == \"x86_64\" %? 64 %: 32 %) ; }",
		 "probe begin { x = 64 ; }");
}

TEST(cond_branch_not_taken_is_not_checked)
{
	/* Unknown conditions and stray markers in a dead branch are fine. */
	CHECK_PP("%( 1 == 0 %? %( bogus == 1 %? x %) %: y %)", "y");
	CHECK_PP("%( 1 == 1 %? y %: %( bogus == 1 %? x %) @nosuch $9 %)", "y");
}

/* ---- conditional errors ---- */

TEST(cond_err_unterminated)
{
	CHECK_PP_ERR("x %( arch == \"a\" %? a\nb",
		     "x",
		     "t.stp:1:3: parse error: unterminated conditional: missing '%)'\n"
		     "x %( arch == \"a\" %? a\n"
		     "  ^~\n");
}

TEST(cond_err_missing_then)
{
	CHECK_PP_ERR("%( arch == \"a\" %: b %) c",
		     "c",
		     "t.stp:1:16: parse error: expected '%?', saw '%:'\n"
		     "%( arch == \"a\" %: b %) c\n"
		     "               ^~\n");
	CHECK_PP_ERR("%( arch == \"a\" b %) c",
		     "c",
		     "t.stp:1:16: parse error: expected '%?', saw 'b'\n"
		     "%( arch == \"a\" b %) c\n"
		     "               ^\n");
}

TEST(cond_err_junk_after_condition)
{
	/* A condition in error counts as false. */
	CHECK_PP_ERR("%( arch == \"a\" junk %? a %: b %)",
		     "b",
		     "t.stp:1:16: parse error: expected '%?', saw 'junk'\n"
		     "%( arch == \"a\" junk %? a %: b %)\n"
		     "               ^~~~\n");
}

TEST(cond_err_stray_markers)
{
	CHECK_PP_ERR("a %) b",
		     "a b",
		     "t.stp:1:3: parse error: '%)' outside a conditional\n"
		     "a %) b\n"
		     "  ^~\n");
	CHECK_PP_ERR("a %? b",
		     "a b",
		     "t.stp:1:3: parse error: '%?' outside a conditional\n"
		     "a %? b\n"
		     "  ^~\n");
	CHECK_PP_ERR("a %: b",
		     "a b",
		     "t.stp:1:3: parse error: '%:' outside a conditional\n"
		     "a %: b\n"
		     "  ^~\n");
}

TEST(cond_err_marker_twice)
{
	/* The conditional is dropped whole: no branch is guessed at. */
	CHECK_PP_ERR("a %( 1 == 0 %? b %? c %) d",
		     "a d",
		     "t.stp:1:18: parse error: expected '%:' or '%)', saw '%?'\n"
		     "a %( 1 == 0 %? b %? c %) d\n"
		     "                 ^~\n");
	CHECK_PP_ERR("%( 1 == 1 %? b %: c %: d %)",
		     "",
		     "t.stp:1:21: parse error: expected '%)', saw '%:'\n"
		     "%( 1 == 1 %? b %: c %: d %)\n"
		     "                    ^~\n");
	CHECK_PP_ERR("%( 1 == 1 %? b %: c %? d %)",
		     "",
		     "t.stp:1:21: parse error: expected '%)', saw '%?'\n"
		     "%( 1 == 1 %? b %: c %? d %)\n"
		     "                    ^~\n");
	/* A nested conditional has markers of its own. */
	CHECK_PP("%( 1 == 1 %? %( 2 == 2 %? b %: c %) %: %( 3 == 3 %? d %) %)",
		 "b");
}

/* One error, a note on the left operand; the conditional counts as false. */
#define CHECK_KIND_ERR(cond, message)                                     \
	CHECK_PP_ERR("%( " cond " %? a %: b %)", "b", message)

TEST(cond_err_number_with_string)
{
	CHECK_KIND_ERR("$# != \"2\"",
		       "t.stp:1:10: parse error: expected a number, saw '\"2\"'\n"
		       "%( $# != \"2\" %? a %: b %)\n"
		       "         ^~~\n"
		       "t.stp:1:4: note: the left side is a number\n"
		       "%( $# != \"2\" %? a %: b %)\n"
		       "   ^~\n");
	CHECK_KIND_ERR("guru_mode == \"0\"",
		       "t.stp:1:17: parse error: expected a number, saw '\"0\"'\n"
		       "%( guru_mode == \"0\" %? a %: b %)\n"
		       "                ^~~\n"
		       "t.stp:1:4: note: the left side is a number\n"
		       "%( guru_mode == \"0\" %? a %: b %)\n"
		       "   ^~~~~~~~~\n");
	/* $1 holding a number is one: the tokens pasted point back at it. */
	{
		static char *argv[] = { "5", NULL };
		struct pp_env e = env_default();
		struct pped r;

		e.argc = 1;
		e.argv = argv;
		r = run_env(&e, "%( $1 == \"x\" %? a %)");
		CHECK_EQ_STR(r.out, "");
		CHECK_EQ_INT(r.nerr, 1);
		CHECK_EQ_STR(r.err,
			     "t.stp:1:10: parse error: expected a number, saw '\"x\"'\n"
			     "%( $1 == \"x\" %? a %)\n"
			     "         ^~~\n"
			     "t.stp:1:4: note: the left side is a number\n"
			     "%( $1 == \"x\" %? a %)\n"
			     "   ^~\n");
	}
}

TEST(cond_err_string_with_number)
{
	CHECK_KIND_ERR("kernel_v == 5",
		       "t.stp:1:16: parse error: expected a string, saw '5'\n"
		       "%( kernel_v == 5 %? a %: b %)\n"
		       "               ^\n"
		       "t.stp:1:4: note: the left side is a string\n"
		       "%( kernel_v == 5 %? a %: b %)\n"
		       "   ^~~~~~~~\n");
	CHECK_KIND_ERR("@1 == 2",
		       "t.stp:1:10: parse error: expected a string, saw '2'\n"
		       "%( @1 == 2 %? a %: b %)\n"
		       "         ^\n"
		       "t.stp:1:4: note: the left side is a string\n"
		       "%( @1 == 2 %? a %: b %)\n"
		       "   ^~\n");
	CHECK_KIND_ERR("CONFIG_SMP == 1",
		       "t.stp:1:18: parse error: expected a string, saw '1'\n"
		       "%( CONFIG_SMP == 1 %? a %: b %)\n"
		       "                 ^\n"
		       "t.stp:1:4: note: the left side is a string: CONFIG_SMP is \"y\"\n"
		       "%( CONFIG_SMP == 1 %? a %: b %)\n"
		       "   ^~~~~~~~~~\n");
}

TEST(cond_kinds_that_agree)
{
	/* Each left side with its own kind, and the CONFIG_ options that
	 * compare with both: a number's, and an unset one's. */
	CHECK_COND("$# == 2 && @# == \"2\" && guru_mode == 0", "yes");
	CHECK_COND("arch == \"x86_64\" && runtime == \"kernel\" && "
		   "systemtap_privilege == \"stapdev\"", "yes");
	CHECK_COND("kernel_vr >= \"6\" && systemtap_v >= \"4\"", "yes");
	CHECK_COND("CONFIG_HZ == \"250\" && CONFIG_HZ == 250", "yes");
	CHECK_COND("CONFIG_NUMA == 0 || CONFIG_NUMA == \"\"", "yes");
	CHECK_COND("CONFIG_HZ == CONFIG_SMP", "no");
	CHECK_COND("\"6.0\" < kernel_v", "yes");
}

TEST(cond_err_unknown_condition)
{
	CHECK_PP_ERR("%( foo == 1 %? a %: b %)",
		     "b",
		     "t.stp:1:4: parse error: unknown preprocessor condition 'foo'\n"
		     "%( foo == 1 %? a %: b %)\n"
		     "   ^~~\n");
}

TEST(cond_err_empty_condition)
{
	CHECK_PP_ERR("%( %? a %)",
		     "",
		     "t.stp:1:4: parse error: expected a preprocessor condition, saw '%?'\n"
		     "%( %? a %)\n"
		     "   ^~\n");
}

TEST(cond_err_missing_operand)
{
	CHECK_PP_ERR("%( arch == %? a %)",
		     "",
		     "t.stp:1:12: parse error: expected a literal, saw '%?'\n"
		     "%( arch == %? a %)\n"
		     "           ^~\n");
}

TEST(cond_err_missing_comparison)
{
	/* The condition ends at "%?": that is what the parser saw. */
	CHECK_PP_ERR("%( arch %? a %)",
		     "",
		     "t.stp:1:9: parse error: expected a comparison operator, saw '%?'\n"
		     "%( arch %? a %)\n"
		     "        ^~\n");
}

TEST(cond_err_missing_rparen)
{
	CHECK_PP_ERR("%( (1 == 1 %? a %)",
		     "",
		     "t.stp:1:12: parse error: expected ')', saw '%?'\n"
		     "%( (1 == 1 %? a %)\n"
		     "           ^~\n");
}

/* ---- @define ---- */

TEST(define_no_params)
{
	CHECK_PP("@define pi %( 3 %) x = @pi", "x = 3");
	CHECK_PP("@define empty %( %) x @empty y", "x y");
}

/* "@define z()" is an error in SystemTap; a macro without parameters
 * has no parentheses. */
TEST(define_empty_parens)
{
	CHECK_PP_ERR("@define z() %( 0 %) a = 1",
		     "a = 1",
		     "t.stp:1:11: parse error: expected a macro parameter name, saw ')'\n"
		     "@define z() %( 0 %) a = 1\n"
		     "          ^\n");
}

TEST(define_one_param)
{
	CHECK_PP("@define inc(a) %( @a + 1 %) x = @inc(y * 2)", "x = y * 2 + 1");
}

TEST(define_two_params)
{
	CHECK_PP("@define max(a, b) %( (@a > @b ? @a : @b) %) @max(x, 3)",
		 "( x > 3 ? x : 3 )");
}

TEST(define_three_params)
{
	/* Commas inside (), [] and {} do not split arguments. */
	CHECK_PP("@define add3(a,b,c) %( @a + @b + @c %) @add3(1, f(2, 3), m[4, 5])",
		 "1 + f ( 2 , 3 ) + m [ 4 , 5 ]");
}

TEST(define_body_spans_lines)
{
	CHECK_PP("@define blk(v) %(\n  if (@v)\n    next\n%)\nprobe begin { @blk(x) }",
		 "probe begin { if ( x ) next }");
}

TEST(define_nested_calls)
{
	CHECK_PP("@define sq(x) %( (@x * @x) %) @sq(@sq(y))",
		 "( ( y * y ) * ( y * y ) )");
}

TEST(define_param_passed_on)
{
	CHECK_PP("@define twice(x) %( (2 * @x) %)\n"
		 "@define four(y) %( @twice(@twice(@y)) %)\n"
		 "z = @four(k)",
		 "z = ( 2 * ( 2 * k ) )");
}

TEST(define_uses_other_macro)
{
	CHECK_PP("@define one %( 1 %) @define two %( @one + @one %) @two", "1 + 1");
}

TEST(define_param_shadows_macro)
{
	/* Inside the body, @one is the parameter, not the macro. */
	CHECK_PP("@define one %( 1 %) @define f(one) %( @one %) @f(9)", "9");
}

TEST(define_conditional_in_body)
{
	struct pp_env e = env_default();
	static const char *text =
		"@define bits %( %( arch == \"x86_64\" %? 64 %: 32 %) %) x = @bits";

	CHECK_PP_ENV(&e, text, "x = 64");
	e.arch = "i686";
	CHECK_PP_ENV(&e, text, "x = 32");
}

TEST(define_conditional_on_param)
{
	CHECK_PP("@define pick(n) %( %( @n == 1 %? one %: other %) %) @pick(1) @pick(2)",
		 "one other");
}

TEST(define_in_branch)
{
	/* Only the branch taken defines the macro: no duplicate. */
	struct pp_env e = env_default();
	static const char *text =
		"%( arch == \"x86_64\" %? @define w %( 8 %) %: @define w %( 4 %) %)"
		" x = @w";

	CHECK_PP_ENV(&e, text, "x = 8");
	e.arch = "arm";
	CHECK_PP_ENV(&e, text, "x = 4");
}

TEST(define_builtins_pass_through)
{
	CHECK_PP("@cast(p, \"t\") @sum(x) @hist_linear(v, 0, 10, 1) @entry($x)",
		 "@cast ( p , \"t\" ) @sum ( x ) @hist_linear ( v , 0 , 10 , 1 ) "
		 "@entry ( $x )");
}

TEST(define_strings_and_embedded_in_body)
{
	CHECK_PP("@define s %( \"a b\" %{ c %} %) @s", "\"a b\" %{ c %}");
}

/* ---- macro libraries ---- */

TEST(macro_lib_visible_to_later_files)
{
	struct pp_env e = env_default();
	struct pp *pp = pp_new(&e);
	struct source *lib = mksrc("lib.stpm",
				   "@define libm(a) %( lib(@a) %)\n"
				   "%( arch == \"x86_64\" %? @define w %( 8 %) %)\n");
	struct pped r;

	lib->is_macro_lib = 1;
	r = run_src(pp, lib);
	CHECK_EQ_STR(r.out, "");
	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_INT(r.ts->len, 1);
	CHECK_EQ_INT(r.ts->t[0].kind, TK_EOF);
	r = run_src(pp, mksrc("a.stp", "x = @libm(1) + @w"));
	CHECK_EQ_STR(r.out, "x = lib ( 1 ) + 8");
	CHECK_EQ_INT(r.nerr, 0);
	r = run_src(pp, mksrc("b.stp", "y = @libm(2)"));
	CHECK_EQ_STR(r.out, "y = lib ( 2 )");
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(macro_of_plain_file_is_private)
{
	struct pp_env e = env_default();
	struct pp *pp = pp_new(&e);
	struct pped r;

	r = run_src(pp, mksrc("a.stp", "@define mine %( 1 %) a = @mine"));
	CHECK_EQ_STR(r.out, "a = 1");
	CHECK_EQ_INT(r.nerr, 0);
	r = run_src(pp, mksrc("b.stp", "b = @mine"));
	CHECK_EQ_STR(r.out, "b =");
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "b.stp:1:5: parse error: unknown macro '@mine'\n"
		     "b = @mine\n"
		     "    ^~~~~\n");
}

TEST(macro_lib_only_defines)
{
	struct pp_env e = env_default();
	struct pp *pp = pp_new(&e);
	struct source *lib = mksrc("lib.stpm",
				   "@define ok %( 1 %)\n"
				   "probe begin { x = 1 }\n"
				   "@define ok2 %( 2 %)\n");
	struct pped r;

	lib->is_macro_lib = 1;
	r = run_src(pp, lib);
	CHECK_EQ_STR(r.out, "");
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "lib.stpm:2:1: parse error: a macro library holds only @define, saw 'probe'\n"
		     "probe begin { x = 1 }\n"
		     "^~~~~\n");
	/* Both definitions still count. */
	r = run_src(pp, mksrc("a.stp", "@ok @ok2"));
	CHECK_EQ_STR(r.out, "1 2");
	CHECK_EQ_INT(r.nerr, 0);
}

/* ---- definition errors ---- */

TEST(define_err_duplicate)
{
	struct pped r = run("@define d %( 1 %)\n@define d %( 2 %)\nx = @d");

	CHECK_EQ_STR(r.out, "x = 1");
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:2:9: parse error: macro '@d' is already defined\n"
		     "@define d %( 2 %)\n"
		     "        ^\n"
		     "t.stp:1:9: note: previous definition of '@d' is here\n"
		     "@define d %( 1 %)\n"
		     "        ^\n");
}

/* A later library file (a -I directory's) replaces another file's macro;
 * within one library file a second definition is still an error. */
TEST(define_lib_later_file_replaces)
{
	struct pp_env e = env_default();
	struct pp *pp = pp_new(&e);
	struct source *a = mksrc("a.stpm", "@define m %( 1 %)");
	struct source *b = mksrc("b.stpm", "@define m %( 2 %)");
	struct pped r;

	a->is_macro_lib = b->is_macro_lib = 1;
	r = run_src(pp, a);
	CHECK_EQ_INT(r.nerr, 0);
	r = run_src(pp, b);
	CHECK_EQ_INT(r.nerr, 0);
	r = run_src(pp, mksrc("t.stp", "x = @m"));
	CHECK_EQ_STR(r.out, "x = 2");
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(define_err_duplicate_in_lib)
{
	struct pp_env e = env_default();
	struct pp *pp = pp_new(&e);
	struct source *a = mksrc("a.stpm", "@define m %( 1 %)\n@define m %( 2 %)");
	struct pped r;

	a->is_macro_lib = 1;
	r = run_src(pp, a);
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "a.stpm:2:9: parse error: macro '@m' is already defined\n"
		     "@define m %( 2 %)\n"
		     "        ^\n"
		     "a.stpm:1:9: note: previous definition of '@m' is here\n"
		     "@define m %( 1 %)\n"
		     "        ^\n");
}

TEST(define_err_bad_name)
{
	CHECK_PP_ERR("@define %( 1 %) x",
		     "x",
		     "t.stp:1:9: parse error: expected a macro name, saw '%('\n"
		     "@define %( 1 %) x\n"
		     "        ^~\n");
}

TEST(define_err_define_itself)
{
	/* Neither the name nor the body is taken: "@define" still defines. */
	CHECK_PP_ERR("@define define %( 1 %) x\n@define d %( 2 %) @d",
		     "x 2",
		     "t.stp:1:9: parse error: '@define' cannot be redefined\n"
		     "@define define %( 1 %) x\n"
		     "        ^~~~~~\n");
	CHECK_PP_ERR("@define define(a) %( @a %)",
		     "",
		     "t.stp:1:9: parse error: '@define' cannot be redefined\n"
		     "@define define(a) %( @a %)\n"
		     "        ^~~~~~\n");
}

/* Exactly one error with this text; the output is not checked. */
#define CHECK_PP_ERR_ONLY(text, message)                                  \
	do {                                                              \
		struct pped r_ = run(text);                               \
		CHECK_EQ_INT(r_.nerr, 1);                                 \
		CHECK_EQ_STR(r_.err, message);                            \
	} while (0)

TEST(define_err_bad_params)
{
	CHECK_PP_ERR_ONLY("@define m(a b) %( @a %)",
			  "t.stp:1:13: parse error: expected ',' or ')', saw 'b'\n"
			  "@define m(a b) %( @a %)\n"
			  "            ^\n");
	CHECK_PP_ERR_ONLY("@define m($a) %( 1 %)",
			  "t.stp:1:11: parse error: expected a macro parameter name, saw '$a'\n"
			  "@define m($a) %( 1 %)\n"
			  "          ^~\n");
}

TEST(define_err_no_body)
{
	CHECK_PP_ERR("@define m 1",
		     "1",
		     "t.stp:1:11: parse error: expected '%(', saw '1'\n"
		     "@define m 1\n"
		     "          ^\n");
}

TEST(define_err_unterminated_body)
{
	CHECK_PP_ERR("@define m %( 1 +\n2",
		     "",
		     "t.stp:1:11: parse error: unterminated macro body: missing '%)'\n"
		     "@define m %( 1 +\n"
		     "          ^~\n");
}

/* ---- macro call errors ---- */

TEST(call_err_too_many_args)
{
	CHECK_PP_ERR("@define one(a) %( @a %) x = @one(1, 2);",
		     "x = ;",
		     "t.stp:1:29: parse error: macro '@one' takes 1 argument, given 2\n"
		     "@define one(a) %( @a %) x = @one(1, 2);\n"
		     "                            ^~~~\n");
}

TEST(call_err_too_few_args)
{
	CHECK_PP_ERR("@define two(a, b) %( @a @b %) x = @two(1);",
		     "x = ;",
		     "t.stp:1:35: parse error: macro '@two' takes 2 arguments, given 1\n"
		     "@define two(a, b) %( @a @b %) x = @two(1);\n"
		     "                                  ^~~~\n");
}

TEST(call_err_no_args_given)
{
	CHECK_PP_ERR("@define one(a) %( @a %) x = @one;",
		     "x = ;",
		     "t.stp:1:29: parse error: macro '@one' takes 1 argument, given 0\n"
		     "@define one(a) %( @a %) x = @one;\n"
		     "                            ^~~~\n");
	CHECK_PP_ERR("@define one(a) %( @a %) x = @one();",
		     "x = ;",
		     "t.stp:1:29: parse error: macro '@one' takes 1 argument, given 0\n"
		     "@define one(a) %( @a %) x = @one();\n"
		     "                            ^~~~\n");
}

/* A macro without parameters takes no argument list: what follows
 * is ordinary tokens. */
TEST(call_no_params_then_parens)
{
	CHECK_PP("@define z %( 0 %) x = @z(1);", "x = 0 ( 1 ) ;");
}

TEST(call_no_parens_macro_leaves_parens)
{
	/* A macro defined without a parameter list takes no arguments:
	 * a "(" after the call is ordinary text. */
	CHECK_PP("@define f %( g %) @f(1)", "g ( 1 )");
}

TEST(call_err_unknown_macro)
{
	CHECK_PP_ERR("x = @nosuch(1);",
		     "x = ( 1 ) ;",
		     "t.stp:1:5: parse error: unknown macro '@nosuch'\n"
		     "x = @nosuch(1);\n"
		     "    ^~~~~~~\n");
}

TEST(call_err_unterminated_args)
{
	struct pped r = run("@define one(a) %( @a %) x = @one(1, 2");

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:1:33: parse error: unterminated argument list of macro '@one'\n"
		     "@define one(a) %( @a %) x = @one(1, 2\n"
		     "                                ^\n");
	CHECK_EQ_STR(r.out, "x =");
	CHECK_EQ_INT(r.ts->t[r.ts->len - 1].kind, TK_EOF);
}

TEST(call_err_in_expansion_names_both_places)
{
	CHECK_PP_ERR("@define bad %( 1 + @nosuch %)\nx = @bad;",
		     "x = 1 + ;",
		     "t.stp:1:20: parse error: unknown macro '@nosuch'\n"
		     "@define bad %( 1 + @nosuch %)\n"
		     "                   ^~~~~~~\n"
		     "t.stp:2:5: note: in expansion of macro '@bad'\n"
		     "x = @bad;\n"
		     "    ^~~~\n");
}

TEST(define_err_define_in_body)
{
	struct pped r = run("@define outer %( @define %) x = @outer;");

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.out, "x = ;");
	CHECK_EQ_STR(r.err, "t.stp:1:18: parse error: @define inside a macro body or conditional branch\n"
		     "@define outer %( @define %) x = @outer;\n"
		     "                 ^~~~~~~\n"
		     "t.stp:1:33: note: in expansion of macro '@outer'\n"
		     "@define outer %( @define %) x = @outer;\n"
		     "                                ^~~~~~\n");
}

/* Run in a child: a runaway expansion must stop with one error. */
static int recursion_child(void *arg)
{
	struct pped r;

	(void)arg;
	diag_set_limit(diag_errors() + 50);
	r = run("@define r %( 1 + @r %)\nx = @r;");
	fputs(r.err, stderr);
	return r.nerr > 255 ? 255 : r.nerr;
}

TEST(call_err_recursion)
{
	char *err;
	int n = unit_isolated(recursion_child, NULL, 10, &err);
	struct sbuf want = { 0 };

	/* One error; the chain of 64 notes is cut after 6. */
	sb_puts(&want, "t.stp:1:18: parse error: macro '@r' expands too deeply (recursive?)\n"
		"@define r %( 1 + @r %)\n"
		"                 ^~\n");
	for (int i = 0; i < 6; i++)
		sb_puts(&want, "t.stp:1:18: note: in expansion of macro '@r'\n"
			"@define r %( 1 + @r %)\n"
			"                 ^~\n");
	sb_puts(&want, "note: ... and 58 more expansion steps\n");
	CHECK_EQ_INT(n, 1);
	CHECK_EQ_STR(err, want.s);
}

TEST(define_overrides_builtin_name)
{
	/* A script's own macro may reuse a builtin's name. */
	CHECK_PP("@define max(a, b) %( (@a > @b ? @a : @b) %) x = @max(1, 2) + @sum(s)",
		 "x = ( 1 > 2 ? 1 : 2 ) + @sum ( s )");
}

TEST(cond_nesting_limit)
{
	struct sbuf ok = { 0 }, deep = { 0 };
	struct pped r;

	for (int i = 0; i < 64; i++)
		sb_puts(&ok, "%( 1 == 1 %?\n");
	sb_puts(&ok, "x\n");
	for (int i = 0; i < 64; i++)
		sb_puts(&ok, "%)\n");
	r = run(ok.s);
	CHECK_EQ_STR(r.out, "x");
	CHECK_EQ_INT(r.nerr, 0);

	for (int i = 0; i < 65; i++)
		sb_puts(&deep, "%( 1 == 1 %?\n");
	sb_puts(&deep, "x\n");
	for (int i = 0; i < 65; i++)
		sb_puts(&deep, "%)\n");
	r = run(deep.s);
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:65:1: parse error: conditionals nested deeper than 64 levels\n"
		     "%( 1 == 1 %?\n"
		     "^~\n");
}

/* ---- script arguments ---- */

TEST(arg_dollar_pastes_tokens)
{
	struct pped r = run("x = $1 * 2");

	CHECK_EQ_STR(r.out, "x = 5 + 5 * 2");
	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_INT(r.ts->len, 8);
	CHECK_EQ_INT(r.ts->t[2].kind, TK_NUMBER);
	CHECK_EQ_INT(r.ts->t[2].num, 5);
	CHECK_EQ_INT(r.ts->t[3].kind, TK_OP);
	CHECK_EQ_INT(r.ts->t[3].op, OP_PLUS);
}

TEST(arg_at_is_string)
{
	struct pped r = run("x = @1 . @2");

	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_STR(r.out, "x = \"5+5\" . \"a\\\"b\\\\c\"");
	CHECK_EQ_INT(r.ts->t[2].kind, TK_STRING);
	CHECK_EQ_STR(r.ts->t[2].str, "5+5");
	CHECK_EQ_INT(r.ts->t[4].kind, TK_STRING);
	CHECK_EQ_STR(r.ts->t[4].str, "a\\\"b\\\\c");
	CHECK_EQ_INT(r.ts->t[4].len, 7);
}

TEST(arg_count)
{
	struct pped r = run("n = $# s = @#");

	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_STR(r.out, "n = 2 s = \"2\"");
	CHECK_EQ_INT(r.ts->t[2].kind, TK_NUMBER);
	CHECK_EQ_INT(r.ts->t[2].num, 2);
	CHECK_EQ_INT(r.ts->t[5].kind, TK_STRING);
}

TEST(arg_empty_string)
{
	static char *argv[] = { "", NULL };
	struct pp_env e = env_default();

	e.argc = 1;
	e.argv = argv;
	CHECK_PP_ENV(&e, "x = @1; y = $1;", "x = \"\" ; y = ;");
}

TEST(arg_inside_macro)
{
	CHECK_PP("@define m(a) %( (@a) %) x = @m($1) + @m(@1)",
		 "x = ( 5 + 5 ) + ( \"5+5\" )");
	CHECK_PP("@define n %( $1 * $# %) x = @n", "x = 5 + 5 * 2");
}

TEST(arg_err_out_of_range)
{
	CHECK_PP_ERR("x = $3;",
		     "x = ;",
		     "t.stp:1:5: parse error: script argument $3 out of range: 2 given\n"
		     "x = $3;\n"
		     "    ^~\n");
	CHECK_PP_ERR("x = @10;",
		     "x = ;",
		     "t.stp:1:5: parse error: script argument @10 out of range: 2 given\n"
		     "x = @10;\n"
		     "    ^~~\n");
}

/* "$0" is no argument (they count from 1); "$1x" is none either, and
 * no target variable: a malformed one (as stap refuses it). */
TEST(arg_zero_is_out_of_range)
{
	CHECK_PP_ERR("x = $1x", "x =",
		     "t.stp:1:5: parse error: malformed script argument '$1x': $N takes digits only\n"
		     "x = $1x\n"
		     "    ^~~\n");
	CHECK_PP_ERR("x = $0",
		     "x =",
		     "t.stp:1:5: parse error: script argument $0 out of range: 2 given\n"
		     "x = $0\n"
		     "    ^~\n");
}

/* ---- where expanded tokens come from ---- */

TEST(origin_of_macro_body)
{
	struct pped r = run("@define m %( x %)\nprobe begin { y = @m }");
	const struct token *x;

	CHECK_EQ_STR(r.out, "probe begin { y = x }");
	x = &r.ts->t[5];
	CHECK_EQ_STR(x->str, "x");
	CHECK_EQ_INT(x->loc.line, 1);
	CHECK_EQ_INT(x->loc.col, 14);
	if (!CHECK(x->loc.from != NULL))
		return;
	CHECK_EQ_STR(origin_text(x->loc.from), "in expansion of macro '@m'");
	CHECK_EQ_INT(x->loc.from->loc.line, 2);
	CHECK_EQ_INT(x->loc.from->loc.col, 19);
	CHECK_EQ_INT(x->loc.from->loc.len, 2);
	CHECK(x->loc.from->loc.from == NULL);
	/* Tokens of the file itself come from nowhere. */
	CHECK(r.ts->t[4].loc.from == NULL);
}

TEST(origin_chain_of_nested_macros)
{
	struct pped r = run("@define a %( 1 %)\n@define b %( (@a) %)\n  @b");
	const struct token *one;
	const struct origin *o;

	CHECK_EQ_STR(r.out, "( 1 )");
	one = &r.ts->t[1];
	CHECK_EQ_INT(one->loc.line, 1);
	CHECK_EQ_INT(one->loc.col, 14);
	o = one->loc.from;
	if (!CHECK(o != NULL))
		return;
	CHECK_EQ_STR(origin_text(o), "in expansion of macro '@a'");
	CHECK_EQ_INT(o->loc.line, 2);
	CHECK_EQ_INT(o->loc.col, 15);
	o = o->loc.from;
	if (!CHECK(o != NULL))
		return;
	CHECK_EQ_STR(origin_text(o), "in expansion of macro '@b'");
	CHECK_EQ_INT(o->loc.line, 3);
	CHECK_EQ_INT(o->loc.col, 3);
	CHECK(o->loc.from == NULL);
	/* "(" comes from @b's body directly. */
	CHECK(r.ts->t[0].loc.from != NULL &&
	      !strcmp(origin_text(r.ts->t[0].loc.from), "in expansion of macro '@b'"));
}

TEST(origin_of_macro_argument)
{
	/* An argument keeps its own place: it was written at the call. */
	struct pped r = run("@define m(p) %( [@p] %)\nq = @m(z)");
	const struct token *z;

	CHECK_EQ_STR(r.out, "q = [ z ]");
	z = &r.ts->t[3];
	CHECK_EQ_INT(z->loc.line, 2);
	CHECK_EQ_INT(z->loc.col, 8);
	CHECK(z->loc.from == NULL);
	CHECK(r.ts->t[2].loc.from != NULL);
	CHECK_EQ_INT(r.ts->t[2].loc.line, 1);
	CHECK_EQ_INT(r.ts->t[2].loc.col, 17);
}

TEST(origin_of_script_argument)
{
	struct pped r = run("probe begin {\n  x = $1 }");

	CHECK_EQ_STR(r.out, "probe begin { x = 5 + 5 }");
	for (int i = 5; i < 8; i++) {
		const struct token *t = &r.ts->t[i];

		CHECK_EQ_INT(t->loc.line, 2);
		CHECK_EQ_INT(t->loc.col, 7);
		if (!CHECK(t->loc.from != NULL))
			continue;
		CHECK_EQ_STR(origin_text(t->loc.from), "in script argument $1");
		CHECK_EQ_INT(t->loc.from->loc.line, 2);
		CHECK_EQ_INT(t->loc.from->loc.col, 7);
	}
}

TEST(output_ends_with_eof)
{
	struct pped r = run("@define m %( 1 %)");

	CHECK_EQ_STR(r.out, "");
	CHECK_EQ_INT(r.ts->len, 1);
	CHECK_EQ_INT(r.ts->t[0].kind, TK_EOF);
	r = run("");
	CHECK_EQ_INT(r.ts->len, 1);
	CHECK_EQ_INT(r.ts->t[0].kind, TK_EOF);
}

int main(int argc, char **argv)
{
	diag_set_limit(1000000);
	return unit_main(argc, argv);
}
