// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the parser and the printer.
 *
 *  - parse and print: input text -> the exact canonical text of
 *    print_script(), for every declaration, statement and expression
 *    form; each check also reparses the printed text and prints it
 *    again, which must give the same text (the round-trip property);
 *  - AST shape: node kinds, operators, foreach sort markers...;
 *  - errors: exact diagnostics, recovery at the next declaration, and
 *    the error cap.
 *
 * diag_errors() counts for the whole process: the checks use deltas.
 */
#include "parse.h"
#include "../../lib/base.h"
#include "unit.h"
#include "parse_env.h"


struct parsed {
	struct script *s;
	char *out;	/* print_script() */
	char *err;	/* stderr */
	int nerr;	/* errors reported */
};

static struct parsed parse_opts(const char *text, int is_user, int guru)
{
	struct parsed r = { 0 };
	struct source *src = src_new("t.stp", text, strlen(text));
	struct parse_opts opts = { .guru = guru };
	struct sbuf sb = { 0 };
	int before = diag_errors();

	src->is_user = is_user;
	unit_capture_begin();
	r.s = parse_source(pp_new(&env), src, &opts);
	r.err = unit_capture_end();
	r.nerr = diag_errors() - before;
	print_script(&sb, r.s);
	r.out = sb.s ? sb.s : ar_strdup("");
	return r;
}

/* A user script in guru mode: everything is allowed. */
static struct parsed parse(const char *text)
{
	return parse_opts(text, 1, 1);
}

/* The first declaration of a clean parse. */
static struct node *first_decl(const char *text)
{
	struct parsed r = parse(text);

	if (!CHECK_EQ_INT(r.nerr, 0) || !CHECK(r.s->decls.len > 0))
		return NULL;
	return r.s->decls.v[0];
}

/* The expression of "probe begin { EXPR }". */
static struct node *expr_of(const char *e)
{
	struct node *p = first_decl(ar_printf("probe begin { %s }", e));
	struct node *st;

	if (!p || !CHECK_EQ_INT(p->body->args.len, 1))
		return NULL;
	st = p->body->args.v[0];
	if (!CHECK_EQ_INT(st->kind, N_EXPRSTMT))
		return NULL;
	return st->lhs;
}

/* print(parse(text)) == expected, no errors, and printing is stable:
 * print(parse(expected)) == expected. */
static void check_print(const char *file, int line, const char *text,
			const char *expected)
{
	struct parsed r = parse(text), again;

	if (!unit_check_int(file, line, r.nerr, 0, "no parse errors"))
		printf("    input: %s\n%s", text, r.err);
	if (!unit_check_str(file, line, r.out, expected, "printed text"))
		printf("    input: %s\n", text);
	again = parse(r.out);
	unit_check_int(file, line, again.nerr, 0, "no errors on reparse");
	unit_check_str(file, line, again.out, r.out, "round trip");
}

#define CHECK_PRINT(text, expected) check_print(__FILE__, __LINE__, text, expected)

/* One expression statement inside "probe begin". */
#define CHECK_EXPR(text, expected)                                        \
	CHECK_PRINT("probe begin { " text " }",                           \
		    "probe begin {\n\t" expected ";\n}\n")

/* Statements inside "probe begin"; expected is the body, indented. */
#define CHECK_STMTS(text, expected)                                       \
	CHECK_PRINT("probe begin { " text " }",                           \
		    "probe begin {\n" expected "}\n")

/* ---- declarations ---- */

/* A user script with nothing in it is an error, as in SystemTap; the
 * check is in parse_errors() below, where CHECK_PARSE_ERR lives. */

TEST(decl_probe)
{
	CHECK_PRINT("probe begin {}", "probe begin {\n}\n");
	CHECK_PRINT("probe begin { x = 1 }", "probe begin {\n\tx = 1;\n}\n");
	CHECK_PRINT("probe begin, end, error {}", "probe begin, end, error {\n}\n");
}

TEST(decl_probe_points)
{
	CHECK_PRINT("probe kernel.function(\"vfs_read\").return {}",
		    "probe kernel.function(\"vfs_read\").return {\n}\n");
	CHECK_PRINT("probe timer.ms(100), timer.s(-1) {}",
		    "probe timer.ms(100), timer.s(-1) {\n}\n");
	CHECK_PRINT("probe process(\"/bin/ls\").statement(\"*@main.c:10\") {}",
		    "probe process(\"/bin/ls\").statement(\"*@main.c:10\") {\n}\n");
	CHECK_PRINT("probe module(\"ext4\").function(\"*\").call ? {}",
		    "probe module(\"ext4\").function(\"*\").call? {\n}\n");
	CHECK_PRINT("probe a.b !, c.d?, e.f! {}",
		    "probe a.b!, c.d?, e.f! {\n}\n");
	CHECK_PRINT("probe a if (x > 1) {}", "probe a if (x > 1) {\n}\n");
	CHECK_PRINT("probe a? if (x) {}", "probe a? if (x) {\n}\n");
}

TEST(decl_probe_wildcards)
{
	CHECK_PRINT("probe syscall.* {}", "probe syscall.* {\n}\n");
	CHECK_PRINT("probe syscall.*at, foo*bar.baz* {}",
		    "probe syscall.*at, foo*bar.baz* {\n}\n");
	CHECK_PRINT("probe *.x {}", "probe *.x {\n}\n");
}

TEST(decl_probe_brace_group)
{
	CHECK_PRINT("probe syscall.{open,close}.return {}",
		    "probe syscall.{open, close}.return {\n}\n");
	CHECK_PRINT("probe {begin, end} {}", "probe {begin, end} {\n}\n");
}

TEST(decl_alias)
{
	CHECK_PRINT("probe myread = kernel.function(\"vfs_read\") { fd = $fd }",
		    "probe myread = kernel.function(\"vfs_read\") {\n\tfd = $fd;\n}\n");
	CHECK_PRINT("probe a.b = c, d? { }", "probe a.b = c, d? {\n}\n");
}

TEST(decl_alias_epilogue)
{
	CHECK_PRINT("probe myread += kernel.function(\"vfs_read\") { done = 1 }",
		    "probe myread += kernel.function(\"vfs_read\") {\n\tdone = 1;\n}\n");
}

TEST(decl_alias_prologue_epilogue)
{
	CHECK_PRINT("probe a = b { pro() }, { epi() }",
		    "probe a = b {\n\tpro();\n}, {\n\tepi();\n}\n");
}

TEST(decl_global)
{
	CHECK_PRINT("global a", "global a\n");
	CHECK_PRINT("global a, b = 2, c[10], d%[5], e%",
		    "global a\nglobal b = 2\nglobal c[10]\nglobal d%[5]\n"
		    "global e%\n");
	CHECK_PRINT("global s = \"x\" \"y\"; global n = -5;",
		    "global s = \"xy\"\nglobal n = -5\n");
	CHECK_PRINT("global h = 0x10", "global h = 0x10\n");
}

TEST(decl_function)
{
	CHECK_PRINT("function f() {}", "function f () {\n}\n");
	CHECK_PRINT("function f:long (a:long, b:string, c) { return a }",
		    "function f:long (a:long, b:string, c) {\n\treturn a;\n}\n");
	CHECK_PRINT("function g:string () %{ STAP_RETURN(\"x\"); %}",
		    "function g:string () %{ STAP_RETURN(\"x\"); %}\n");
}

TEST(decl_function_priority)
{
	CHECK_PRINT("function f() :10 { }", "function f ():10 {\n}\n");
	CHECK_PRINT("function f:long (x:long):2 { return x }",
		    "function f:long (x:long):2 {\n\treturn x;\n}\n");
}

TEST(decl_private)
{
	CHECK_PRINT("private global x", "private global x\n");
	CHECK_PRINT("private y = 1, z", "private global y = 1\nprivate global z\n");
	CHECK_PRINT("private function f() {}", "private function f () {\n}\n");
}

TEST(decl_embedded)
{
	CHECK_PRINT("%{ #include <linux/sched.h> %}",
		    "%{ #include <linux/sched.h> %}\n");
	CHECK_PRINT("%{\nint x;\n%}\nprobe begin {}",
		    "%{\nint x;\n%}\nprobe begin {\n}\n");
}

TEST(decl_several)
{
	CHECK_PRINT("global n\nprobe begin { n++ }\nfunction f() { return n }\n",
		    "global n\nprobe begin {\n\tn++;\n}\n"
		    "function f () {\n\treturn n;\n}\n");
}

/* ---- statements ---- */

TEST(stmt_expr_and_null)
{
	CHECK_STMTS("x = 1; ; y = 2", "\tx = 1;\n\t;\n\ty = 2;\n");
}

TEST(stmt_block)
{
	CHECK_STMTS("{ x = 1 } {}", "\t{\n\t\tx = 1;\n\t}\n\t{\n\t}\n");
}

TEST(stmt_if)
{
	CHECK_STMTS("if (x) y = 1", "\tif (x)\n\t\ty = 1;\n");
	CHECK_STMTS("if (x) { y = 1 }", "\tif (x) {\n\t\ty = 1;\n\t}\n");
	CHECK_STMTS("if (x) y = 1 else y = 2",
		    "\tif (x)\n\t\ty = 1;\n\telse\n\t\ty = 2;\n");
	CHECK_STMTS("if (x) { y = 1 } else { y = 2 }",
		    "\tif (x) {\n\t\ty = 1;\n\t}\n\telse {\n\t\ty = 2;\n\t}\n");
}

TEST(stmt_else_if_chain)
{
	CHECK_STMTS("if (a) x = 1 else if (b) x = 2 else x = 3",
		    "\tif (a)\n\t\tx = 1;\n\telse if (b)\n\t\tx = 2;\n"
		    "\telse\n\t\tx = 3;\n");
}

TEST(stmt_dangling_else)
{
	/* The else belongs to the nearest if. */
	CHECK_STMTS("if (a) if (b) x = 1 else x = 2",
		    "\tif (a)\n\t\tif (b)\n\t\t\tx = 1;\n\t\telse\n\t\t\tx = 2;\n");
	CHECK_STMTS("if (a) { if (b) x = 1 } else x = 2",
		    "\tif (a) {\n\t\tif (b)\n\t\t\tx = 1;\n\t}\n\telse\n\t\tx = 2;\n");
}

TEST(stmt_while)
{
	CHECK_STMTS("while (i < 10) i++", "\twhile (i < 10)\n\t\ti++;\n");
	CHECK_STMTS("while (1) { break; continue }",
		    "\twhile (1) {\n\t\tbreak;\n\t\tcontinue;\n\t}\n");
}

TEST(stmt_for)
{
	CHECK_STMTS("for (i = 0; i < 10; i++) s += i",
		    "\tfor (i = 0; i < 10; i++)\n\t\ts += i;\n");
	CHECK_STMTS("for (;;) {}", "\tfor (; ; ) {\n\t}\n");
	CHECK_STMTS("for (; i;) ;", "\tfor (; i; )\n\t\t;\n");
}

TEST(stmt_foreach_forms)
{
	CHECK_STMTS("foreach (k in a) n++", "\tforeach (k in a)\n\t\tn++;\n");
	CHECK_STMTS("foreach ([k] in a) {}", "\tforeach (k in a) {\n\t}\n");
	CHECK_STMTS("foreach ([k1, k2] in a) {}",
		    "\tforeach ([k1, k2] in a) {\n\t}\n");
	CHECK_STMTS("foreach (v = k in a) {}",
		    "\tforeach (v = [k] in a) {\n\t}\n");
	CHECK_STMTS("foreach (v = [k1, k2] in a) {}",
		    "\tforeach (v = [k1, k2] in a) {\n\t}\n");
}

TEST(stmt_foreach_sorting)
{
	CHECK_STMTS("foreach (k+ in a) {}", "\tforeach (k+ in a) {\n\t}\n");
	CHECK_STMTS("foreach ([k1, k2-] in a) {}",
		    "\tforeach ([k1, k2-] in a) {\n\t}\n");
	CHECK_STMTS("foreach (k in a-) {}", "\tforeach (k in a-) {\n\t}\n");
	CHECK_STMTS("foreach (v+ = k in a) {}",
		    "\tforeach (v = [k] in a+) {\n\t}\n");
	CHECK_STMTS("foreach (k in a- limit 10) {}",
		    "\tforeach (k in a- limit 10) {\n\t}\n");
	CHECK_STMTS("foreach (k in a limit n * 2) {}",
		    "\tforeach (k in a limit n * 2) {\n\t}\n");
}

TEST(stmt_foreach_aggregate_sort)
{
	CHECK_STMTS("foreach (k in s @sum-) {}",
		    "\tforeach (k in s @sum-) {\n\t}\n");
	CHECK_STMTS("foreach ([a, b] in s @count+ limit 5) {}",
		    "\tforeach ([a, b] in s @count+ limit 5) {\n\t}\n");
}

TEST(stmt_nested_sub_statements)
{
	CHECK_STMTS("foreach (x in a) foreach (y in b) while (z) z--",
		    "\tforeach (x in a)\n\t\tforeach (y in b)\n"
		    "\t\t\twhile (z)\n\t\t\t\tz--;\n");
	CHECK_STMTS("if (x) ; else y = 1",
		    "\tif (x)\n\t\t;\n\telse\n\t\ty = 1;\n");
	CHECK_STMTS("if (a) x = 1; else { try { y() } catch { } }",
		    "\tif (a)\n\t\tx = 1;\n\telse {\n\t\ttry {\n"
		    "\t\t\ty();\n\t\t} catch {\n\t\t}\n\t}\n");
}

TEST(stmt_foreach_slice)
{
	CHECK_STMTS("foreach ([a, b] in arr[*, 5]) {}",
		    "\tforeach ([a, b] in arr[*, 5]) {\n\t}\n");
	CHECK_STMTS("foreach ([a, b] in arr[x + 1, *] @max- limit 3) {}",
		    "\tforeach ([a, b] in arr[x + 1, *] @max- limit 3) {\n\t}\n");
}

TEST(stmt_delete)
{
	CHECK_STMTS("delete a; delete b[1, \"x\"]; delete c[*, 2]",
		    "\tdelete a;\n\tdelete b[1, \"x\"];\n\tdelete c[*, 2];\n");
}

TEST(stmt_try_catch)
{
	CHECK_STMTS("try { x = 1 } catch { y = 2 }",
		    "\ttry {\n\t\tx = 1;\n\t} catch {\n\t\ty = 2;\n\t}\n");
	CHECK_STMTS("try { } catch (msg) { print(msg) }",
		    "\ttry {\n\t} catch (msg) {\n\t\tprint(msg);\n\t}\n");
}

TEST(stmt_jumps)
{
	CHECK_STMTS("next; break; continue", "\tnext;\n\tbreak;\n\tcontinue;\n");
	/* return leaves a function; a probe handler has no caller. */
	CHECK_PRINT("function f() { return; return x + 1 }",
		    "function f () {\n\treturn;\n\treturn x + 1;\n}\n");
	CHECK_PRINT("function f() { return }", "function f () {\n\treturn;\n}\n");
	CHECK_PRINT("function f() { if (x) { while (y) return 1 } }",
		    "function f () {\n\tif (x) {\n\t\twhile (y)\n\t\t\treturn 1;\n\t}\n}\n");
}

TEST(stmt_embedded)
{
	CHECK_STMTS("%{ /* c */ %}", "\t%{ /* c */ %};\n");
}

/* ---- expressions: precedence and associativity ---- */

TEST(expr_assign_right_assoc)
{
	CHECK_EXPR("a = b = c", "a = b = c");
	CHECK_EXPR("a += b -= c", "a += b -= c");
}

TEST(expr_assign_ops)
{
	CHECK_STMTS("a += 1; a -= 1; a *= 2; a /= 2; a %= 3; a <<= 1; a >>= 1; "
		    "a &= 1; a |= 1; a ^= 1; s .= \"x\"; st <<< 5",
		    "\ta += 1;\n\ta -= 1;\n\ta *= 2;\n\ta /= 2;\n\ta %= 3;\n"
		    "\ta <<= 1;\n\ta >>= 1;\n\ta &= 1;\n\ta |= 1;\n\ta ^= 1;\n"
		    "\ts .= \"x\";\n\tst <<< 5;\n");
}

TEST(expr_left_assoc)
{
	CHECK_EXPR("x = a - b - c", "x = a - b - c");
	CHECK_EXPR("x = (a - b) - c", "x = a - b - c");
	CHECK_EXPR("x = a - (b - c)", "x = a - (b - c)");
	CHECK_EXPR("x = a / b * c", "x = a / b * c");
	CHECK_EXPR("x = a / (b * c)", "x = a / (b * c)");
	CHECK_EXPR("x = a . b . c", "x = a . b . c");
	CHECK_EXPR("x = a . (b . c)", "x = a . (b . c)");
}

TEST(expr_precedence)
{
	CHECK_EXPR("x = a + b * c", "x = a + b * c");
	CHECK_EXPR("x = (a + b) * c", "x = (a + b) * c");
	CHECK_EXPR("x = a . b + c", "x = a . b + c");
	CHECK_EXPR("x = (a . b) + c", "x = (a . b) + c");
	CHECK_EXPR("x = a << 1 + 2", "x = a << 1 + 2");
	CHECK_EXPR("x = (a << 1) + 2", "x = (a << 1) + 2");
	CHECK_EXPR("x = a << b . c", "x = a << b . c");
	CHECK_EXPR("x = a < b == c > d", "x = a < b == c > d");
	CHECK_EXPR("x = a == (b < c)", "x = a == (b < c)");
	CHECK_EXPR("x = a & b == c", "x = a & b == c");
	CHECK_EXPR("x = (a & b) == c", "x = (a & b) == c");
	CHECK_EXPR("x = a | b ^ c & d", "x = a | b ^ c & d");
	CHECK_EXPR("x = (a | b) & c", "x = (a | b) & c");
	CHECK_EXPR("x = a || b && c", "x = a || b && c");
	CHECK_EXPR("x = (a || b) && c", "x = (a || b) && c");
	CHECK_EXPR("x = a && b | c", "x = a && b | c");
	CHECK_EXPR("x = s =~ \"^a\" && t !~ \"b$\"", "x = s =~ \"^a\" && t !~ \"b$\"");
	CHECK_EXPR("x = a >= b != c <= d", "x = a >= b != c <= d");
	CHECK_EXPR("x = a % b >> c", "x = a % b >> c");
}

TEST(expr_in)
{
	CHECK_EXPR("x = k in a", "x = k in a");
	CHECK_EXPR("x = [k1, k2] in a", "x = [k1, k2] in a");
	CHECK_EXPR("x = [k] in a", "x = k in a");
	CHECK_EXPR("x = x in a && y", "x = x in a && y");
	CHECK_EXPR("x = y && x in a", "x = y && x in a");
	CHECK_EXPR("x = !x in a", "x = !x in a");
	CHECK_EXPR("x = !(x in a)", "x = !(x in a)");
	CHECK_EXPR("x = a + 1 in b", "x = a + 1 in b");
	CHECK_EXPR("x = a == 1 in b", "x = a == 1 in b");
	CHECK_EXPR("x = (k in a) in b", "x = (k in a) in b");
	CHECK_EXPR("x = [*, 2] in a", "x = [*, 2] in a");
	CHECK_EXPR("x = (a & b) in c", "x = (a & b) in c");
	CHECK_EXPR("x = a & b in c", "x = a & b in c");
}

TEST(expr_ternary)
{
	CHECK_EXPR("x = a ? b : c", "x = a ? b : c");
	CHECK_EXPR("x = a ? b : c ? d : e", "x = a ? b : c ? d : e");
	CHECK_EXPR("x = a ? b ? c : d : e", "x = a ? b ? c : d : e");
	CHECK_EXPR("x = (a ? b : c) ? d : e", "x = (a ? b : c) ? d : e");
	CHECK_EXPR("x = a || b ? c : d", "x = a || b ? c : d");
	CHECK_EXPR("x = a ? y = 1 : 2", "x = a ? y = 1 : 2");
	CHECK_EXPR("x = (a = 1) ? b : c", "x = (a = 1) ? b : c");
	CHECK_EXPR("x = (a ? b : c) + 1", "x = (a ? b : c) + 1");
}

TEST(expr_unary)
{
	CHECK_EXPR("x = -a", "x = -a");
	CHECK_EXPR("x = - -x", "x = -(-x)");
	CHECK_EXPR("x = -(-1)", "x = -(-1)");
	CHECK_EXPR("x = - - - y", "x = -(-(-y))");
	CHECK_EXPR("x = -(-(-y))", "x = -(-(-y))");
	CHECK_EXPR("x = +-a", "x = +(-a)");
	CHECK_EXPR("x = !!a", "x = !!a");
	CHECK_EXPR("x = ~-a", "x = ~-a");
	CHECK_EXPR("x = -~a", "x = -(~a)");
	CHECK_EXPR("x = -a * b", "x = -a * b");
	CHECK_EXPR("x = -(a * b)", "x = -(a * b)");
	CHECK_EXPR("x = !a == b", "x = !a == b");
	CHECK_EXPR("x = !(a == b)", "x = !(a == b)");
	CHECK_EXPR("x = 5 - -3", "x = 5 - -3");
	CHECK_EXPR("x = a - (-b)", "x = a - -b");
}

TEST(expr_incdec)
{
	CHECK_STMTS("x++; x--; ++x; --x; a[1]++; --$p->f",
		    "\tx++;\n\tx--;\n\t++x;\n\t--x;\n\ta[1]++;\n\t--$p->f;\n");
	CHECK_EXPR("y = -x++", "y = -x++");
	CHECK_EXPR("y = - ++x", "y = -(++x)");
	CHECK_EXPR("y = a++ + ++b", "y = a++ + ++b");
	CHECK_EXPR("y = a+++b", "y = a++ + b");
	CHECK_EXPR("y = ++a[k]", "y = ++a[k]");
}

TEST(expr_literals)
{
	CHECK_EXPR("x = 0x1F + 017 + 42", "x = 0x1F + 017 + 42");
	CHECK_EXPR("x = \"a\\\"b\\n\"", "x = \"a\\\"b\\n\"");
	CHECK_EXPR("x = \"ab\" \"cd\"", "x = \"abcd\"");
	CHECK_EXPR("x = \"\"", "x = \"\"");
	CHECK_EXPR("x = %{ 1 + 2 %}", "x = %{ 1 + 2 %}");
}

TEST(expr_calls_and_arrays)
{
	CHECK_EXPR("f()", "f()");
	CHECK_EXPR("printf(\"%d %s\\n\", x, y)", "printf(\"%d %s\\n\", x, y)");
	CHECK_EXPR("x = a[1, \"k\", f(2)]", "x = a[1, \"k\", f(2)]");
	CHECK_EXPR("x = a[b[c]]", "x = a[b[c]]");
}

TEST(expr_target_vars)
{
	CHECK_EXPR("x = $var", "x = $var");
	CHECK_EXPR("x = $x$$", "x = $x$$");
	CHECK_EXPR("x = $x$", "x = $x$");
	CHECK_EXPR("x = $$vars", "x = $$vars");
	CHECK_EXPR("x = $$parms$$", "x = $$parms$$");
	CHECK_EXPR("x = $p->f->g", "x = $p->f->g");
	CHECK_EXPR("x = $p->arr[2]->g", "x = $p->arr[2]->g");
	CHECK_EXPR("x = $p->f$", "x = $p->f$");
	CHECK_EXPR("x = $p->f$$", "x = $p->f$$");
	CHECK_EXPR("x = &$x", "x = &$x");
	CHECK_EXPR("x = &$x->y", "x = &$x->y");
	CHECK_EXPR("x = &$x->y[1]", "x = &$x->y[1]");
}

TEST(expr_autocast)
{
	CHECK_EXPR("x = (e)->f", "x = (e)->f");
	CHECK_EXPR("x = (p + 8)->f->g", "x = (p + 8)->f->g");
	CHECK_EXPR("x = (p)[2]", "x = (p)[2]");
	CHECK_EXPR("x = &(e)->f", "x = &(e)->f");
	CHECK_EXPR("x = s->name", "x = s->name");
	CHECK_EXPR("x = f()->m", "x = f()->m");
	CHECK_EXPR("x = f()[1]", "x = f()[1]");
	CHECK_EXPR("x = a[1]->m", "x = a[1]->m");
	CHECK_EXPR("x = a[1][2]", "x = a[1][2]");
	CHECK_EXPR("x = ((e)->f)->g", "x = ((e)->f)->g");
	CHECK_EXPR("(e)->f++", "(e)->f++");
	CHECK_EXPR("x = (a)++", "x = a++");
}

TEST(expr_at_builtins)
{
	CHECK_EXPR("x = @cast(p, \"task_struct\")->f[2]",
		   "x = @cast(p, \"task_struct\")->f[2]");
	CHECK_EXPR("x = @cast(p, \"task_struct\", \"kernel<linux/sched.h>\")->pid",
		   "x = @cast(p, \"task_struct\", \"kernel<linux/sched.h>\")->pid");
	CHECK_EXPR("x = &@cast(p, \"t\")->f", "x = &@cast(p, \"t\")->f");
	CHECK_EXPR("x = &@var(\"v\")", "x = &@var(\"v\")");
	CHECK_EXPR("x = @entry($p)->f", "x = @entry($p)->f");
	CHECK_EXPR("x = @var(\"jiffies@kernel/time.c\")",
		   "x = @var(\"jiffies@kernel/time.c\")");
	CHECK_EXPR("x = @entry($x) + @defined($y->z)",
		   "x = @entry($x) + @defined($y->z)");
	CHECK_EXPR("x = @const(\"PAGE_SIZE\") + @perf(\"cycles\")",
		   "x = @const(\"PAGE_SIZE\") + @perf(\"cycles\")");
	CHECK_EXPR("x = @kderef(4, p) + @uderef(8, q)",
		   "x = @kderef(4, p) + @uderef(8, q)");
}

TEST(expr_aggregates)
{
	CHECK_EXPR("print(@hist_linear(s, 0, 100, 10))",
		   "print(@hist_linear(s, 0, 100, 10))");
	CHECK_EXPR("print(@hist_log(s[k]))", "print(@hist_log(s[k]))");
	CHECK_EXPR("x = @count(s) + @sum(s) + @min(s) + @max(s) + @avg(s) + @variance(s)",
		   "x = @count(s) + @sum(s) + @min(s) + @max(s) + @avg(s) + @variance(s)");
	CHECK_EXPR("s[k] <<< v * 2", "s[k] <<< v * 2");
}

/* ---- AST shape ---- */

TEST(ast_assign_chain)
{
	struct node *n = expr_of("a = b = c");

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_ASSIGN);
	CHECK_EQ_INT(n->op, OP_ASSIGN);
	CHECK_EQ_INT(n->lhs->kind, N_VAR);
	CHECK_EQ_STR(n->lhs->name, "a");
	CHECK_EQ_INT(n->rhs->kind, N_ASSIGN);
	CHECK_EQ_STR(n->rhs->lhs->name, "b");
	CHECK_EQ_STR(n->rhs->rhs->name, "c");
}

TEST(ast_binary_left_assoc)
{
	struct node *n = expr_of("a - b - c");

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_BINARY);
	CHECK_EQ_INT(n->op, OP_MINUS);
	CHECK_EQ_INT(n->lhs->kind, N_BINARY);
	CHECK_EQ_INT(n->lhs->op, OP_MINUS);
	CHECK_EQ_STR(n->lhs->lhs->name, "a");
	CHECK_EQ_STR(n->lhs->rhs->name, "b");
	CHECK_EQ_INT(n->rhs->kind, N_VAR);
	CHECK_EQ_STR(n->rhs->name, "c");
	/* The operator's own position. */
	CHECK_EQ_INT(n->loc.col, 21);
	CHECK_EQ_INT(n->lhs->loc.col, 17);
}

TEST(ast_cat_and_add)
{
	struct node *n = expr_of("a . b + c");

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_BINARY);
	CHECK_EQ_INT(n->op, OP_DOT);
	CHECK_EQ_INT(n->rhs->kind, N_BINARY);
	CHECK_EQ_INT(n->rhs->op, OP_PLUS);
}

TEST(ast_in)
{
	struct node *n = expr_of("!x in a && y");

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_BINARY);
	CHECK_EQ_INT(n->op, OP_ANDAND);
	CHECK_EQ_INT(n->lhs->kind, N_IN);
	CHECK_EQ_STR(n->lhs->lhs->name, "a");
	CHECK_EQ_INT(n->lhs->args.len, 1);
	CHECK_EQ_INT(((struct node *)n->lhs->args.v[0])->kind, N_UNARY);
	CHECK_EQ_INT(((struct node *)n->lhs->args.v[0])->op, OP_NOT);
}

TEST(ast_unary_and_incdec)
{
	struct node *n = expr_of("- -x");

	if (n) {
		CHECK_EQ_INT(n->kind, N_UNARY);
		CHECK_EQ_INT(n->op, OP_MINUS);
		CHECK_EQ_INT(n->lhs->kind, N_UNARY);
		CHECK_EQ_INT(n->lhs->lhs->kind, N_VAR);
	}
	n = expr_of("x++");
	if (n) {
		CHECK_EQ_INT(n->kind, N_INCDEC);
		CHECK_EQ_INT(n->op, OP_INC);
		CHECK_EQ_INT(n->post, 1);
	}
	n = expr_of("--x");
	if (n) {
		CHECK_EQ_INT(n->kind, N_INCDEC);
		CHECK_EQ_INT(n->op, OP_DEC);
		CHECK_EQ_INT(n->post, 0);
	}
}

TEST(ast_ternary)
{
	struct node *n = expr_of("a ? b : c ? d : e");

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_TERNARY);
	CHECK_EQ_STR(n->cond->name, "a");
	CHECK_EQ_STR(n->then->name, "b");
	CHECK_EQ_INT(n->els->kind, N_TERNARY);
}

TEST(ast_targets)
{
	struct node *n = expr_of("&$x->y[2]");
	struct node *c;

	if (n) {
		CHECK_EQ_INT(n->kind, N_TARGET);
		CHECK_EQ_STR(n->name, "$x");
		CHECK_EQ_INT(n->addr, 1);
		CHECK_EQ_INT(n->comps.len, 2);
		c = n->comps.v[0];
		CHECK_EQ_INT(c->kind, N_MEMBER);
		CHECK_EQ_STR(c->name, "y");
		c = n->comps.v[1];
		CHECK_EQ_INT(c->kind, N_SUBSCRIPT);
		CHECK_EQ_INT(c->lhs->num, 2);
	}
	n = expr_of("$x$$");
	if (n) {
		CHECK_EQ_INT(n->kind, N_TARGET);
		CHECK_EQ_STR(n->name, "$x");
		CHECK_EQ_INT(n->pretty, 2);
	}
	n = expr_of("$$parms$");
	if (n) {
		CHECK_EQ_STR(n->name, "$$parms");
		CHECK_EQ_INT(n->pretty, 1);
	}
}

TEST(ast_autocast_and_cast)
{
	struct node *n = expr_of("(e)->f");

	if (n) {
		CHECK_EQ_INT(n->kind, N_AUTOCAST);
		CHECK_EQ_INT(n->lhs->kind, N_VAR);
		CHECK_EQ_INT(n->comps.len, 1);
	}
	n = expr_of("@cast(p, \"t\", \"m\")->f[2]");
	if (n) {
		CHECK_EQ_INT(n->kind, N_AT);
		CHECK_EQ_STR(n->name, "@cast");
		CHECK_EQ_INT(n->args.len, 3);
		CHECK_EQ_INT(((struct node *)n->args.v[1])->kind, N_STR);
		CHECK_EQ_STR(((struct node *)n->args.v[1])->str, "t");
		CHECK_EQ_INT(n->comps.len, 2);
	}
	n = expr_of("@hist_linear(v, 0, 100, 10)");
	if (n) {
		CHECK_EQ_INT(n->kind, N_AT);
		CHECK_EQ_INT(n->args.len, 4);
	}
}

TEST(ast_literals)
{
	struct node *n = expr_of("0x10");

	if (n) {
		CHECK_EQ_INT(n->kind, N_NUM);
		CHECK_EQ_INT(n->num, 16);
		CHECK_EQ_STR(n->str, "0x10");
	}
	n = expr_of("\"a\" \"b\\n\"");
	if (n) {
		CHECK_EQ_INT(n->kind, N_STR);
		CHECK_EQ_STR(n->str, "ab\\n");
	}
}

static struct node *first_stmt(const char *body)
{
	struct node *p = first_decl(ar_printf("probe begin { %s }", body));

	if (!p || !CHECK(p->body->args.len > 0))
		return NULL;
	return p->body->args.v[0];
}

TEST(ast_foreach_key_sort)
{
	struct node *n = first_stmt("foreach ([a, b-, c] in x limit 5) {}");
	struct foreach *fe;

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_FOREACH);
	fe = n->fe;
	CHECK(fe->value == NULL);
	CHECK_EQ_INT(fe->keys.len, 3);
	CHECK_EQ_INT(fe->key_sort[0], 0);
	CHECK_EQ_INT(fe->key_sort[1], -1);
	CHECK_EQ_INT(fe->key_sort[2], 0);
	CHECK_EQ_INT(fe->value_sort, 0);
	CHECK_EQ_STR(fe->array->name, "x");
	CHECK_EQ_INT(fe->slice.len, 0);
	CHECK(fe->sort_agg == NULL);
	if (CHECK(fe->limit != NULL))
		CHECK_EQ_INT(fe->limit->num, 5);
	CHECK_EQ_INT(n->body->kind, N_BLOCK);
}

TEST(ast_foreach_value_sort)
{
	struct node *n = first_stmt("foreach (v = [k] in x @sum+) {}");
	struct foreach *fe;

	if (!n)
		return;
	fe = n->fe;
	CHECK_EQ_STR(fe->value, "v");
	CHECK_EQ_INT(fe->keys.len, 1);
	CHECK_EQ_INT(fe->key_sort[0], 0);
	CHECK_EQ_INT(fe->value_sort, 1);
	CHECK_EQ_STR(fe->sort_agg, "@sum");
	CHECK(fe->limit == NULL);
	n = first_stmt("foreach (v- = k in x) ;");
	if (!n)
		return;
	CHECK_EQ_INT(n->fe->value_sort, -1);
	CHECK_EQ_INT(n->body->kind, N_NULL);
}

TEST(ast_foreach_slice)
{
	struct node *n = first_stmt("foreach ([a, b] in x[*, k]) {}");
	struct foreach *fe;

	if (!n)
		return;
	fe = n->fe;
	CHECK_EQ_INT(fe->slice.len, 2);
	CHECK_EQ_INT(((struct node *)fe->slice.v[0])->kind, N_STAR);
	CHECK_EQ_INT(((struct node *)fe->slice.v[1])->kind, N_VAR);
}

TEST(ast_probe_points)
{
	struct node *n = first_decl("probe kernel.function(\"f\").return?, "
				    "timer.ms(-5)! if (on) {}");
	struct probe_point *pp;

	if (!n)
		return;
	CHECK_EQ_INT(n->kind, N_PROBE);
	CHECK_EQ_INT(n->npoints, 2);
	pp = n->points[0];
	CHECK_EQ_INT(pp->ncomps, 3);
	CHECK_EQ_STR(pp->comps[0].name, "kernel");
	CHECK_EQ_STR(pp->comps[1].name, "function");
	CHECK_EQ_INT(pp->comps[1].arg->kind, N_STR);
	CHECK_EQ_STR(pp->comps[1].arg->str, "f");
	CHECK_EQ_STR(pp->comps[2].name, "return");
	CHECK_EQ_INT(pp->optional, 1);
	CHECK_EQ_INT(pp->sufficient, 0);
	CHECK(pp->cond == NULL);
	pp = n->points[1];
	CHECK_EQ_INT(pp->comps[1].arg->kind, N_NUM);
	CHECK_EQ_INT(pp->comps[1].arg->num, -5);
	CHECK_EQ_INT(pp->optional, 1);
	CHECK_EQ_INT(pp->sufficient, 1);
	CHECK(pp->cond != NULL);
}

TEST(ast_alias)
{
	struct node *n = first_decl("probe a.b += c, d { x = 1 }");

	if (n) {
		CHECK_EQ_INT(n->kind, N_ALIAS);
		CHECK_EQ_INT(n->epilogue, 1);
		CHECK_EQ_INT(n->nalias_names, 1);
		CHECK_EQ_INT(n->alias_names[0]->ncomps, 2);
		CHECK_EQ_INT(n->npoints, 2);
		CHECK(n->els == NULL);
	}
	n = first_decl("probe a = b { x = 1 }, { y = 2 }");
	if (n) {
		CHECK_EQ_INT(n->kind, N_ALIAS);
		CHECK_EQ_INT(n->epilogue, 0);
		CHECK_EQ_INT(n->body->args.len, 1);
		if (CHECK(n->els != NULL))
			CHECK_EQ_INT(n->els->kind, N_BLOCK);
	}
}

TEST(ast_globals_and_functions)
{
	struct parsed r = parse("private global a%[100], b = \"s\"\n"
				"function f:string (x:long, y) :7 { }");
	struct node *n;

	CHECK_EQ_INT(r.nerr, 0);
	if (!CHECK_EQ_INT(r.s->decls.len, 3))
		return;
	n = r.s->decls.v[0];
	CHECK_EQ_INT(n->kind, N_GLOBAL);
	CHECK_EQ_INT(n->private_, 1);
	CHECK_EQ_INT(n->wrap, 1);
	CHECK_EQ_INT(n->is_array, 1);
	CHECK_EQ_INT(n->size, 100);
	n = r.s->decls.v[1];
	CHECK_EQ_INT(n->private_, 1);
	CHECK_EQ_INT(n->is_array, 0);
	CHECK_EQ_INT(n->init_value->kind, N_STR);
	n = r.s->decls.v[2];
	CHECK_EQ_INT(n->kind, N_FUNCTION);
	CHECK_EQ_INT(n->private_, 0);
	CHECK_EQ_INT(n->type, T_STRING);
	CHECK_EQ_INT(n->nparams, 2);
	CHECK_EQ_STR(n->params[0].name, "x");
	CHECK_EQ_INT(n->params[0].type, T_LONG);
	CHECK_EQ_INT(n->params[1].type, T_UNKNOWN);
	CHECK_EQ_INT(n->has_priority, 1);
	CHECK_EQ_INT(n->priority, 7);
	CHECK_EQ_INT(n->loc.line, 2);
	CHECK_EQ_INT(n->loc.col, 10);
}

TEST(ast_macro_location)
{
	/* A node built from a macro points back at the invocation. */
	struct parsed r = parse("@define m %( q %)\nprobe begin { x = @m }");
	struct node *p, *v;

	if (!CHECK_EQ_INT(r.nerr, 0))
		return;
	p = r.s->decls.v[0];
	v = ((struct node *)p->body->args.v[0])->lhs->rhs;
	CHECK_EQ_STR(v->name, "q");
	CHECK_EQ_INT(v->loc.line, 1);
	CHECK_EQ_INT(v->loc.col, 14);
	if (CHECK(v->loc.from != NULL)) {
		CHECK_EQ_INT(v->loc.from->loc.line, 2);
		CHECK_EQ_INT(v->loc.from->loc.col, 19);
		CHECK_EQ_STR(origin_text(v->loc.from), "in expansion of macro '@m'");
	}
}

/* ---- errors ---- */

/* Input with exactly one error, with this text. */
#define CHECK_PARSE_ERR(text, message)                                    \
	do {                                                              \
		struct parsed r_ = parse(text);                           \
		CHECK_EQ_INT(r_.nerr, 1);                                 \
		CHECK_EQ_STR(r_.err, message);                            \
	} while (0)

TEST(err_expected_expression)
{
	CHECK_PARSE_ERR("probe begin { x = }",
			"t.stp:1:19: parse error: expected an expression, saw '}'\n"
			"probe begin { x = }\n"
			"                  ^\n");
}

TEST(err_expected_declaration)
{
	CHECK_PARSE_ERR("global f[]",
			"t.stp:1:10: parse error: expected an array size (a number), saw ']'\n"
			"global f[]\n"
			"         ^\n");
	CHECK_PARSE_ERR("probe a !? {}",
			"t.stp:1:10: parse error: expected '{', saw '?'\n"
			"probe a !? {}\n"
			"         ^\n");
	CHECK_PARSE_ERR("# only a comment\n",
			"t.stp:2:1: parse error: expected a declaration (probe, global, function, private or %{ %}), saw end of input\n"
			"\n"
			"^\n");
	CHECK_PARSE_ERR("x = 1",
			"t.stp:1:1: parse error: expected a declaration (probe, global, "
			"function, private or %{ %}), saw 'x'\n"
			"x = 1\n"
			"^\n");
}

TEST(err_end_of_input)
{
	CHECK_PARSE_ERR("probe begin {\n  x = 1\n",
			"t.stp:3:1: parse error: expected '}', saw end of input\n"
			"\n"
			"^\n");
}

TEST(err_assign_needs_lvalue)
{
	CHECK_PARSE_ERR("probe begin { 1 = x }",
			"t.stp:1:17: parse error: '=' needs a variable, array element "
			"or target variable on its left\n"
			"probe begin { 1 = x }\n"
			"                ^\n");
	CHECK_PARSE_ERR("probe begin { f() += 1 }",
			"t.stp:1:19: parse error: '+=' needs a variable, array element "
			"or target variable on its left\n"
			"probe begin { f() += 1 }\n"
			"                  ^~\n");
}

TEST(err_incdec_needs_lvalue)
{
	CHECK_PARSE_ERR("probe begin { ++1 }",
			"t.stp:1:15: parse error: '++' needs a variable, array element "
			"or target variable\n"
			"probe begin { ++1 }\n"
			"              ^~\n");
}

TEST(err_embedded_needs_guru)
{
	struct parsed r = parse_opts("probe begin { %{ x %} }", 1, 0);

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:1:15: parse error: embedded C needs guru mode (-g)\n"
		     "probe begin { %{ x %} }\n"
		     "              ^~\n");
	/* A tapset (not the user's script) needs no -g. */
	r = parse_opts("function f() %{ x %}", 0, 0);
	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_STR(r.out, "function f () %{ x %}\n");
}

TEST(err_global_array)
{
	CHECK_PARSE_ERR("global a[0]",
			"t.stp:1:10: parse error: array size 0 out of range\n"
			"global a[0]\n"
			"         ^\n");
	CHECK_PARSE_ERR("global a[10] = 1",
			"t.stp:1:14: parse error: an array takes no initial value\n"
			"global a[10] = 1\n"
			"             ^\n");
}

TEST(err_foreach)
{
	CHECK_PARSE_ERR("probe begin { foreach ([a+, b-] in x) {} }",
			"t.stp:1:30: parse error: only one sort marker is allowed in foreach\n"
			"probe begin { foreach ([a+, b-] in x) {} }\n"
			"                             ^\n");
	CHECK_PARSE_ERR("probe begin { foreach (a+ in x-) {} }",
			"t.stp:1:31: parse error: only one sort marker is allowed in foreach\n"
			"probe begin { foreach (a+ in x-) {} }\n"
			"                              ^\n");
	CHECK_PARSE_ERR("probe begin { foreach (a in x @sum) {} }",
			"t.stp:1:35: parse error: expected '+' or '-' after the aggregate, saw ')'\n"
			"probe begin { foreach (a in x @sum) {} }\n"
			"                                  ^\n");
	CHECK_PARSE_ERR("probe begin { foreach ([a,b,c,d,e,f,g,h,i,j] in x) {} }",
			"t.stp:1:43: parse error: foreach takes at most 9 keys\n"
			"probe begin { foreach ([a,b,c,d,e,f,g,h,i,j] in x) {} }\n"
			"                                          ^\n");
}

TEST(err_alias_name)
{
	CHECK_PARSE_ERR("probe a? = b {}",
			"t.stp:1:10: parse error: an alias name takes no '?', '!' or condition\n"
			"probe a? = b {}\n"
			"         ^\n");
}

TEST(err_at_builtin_needs_paren)
{
	CHECK_PARSE_ERR("probe begin { x = @cast + 1 }",
			"t.stp:1:25: parse error: expected '(' after '@cast', saw '+'\n"
			"probe begin { x = @cast + 1 }\n"
			"                        ^\n");
	CHECK_PARSE_ERR("probe begin { x = @cast(p, t) }",
			"t.stp:1:28: parse error: expected a type name string, saw 't'\n"
			"probe begin { x = @cast(p, t) }\n"
			"                           ^\n");
}

TEST(err_keyword_as_name)
{
	CHECK_PARSE_ERR("function in() {}",
			"t.stp:1:10: parse error: expected an identifier, saw 'in'\n"
			"function in() {}\n"
			"         ^~\n");
}

TEST(err_param_twice)
{
	CHECK_PARSE_ERR("function f(x, y, x) { }",
			"t.stp:1:18: parse error: parameter 'x' is declared twice\n"
			"function f(x, y, x) { }\n"
			"                 ^\n"
			"t.stp:1:12: note: the other declaration is here\n"
			"function f(x, y, x) { }\n"
			"           ^\n");
	/* Two functions may each have an x. */
	CHECK_PRINT("function f(x, y) { }\nfunction g(x) { }",
		    "function f (x, y) {\n}\nfunction g (x) {\n}\n");
}

TEST(err_global_twice)
{
	struct parsed r;

	CHECK_PARSE_ERR("global a, b\nprivate a",
			"t.stp:2:9: parse error: global 'a' is declared twice\n"
			"private a\n"
			"        ^\n"
			"t.stp:1:8: note: the other declaration is here\n"
			"global a, b\n"
			"       ^\n");
	/* Reported, not fatal: the declarations after it are parsed. */
	r = parse("global a, a, c\nglobal d\n");
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.out, "global a\nglobal a\nglobal c\nglobal d\n");
	/* Each file has its own globals. */
	CHECK_EQ_INT(parse("global a").nerr, 0);
	CHECK_EQ_INT(parse("global a").nerr, 0);
}

TEST(err_return_in_probe)
{
	CHECK_PARSE_ERR("probe begin { if (x) return; y = 1 }",
			"t.stp:1:22: parse error: 'return' in a probe handler; "
			"'next' leaves a probe\n"
			"probe begin { if (x) return; y = 1 }\n"
			"                     ^~~~~~\n");
	/* After a function, a probe is a probe again. */
	CHECK_PARSE_ERR("function f() { return 1 }\nprobe a = begin { return }",
			"t.stp:2:19: parse error: 'return' in a probe handler; "
			"'next' leaves a probe\n"
			"probe a = begin { return }\n"
			"                  ^~~~~~\n");
}

TEST(err_printd)
{
	CHECK_PARSE_ERR("probe begin { printd(\",\", 1) }",
			"t.stp:1:15: parse error: printd needs a delimiter and at "
			"least two values\n"
			"probe begin { printd(\",\", 1) }\n"
			"              ^~~~~~\n");
	CHECK_PARSE_ERR("probe begin { x = sprintdln(d, 1, 2) }",
			"t.stp:1:29: parse error: sprintdln needs a delimiter "
			"string literal first\n"
			"probe begin { x = sprintdln(d, 1, 2) }\n"
			"                            ^\n");
	CHECK_EXPR("printd(\",\", a, b)", "printd(\",\", a, b)");
	CHECK_EXPR("x = sprintdln(\"a\" \"b\", 1, 2, 3)",
		   "x = sprintdln(\"ab\", 1, 2, 3)");
}

TEST(err_error_inside_macro_names_invocation)
{
	CHECK_PARSE_ERR("@define bad %( 1 + %)\nprobe begin { x = @bad }",
			"t.stp:2:24: parse error: expected an expression, saw '}'\n"
			"probe begin { x = @bad }\n"
			"                       ^\n");
	CHECK_PARSE_ERR("@define bad %( ) %)\nprobe begin { x = @bad }",
			"t.stp:1:16: parse error: expected an expression, saw ')'\n"
			"@define bad %( ) %)\n"
			"               ^\n"
			"t.stp:2:19: note: in expansion of macro '@bad'\n"
			"probe begin { x = @bad }\n"
			"                  ^~~~\n");
}

TEST(err_deep_nesting_is_an_error_not_a_crash)
{
	struct sbuf sb = { 0 };
	struct parsed r;

	sb_puts(&sb, "probe begin { x = ");
	for (int i = 0; i < 100000; i++)
		sb_putc(&sb, '(');
	sb_puts(&sb, "1 }");
	r = parse(sb.s);
	CHECK_EQ_INT(r.nerr, 1);
	CHECK(strstr(r.err, "parse error: nesting deeper than 500 levels\n") != NULL);
}

TEST(nesting_of_50_parens_is_fine)
{
	/* 50 levels of parentheses are well under the 500-level limit. */
	struct sbuf in = { 0 };
	struct parsed r;

	sb_puts(&in, "probe begin { x = ");
	for (int i = 0; i < 50; i++)
		sb_putc(&in, '(');
	sb_puts(&in, "1");
	for (int i = 0; i < 50; i++)
		sb_putc(&in, ')');
	sb_puts(&in, " }");
	r = parse(in.s);
	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_STR(r.out, "probe begin {\n\tx = 1;\n}\n");
	if (r.nerr)
		printf("    %.*s\n", (int)(strchr(r.err, '\n') - r.err), r.err);
}

/* ---- recovery and the error cap ---- */

static const char three_errors[] =
	"probe begin { x = }\n"
	"function f( { }\n"
	"global 3\n"
	"probe end { ok = 1 }\n";

TEST(recovery_three_errors)
{
	struct parsed r = parse(three_errors);
	struct node *last;

	CHECK_EQ_INT(r.nerr, 3);
	CHECK_EQ_STR(r.err,
		     "t.stp:1:19: parse error: expected an expression, saw '}'\n"
		     "probe begin { x = }\n"
		     "                  ^\n"
		     "t.stp:2:13: parse error: expected an identifier, saw '{'\n"
		     "function f( { }\n"
		     "            ^\n"
		     "t.stp:3:8: parse error: expected an identifier, saw '3'\n"
		     "global 3\n"
		     "       ^\n");
	/* The good declaration after them is there. */
	if (!CHECK(r.s->decls.len >= 1))
		return;
	last = r.s->decls.v[r.s->decls.len - 1];
	CHECK_EQ_INT(last->kind, N_PROBE);
	CHECK_EQ_STR(last->points[0]->comps[0].name, "end");
}

TEST(recovery_skips_to_declaration_keyword)
{
	struct parsed r = parse("probe begin { if x }\n"
				"probe end { y = 2 }\n"
				"private global z\n");

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.out, "probe end {\n\ty = 2;\n}\nprivate global z\n");
}

/* In a child: the cap is sticky for the rest of the process. */
static int capped_child(void *arg)
{
	struct parsed r;

	(void)arg;
	diag_set_limit(diag_errors() + 2);
	r = parse(three_errors);
	fputs(r.err, stderr);
	fprintf(stderr, "too_many=%d decls=%d\n", diag_too_many(), r.s->decls.len);
	return 0;
}

TEST(error_cap)
{
	char *err;
	int status = unit_isolated(capped_child, NULL, 10, &err);
	char *want = ar_printf(
		"t.stp:1:19: parse error: expected an expression, saw '}'\n"
		"probe begin { x = }\n"
		"                  ^\n"
		"t.stp:2:13: parse error: expected an identifier, saw '{'\n"
		"function f( { }\n"
		"            ^\n"
		"stp: too many errors (%d), stopping\n"
		"too_many=1 decls=0\n", diag_errors() + 2);

	CHECK_EQ_INT(status, 0);
	/* Two reported in full, then one line, then nothing: the parser
	 * stops at the third error and never sees "probe end". */
	CHECK_EQ_STR(err, want);
}

int main(int argc, char **argv)
{
	diag_set_limit(1000000);
	return unit_main(argc, argv);
}
