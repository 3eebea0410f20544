// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the tree the parser builds: each input against the
 * exact S-expression of parser/dump.c, so that every grouping and every
 * node kind is stated.  The printer's tests (test_parse.c) show that
 * printing is stable; a parser that dropped "if (c)", or grouped
 * "a - b - c" to the right, would still print stably, and fails here.
 *
 * Covered: every binary precedence level against its neighbours and
 * itself (associativity), unary and postfix operators, the ternary and
 * assignments (right-associative), "in", indexes and tuples, calls,
 * target variables and their member chains, @cast, @entry, statistics
 * operators, every statement form, every foreach form, declarations.
 */
#include "dump.h"
#include "unit.h"
#include "parse_env.h"


/* The dump of a guru-mode user script, or "" after a parse error
 * (the diagnostics are printed). */
static char *tree(const char *text)
{
	struct source *src = src_new("t.stp", text, strlen(text));
	struct parse_opts opts = { .guru = 1 };
	struct sbuf sb = { 0 };
	struct script *s;
	int before = diag_errors();
	char *err;

	src->is_user = 1;
	unit_capture_begin();
	s = parse_source(pp_new(&env), src, &opts);
	err = unit_capture_end();
	if (diag_errors() != before) {
		printf("    input: %s\n%s", text, err);
		return "";
	}
	ast_dump_script(&sb, s);
	return sb.s ? sb.s : "";
}

/* Declarations: each one's dump, a line each. */
#define CHECK_DECLS(text, expected) CHECK_EQ_STR(tree(text), expected)

/* Statements in "probe begin { }": the dump of its block. */
#define CHECK_STMTS(text, expected)                                       \
	CHECK_EQ_STR(tree("probe begin { " text " }"),                    \
		     "(probe (points (point begin)) (block " expected "))\n")

/* One expression statement. */
#define CHECK_TREE(text, expected) CHECK_STMTS(text, expected)

/* ---- binary operators: precedence, tightest first ---- */

TEST(tree_multiplicative_over_additive)
{
	CHECK_TREE("a + b * c", "(+ a (* b c))");
	CHECK_TREE("a * b + c", "(+ (* a b) c)");
	CHECK_TREE("a - b / c % d", "(- a (% (/ b c) d))");
}

TEST(tree_additive_over_concatenation)
{
	CHECK_TREE("a . b + c", "(. a (+ b c))");
	CHECK_TREE("a - b . c", "(. (- a b) c)");
}

TEST(tree_concatenation_over_shift)
{
	CHECK_TREE("a << b . c", "(<< a (. b c))");
	CHECK_TREE("a . b >> c", "(>> (. a b) c)");
}

TEST(tree_shift_over_comparison)
{
	CHECK_TREE("a < b << c", "(< a (<< b c))");
	CHECK_TREE("a >> b == c", "(== (>> a b) c)");
}

TEST(tree_comparison_operators)
{
	CHECK_TREE("a == b", "(== a b)");
	CHECK_TREE("a != b", "(!= a b)");
	CHECK_TREE("a <= b", "(<= a b)");
	CHECK_TREE("a >= b", "(>= a b)");
	CHECK_TREE("a > b", "(> a b)");
	CHECK_TREE("s =~ \"^a+\"", "(=~ s \"^a+\")");
	CHECK_TREE("s !~ \"b$\"", "(!~ s \"b$\")");
	/* one level: left to right */
	CHECK_TREE("a < b == c", "(== (< a b) c)");
	CHECK_TREE("s . t =~ \"x\"", "(=~ (. s t) \"x\")");
}

TEST(tree_comparison_over_in_over_bitand)
{
	CHECK_TREE("a == b in arr", "(in arr (== a b))");
	CHECK_TREE("a & b in arr", "(& a (in arr b))");
}

TEST(tree_bitwise_levels)
{
	CHECK_TREE("a | b ^ c & d", "(| a (^ b (& c d)))");
	CHECK_TREE("a & b ^ c | d", "(| (^ (& a b) c) d)");
	CHECK_TREE("a & b == c", "(& a (== b c))");
}

TEST(tree_logical_levels)
{
	CHECK_TREE("a || b && c", "(|| a (&& b c))");
	CHECK_TREE("a && b || c", "(|| (&& a b) c)");
	CHECK_TREE("a && b | c", "(&& a (| b c))");
}

/* ---- associativity ---- */

TEST(tree_binary_left_associative)
{
	CHECK_TREE("a - b - c", "(- (- a b) c)");
	CHECK_TREE("a / b * c", "(* (/ a b) c)");
	CHECK_TREE("a . b . c", "(. (. a b) c)");
	CHECK_TREE("a << b >> c", "(>> (<< a b) c)");
	CHECK_TREE("a < b < c", "(< (< a b) c)");
	CHECK_TREE("a & b & c", "(& (& a b) c)");
	CHECK_TREE("a ^ b ^ c", "(^ (^ a b) c)");
	CHECK_TREE("a | b | c", "(| (| a b) c)");
	CHECK_TREE("a && b && c", "(&& (&& a b) c)");
	CHECK_TREE("a || b || c", "(|| (|| a b) c)");
}

TEST(tree_assignment_right_associative)
{
	CHECK_TREE("a = b = c", "(= a (= b c))");
	CHECK_TREE("a += b -= c", "(+= a (-= b c))");
}

TEST(tree_ternary_right_associative)
{
	CHECK_TREE("a ? b : c ? d : e", "(? a b (? c d e))");
	CHECK_TREE("a ? b ? c : d : e", "(? a (? b c d) e)");
	CHECK_TREE("a || b ? c + 1 : d", "(? (|| a b) (+ c 1) d)");
	CHECK_TREE("x = a ? b : c", "(= x (? a b c))");
}

TEST(tree_parentheses_group)
{
	CHECK_TREE("(a + b) * c", "(* (+ a b) c)");
	CHECK_TREE("a - (b - c)", "(- a (- b c))");
	CHECK_TREE("(a = b) + 1", "(+ (= a b) 1)");
}

/* ---- assignment operators ---- */

TEST(tree_assignment_operators)
{
	CHECK_TREE("a = 1", "(= a 1)");
	CHECK_TREE("a += 1", "(+= a 1)");
	CHECK_TREE("a -= 1", "(-= a 1)");
	CHECK_TREE("a *= 1", "(*= a 1)");
	CHECK_TREE("a /= 1", "(/= a 1)");
	CHECK_TREE("a %= 1", "(%= a 1)");
	CHECK_TREE("a <<= 1", "(<<= a 1)");
	CHECK_TREE("a >>= 1", "(>>= a 1)");
	CHECK_TREE("a &= 1", "(&= a 1)");
	CHECK_TREE("a |= 1", "(|= a 1)");
	CHECK_TREE("a ^= 1", "(^= a 1)");
	CHECK_TREE("s .= \"x\"", "(.= s \"x\")");
	CHECK_TREE("arr[k] = a + 1", "(= (index arr k) (+ a 1))");
}

TEST(tree_statistics)
{
	CHECK_TREE("s <<< 1 + 2", "(<<< s (+ 1 2))");
	CHECK_TREE("s[k] <<< v", "(<<< (index s k) v)");
	CHECK_TREE("@count(s)", "(@count s)");
	CHECK_TREE("@sum(s) + @min(s) + @max(s) + @avg(s)",
		   "(+ (+ (+ (@sum s) (@min s)) (@max s)) (@avg s))");
	CHECK_TREE("@count(s[k, 2])", "(@count (index s k 2))");
	CHECK_TREE("print(@hist_log(s))", "(call print (@hist_log s))");
	CHECK_TREE("print(@hist_linear(s, 0, 100, 10))",
		   "(call print (@hist_linear s 0 100 10))");
}

/* ---- unary and postfix ---- */

TEST(tree_unary)
{
	CHECK_TREE("-a", "(- a)");
	CHECK_TREE("+a", "(+ a)");
	CHECK_TREE("!a", "(! a)");
	CHECK_TREE("~a", "(~ a)");
	CHECK_TREE("!-~a", "(! (- (~ a)))");
	CHECK_TREE("-a * b", "(* (- a) b)");
	CHECK_TREE("!a == b", "(== (! a) b)");
	CHECK_TREE("-(a + b)", "(- (+ a b))");
	/* in an expression, "-5" is the operator on the literal 5 */
	CHECK_TREE("-5", "(- 5)");
	CHECK_TREE("a - -5", "(- a (- 5))");
}

TEST(tree_increment_decrement)
{
	CHECK_TREE("a++", "(post++ a)");
	CHECK_TREE("a--", "(post-- a)");
	CHECK_TREE("++a", "(pre++ a)");
	CHECK_TREE("--a", "(pre-- a)");
	CHECK_TREE("a++ + ++b", "(+ (post++ a) (pre++ b))");
	CHECK_TREE("-a++", "(- (post++ a))");
	CHECK_TREE("arr[k]++", "(post++ (index arr k))");
}

/* ---- primaries ---- */

TEST(tree_literals)
{
	CHECK_TREE("42", "42");
	CHECK_TREE("0x1f", "0x1f");
	CHECK_TREE("\"a\\n\"", "\"a\\n\"");
	CHECK_TREE("x = \"a\" \"b\"", "(= x \"ab\")");
}

TEST(tree_arrays_and_in)
{
	CHECK_TREE("arr[1]", "(index arr 1)");
	CHECK_TREE("arr[a, \"b\", c + 1]", "(index arr a \"b\" (+ c 1))");
	CHECK_TREE("arr[arr[1]]", "(index arr (index arr 1))");
	CHECK_TREE("k in arr", "(in arr k)");
	CHECK_TREE("[a, b] in arr", "(in arr a b)");
	CHECK_TREE("[a, *] in arr", "(in arr a *)");
	CHECK_TREE("!(k in arr)", "(! (in arr k))");
	CHECK_TREE("k in arr && j in arr", "(&& (in arr k) (in arr j))");
}

TEST(tree_calls)
{
	CHECK_TREE("f()", "(call f)");
	CHECK_TREE("f(1, a + b, g(c))", "(call f 1 (+ a b) (call g c))");
	CHECK_TREE("printf(\"%d\\n\", x)", "(call printf \"%d\\n\" x)");
}

TEST(tree_target_variables)
{
	CHECK_TREE("$x", "$x");
	CHECK_TREE("$var->a->b", "(-> (-> $var a) b)");
	CHECK_TREE("$p->arr[2]->c", "(-> ([] (-> $p arr) 2) c)");
	CHECK_TREE("&$p->a", "(& (-> $p a))");
	CHECK_TREE("$p$", "(pretty $ $p)");
	CHECK_TREE("$p->q$$", "(pretty $$ (-> $p q))");
	CHECK_TREE("$$vars", "$$vars");
	CHECK_TREE("$x->a + 1", "(+ (-> $x a) 1)");
}

TEST(tree_at_operators)
{
	CHECK_TREE("@cast(p, \"task_struct\")->pid",
		   "(-> (@cast p \"task_struct\") pid)");
	CHECK_TREE("@cast(p, \"task_struct\", \"kernel\")->mm->pgd",
		   "(-> (-> (@cast p \"task_struct\" \"kernel\") mm) pgd)");
	CHECK_TREE("&@cast(p, \"s\")->m", "(& (-> (@cast p \"s\") m))");
	CHECK_TREE("@entry($x)", "(@entry $x)");
	CHECK_TREE("@entry($p->a) - $p->a", "(- (@entry (-> $p a)) (-> $p a))");
	CHECK_TREE("@defined($x) ? $x : 0", "(? (@defined $x) $x 0)");
	CHECK_TREE("@var(\"jiffies\")", "(@var \"jiffies\")");
}

TEST(tree_autocast)
{
	CHECK_TREE("(p)->a", "(-> (autocast p) a)");
	CHECK_TREE("f()->a->b", "(-> (-> (call f) a) b)");
}

/* ---- statements ---- */

TEST(tree_if_else)
{
	CHECK_STMTS("if (x) y = 1", "(if x (= y 1))");
	CHECK_STMTS("if (x > 1) y; else z", "(if (> x 1) y z)");
	CHECK_STMTS("if (a) b; else if (c) d; else e",
		    "(if a b (if c d e))");
	/* a dangling else binds to the nearest if */
	CHECK_STMTS("if (a) if (b) c; else d", "(if a (if b c d))");
	CHECK_STMTS("if (a) { b; c }", "(if a (block b c))");
}

TEST(tree_loops)
{
	CHECK_STMTS("while (i < 3) i++", "(while (< i 3) (post++ i))");
	CHECK_STMTS("for (i = 0; i < 3; i++) s += i",
		    "(for (= i 0) (< i 3) (post++ i) (+= s i))");
	CHECK_STMTS("for (;;) break", "(for _ _ _ (break))");
	CHECK_STMTS("for (; i; ) {}", "(for _ i _ (block))");
}

TEST(tree_jumps)
{
	CHECK_STMTS("next", "(next)");
	CHECK_STMTS("while (1) { break; continue }",
		    "(while 1 (block (break) (continue)))");
}

TEST(tree_blocks_and_empty)
{
	CHECK_STMTS("{ a; { b } }", "(block a (block b))");
	CHECK_STMTS(";", "(nop)");
	CHECK_STMTS("a; b", "a b");
}

TEST(tree_delete)
{
	CHECK_STMTS("delete arr", "(delete arr)");
	CHECK_STMTS("delete arr[k, 1]", "(delete (index arr k 1))");
	CHECK_STMTS("delete arr[k, *]", "(delete (index arr k *))");
}

TEST(tree_try_catch)
{
	CHECK_STMTS("try { a = 1 } catch { b }",
		    "(try (block (= a 1)) (catch (block b)))");
	CHECK_STMTS("try { f() } catch (msg) { println(msg) }",
		    "(try (block (call f)) (catch msg (block (call println msg))))");
}

TEST(tree_return)
{
	CHECK_DECLS("function f() { return }",
		    "(function f:? (params) (block (return)))\n");
	CHECK_DECLS("function f() { return a + 1 }",
		    "(function f:? (params) (block (return (+ a 1))))\n");
}

TEST(tree_embedded_statement)
{
	CHECK_STMTS("%{ x++; %}", "(embedded \" x++; \")");
}

/* ---- foreach: keys, value, sorting, slices, limit ---- */

TEST(tree_foreach_keys)
{
	CHECK_STMTS("foreach (k in arr) f(k)",
		    "(foreach (keys k) arr (call f k))");
	CHECK_STMTS("foreach ([a, b, c] in arr) {}",
		    "(foreach (keys a b c) arr (block))");
}

TEST(tree_foreach_value)
{
	CHECK_STMTS("foreach (v = k in arr) {}",
		    "(foreach (value v) (keys k) arr (block))");
	CHECK_STMTS("foreach (v = [a, b] in arr) {}",
		    "(foreach (value v) (keys a b) arr (block))");
}

TEST(tree_foreach_sorted)
{
	CHECK_STMTS("foreach (k+ in arr) {}",
		    "(foreach (keys k+) arr (block))");
	CHECK_STMTS("foreach ([a, b-] in arr) {}",
		    "(foreach (keys a b-) arr (block))");
	CHECK_STMTS("foreach (k in arr-) {}",
		    "(foreach (keys k) arr (sort value-) (block))");
	CHECK_STMTS("foreach (v = k in arr+) {}",
		    "(foreach (value v) (keys k) arr (sort value+) (block))");
	CHECK_STMTS("foreach (k in s @sum+) {}",
		    "(foreach (keys k) s (sort @sum+) (block))");
}

TEST(tree_foreach_limit)
{
	CHECK_STMTS("foreach (k in arr- limit 5) {}",
		    "(foreach (keys k) arr (sort value-) (limit 5) (block))");
	CHECK_STMTS("foreach ([a, b+] in arr limit n * 2) {}",
		    "(foreach (keys a b+) arr (limit (* n 2)) (block))");
}

TEST(tree_foreach_slice)
{
	CHECK_STMTS("foreach ([a, b] in arr[1, *]) {}",
		    "(foreach (keys a b) arr (slice 1 *) (block))");
}

TEST(tree_foreach_histogram)
{
	CHECK_STMTS("foreach (b in @hist_log(s)) {}",
		    "(foreach (keys b) (@hist_log s) (block))");
}

TEST(tree_foreach_body_nesting)
{
	CHECK_STMTS("foreach (k in a) foreach (j in b) if (j) next",
		    "(foreach (keys k) a (foreach (keys j) b (if j (next))))");
}

/* ---- declarations ---- */

TEST(tree_probe_points)
{
	CHECK_DECLS("probe begin, end {}",
		    "(probe (points (point begin) (point end)) (block))\n");
	CHECK_DECLS("probe kernel.function(\"f\").return? {}",
		    "(probe (points (point kernel.function(\"f\").return?)) (block))\n");
	CHECK_DECLS("probe timer.ms(100) if (n > 0) { n-- }",
		    "(probe (points (point timer.ms(100) (if (> n 0)))) "
		    "(block (post-- n)))\n");
}

TEST(tree_aliases)
{
	CHECK_DECLS("probe a.b = c, d? { x = 1 }",
		    "(alias = (names (point a.b)) (points (point c) (point d?)) "
		    "(block (= x 1)))\n");
	CHECK_DECLS("probe a += c { x = 1 }",
		    "(alias += (names (point a)) (points (point c)) "
		    "(block (= x 1)))\n");
	CHECK_DECLS("probe a = c { pro }, { epi }",
		    "(alias = (names (point a)) (points (point c)) "
		    "(block pro) (block epi))\n");
}

TEST(tree_globals)
{
	CHECK_DECLS("global a, b[100], c = 5",
		    "(global a)\n(global b (array 100))\n(global c (init 5))\n");
	CHECK_DECLS("global e%[10]; global f%",
		    "(global e (array 10) (wrap))\n(global f (wrap))\n");
	/* as a global's value, "-5" is one literal */
	CHECK_DECLS("global n = -5", "(global n (init -5))\n");
	CHECK_DECLS("private global p = \"s\"",
		    "(global p (private) (init \"s\"))\n");
}

TEST(tree_functions)
{
	CHECK_DECLS("function f:long (a:string, b) :3 { return a }",
		    "(function f:long (params a:string b:?) (priority 3) "
		    "(block (return a)))\n");
	CHECK_DECLS("private function g() %{ /* c */ %}",
		    "(function g:? (params) (private) (embedded \" /* c */ \"))\n");
}

TEST(tree_several_declarations)
{
	CHECK_DECLS("global n\nprobe begin { n = 1 }\nfunction f() {}",
		    "(global n)\n(probe (points (point begin)) (block (= n 1)))\n"
		    "(function f:? (params) (block))\n");
}

int main(int argc, char **argv)
{
	diag_set_limit(1000000);
	return unit_main(argc, argv);
}
