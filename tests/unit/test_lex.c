// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of the lexer: token kinds, spellings, positions and
 * space_before flags, and the exact text of every lexical error.
 *
 * Most checks compare a dump of the token array, one entry per token:
 *
 *   KIND'SPELLING'LINE:COL:LEN
 *
 * with KIND one of id num str op emb pp eof, so one line of expected
 * text covers a whole input and a failure shows every token.
 */
#include "lex.h"
#include "../../lib/base.h"
#include "unit.h"

struct lexed {
	struct tokens ts;
	char *dump;	/* see the top of the file */
	char *err;	/* what went to stderr */
	int nerr;	/* errors reported */
};

static const char *kind_name(enum tok_kind k)
{
	static const char *const names[] = {
		[TK_EOF] = "eof", [TK_IDENT] = "id", [TK_NUMBER] = "num",
		[TK_STRING] = "str", [TK_OP] = "op", [TK_EMBEDDED] = "emb",
		[TK_PP_OPEN] = "pp", [TK_PP_THEN] = "pp",
		[TK_PP_ELSE] = "pp", [TK_PP_CLOSE] = "pp",
	};
	return names[k];
}

static char *dump_tokens(const struct tokens *ts)
{
	struct sbuf sb = { 0 };

	for (int i = 0; i < ts->len; i++) {
		const struct token *t = &ts->t[i];

		sb_printf(&sb, "%s%s'%.*s'%d:%d:%d", i ? " " : "",
			  kind_name(t->kind), t->len, t->str, t->loc.line,
			  t->loc.col, t->loc.len);
	}
	return sb.s ? sb.s : ar_strdup("");
}

static struct source *mksrc(const char *text)
{
	return src_new("t.stp", text, strlen(text));
}

static struct lexed lex(const char *text)
{
	struct lexed r = { 0 };
	int before = diag_errors();

	unit_capture_begin();
	lex_source(mksrc(text), &r.ts);
	r.err = unit_capture_end();
	r.nerr = diag_errors() - before;
	r.dump = dump_tokens(&r.ts);
	return r;
}

/* Input that must lex cleanly into the given dump. */
#define CHECK_LEX(text, expected)                                         \
	do {                                                              \
		struct lexed r_ = lex(text);                              \
		CHECK_EQ_STR(r_.dump, expected);                          \
		CHECK_EQ_INT(r_.nerr, 0);                                 \
		CHECK_EQ_STR(r_.err, "");                                 \
	} while (0)

/* Input with exactly one error, with that message text. */
#define CHECK_LEX_ERR(text, expected, message)                            \
	do {                                                              \
		struct lexed r_ = lex(text);                              \
		CHECK_EQ_STR(r_.dump, expected);                          \
		CHECK_EQ_INT(r_.nerr, 1);                                 \
		CHECK_EQ_STR(r_.err, message);                            \
	} while (0)

/* ---- identifiers ---- */

TEST(ident_plain)
{
	CHECK_LEX("foo _bar a1$b probe",
		  "id'foo'1:1:3 id'_bar'1:5:4 id'a1$b'1:10:4 id'probe'1:15:5 "
		  "eof''1:20:0");
}

TEST(ident_target_vars)
{
	CHECK_LEX("$var $var$$ $$parms $$vars$ $x$",
		  "id'$var'1:1:4 id'$var$$'1:6:6 id'$$parms'1:13:7 "
		  "id'$$vars$'1:21:7 id'$x$'1:29:3 eof''1:32:0");
}

TEST(ident_at_builtins)
{
	CHECK_LEX("@cast @hist_linear @define @m1",
		  "id'@cast'1:1:5 id'@hist_linear'1:7:12 id'@define'1:20:7 "
		  "id'@m1'1:28:3 eof''1:31:0");
}

TEST(ident_script_args)
{
	CHECK_LEX("$1 @2 $12 $# @#",
		  "id'$1'1:1:2 id'@2'1:4:2 id'$12'1:7:3 id'$#'1:11:2 "
		  "id'@#'1:14:2 eof''1:16:0");
}

TEST(ident_hash_ends_arg_count)
{
	/* "$#" is complete after the '#': what follows is a new token. */
	CHECK_LEX("$#x @#1",
		  "id'$#'1:1:2 id'x'1:3:1 id'@#'1:5:2 num'1'1:7:1 eof''1:8:0");
}

TEST(ident_is_interned)
{
	struct lexed r = lex("name name");

	CHECK_EQ_INT(r.ts.len, 3);
	CHECK(r.ts.t[0].str == r.ts.t[1].str);
	CHECK(tok_is(&r.ts.t[0], "name"));
	CHECK(!tok_is(&r.ts.t[0], "nam"));
	CHECK(!tok_is_op(&r.ts.t[0], OP_PLUS));
}

/* ---- numbers ---- */

TEST(number_values)
{
	static const struct {
		const char *text;
		int64_t num;
	} cases[] = {
		{ "0", 0 },
		{ "42", 42 },
		{ "0x1F", 31 },
		{ "0X10", 16 },
		{ "017", 15 },
		{ "00", 0 },
		{ "9223372036854775807", INT64_MAX },
		{ "0xffffffffffffffff", -1 },
		{ "18446744073709551615", -1 },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct lexed r = lex(cases[i].text);

		CHECK_EQ_INT(r.nerr, 0);
		CHECK_EQ_INT(r.ts.len, 2);
		CHECK_EQ_INT(r.ts.t[0].kind, TK_NUMBER);
		CHECK_EQ_INT(r.ts.t[0].num, cases[i].num);
		CHECK_EQ_STR(r.ts.t[0].str, cases[i].text);
		CHECK_EQ_INT(r.ts.t[0].len, (int)strlen(cases[i].text));
	}
}

TEST(number_positions)
{
	CHECK_LEX("x=0x1f+017\n  12",
		  "id'x'1:1:1 op'='1:2:1 num'0x1f'1:3:4 op'+'1:7:1 "
		  "num'017'1:8:3 num'12'2:3:2 eof''2:5:0");
}

TEST(number_out_of_range)
{
	struct lexed r = lex("x = 99999999999999999999;");

	CHECK_EQ_STR(r.dump, "id'x'1:1:1 op'='1:3:1 "
		     "num'99999999999999999999'1:5:20 op';'1:25:1 eof''1:26:0");
	CHECK_EQ_INT(r.ts.t[2].num, 0);
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err,
		     "t.stp:1:5: parse error: number '99999999999999999999' out of range\n"
		     "x = 99999999999999999999;\n"
		     "    ^~~~~~~~~~~~~~~~~~~~\n");
}

TEST(number_invalid_hex)
{
	CHECK_LEX_ERR("a 0x b", "id'a'1:1:1 num'0x'1:3:2 id'b'1:6:1 eof''1:7:0",
		      "t.stp:1:3: parse error: invalid number '0x'\n"
		      "a 0x b\n"
		      "  ^~\n");
}

TEST(number_invalid_octal)
{
	CHECK_LEX_ERR("09", "num'09'1:1:2 eof''1:3:0",
		      "t.stp:1:1: parse error: invalid number '09'\n"
		      "09\n"
		      "^~\n");
}

TEST(number_invalid_suffix)
{
	struct lexed r = lex("  123abc)");

	CHECK_EQ_STR(r.dump, "num'123abc'1:3:6 op')'1:9:1 eof''1:10:0");
	CHECK_EQ_INT(r.ts.t[0].num, 0);
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:1:3: parse error: invalid number '123abc'\n"
		     "  123abc)\n"
		     "  ^~~~~~\n");
}

/* ---- strings ---- */

TEST(string_plain)
{
	struct lexed r = lex("\"hello\"");

	CHECK_EQ_STR(r.dump, "str'hello'1:1:7 eof''1:8:0");
	CHECK_EQ_INT(r.ts.t[0].len, 5);
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(string_empty)
{
	CHECK_LEX("\"\" x", "str''1:1:2 id'x'1:4:1 eof''1:5:0");
}

TEST(string_escapes_kept_raw)
{
	/* Source: "a\"b\\" "\n\t\x41\101" */
	struct lexed r = lex("\"a\\\"b\\\\\" \"\\n\\t\\x41\\101\"");

	CHECK_EQ_INT(r.nerr, 0);
	CHECK_EQ_INT(r.ts.len, 3);
	CHECK_EQ_STR(r.ts.t[0].str, "a\\\"b\\\\");
	CHECK_EQ_INT(r.ts.t[0].len, 6);
	CHECK_EQ_INT(r.ts.t[0].loc.col, 1);
	CHECK_EQ_INT(r.ts.t[0].loc.len, 8);
	CHECK_EQ_STR(r.ts.t[1].str, "\\n\\t\\x41\\101");
	CHECK_EQ_INT(r.ts.t[1].loc.col, 10);
	CHECK_EQ_INT(r.ts.t[1].loc.len, 14);
}

TEST(string_adjacent)
{
	/* Two tokens; the parser joins them. */
	struct lexed r = lex("\"ab\" \"cd\"\"ef\"");

	CHECK_EQ_STR(r.dump, "str'ab'1:1:4 str'cd'1:6:4 str'ef'1:10:4 eof''1:14:0");
	CHECK_EQ_INT(r.ts.t[1].space_before, 1);
	CHECK_EQ_INT(r.ts.t[2].space_before, 0);
}

TEST(string_holds_comment_markers)
{
	CHECK_LEX("\"# no // comment /* here */\"",
		  "str'# no // comment /* here */'1:1:28 eof''1:29:0");
}

TEST(string_unterminated_at_eof)
{
	CHECK_LEX_ERR("x = \"abc", "id'x'1:1:1 op'='1:3:1 eof''1:9:0",
		      "t.stp:1:5: parse error: unterminated string literal\n"
		      "x = \"abc\n"
		      "    ^\n");
}

TEST(string_unterminated_at_newline)
{
	/* The rest of the line goes; lexing resumes on the next one. */
	CHECK_LEX_ERR("a \"bc\ny", "id'a'1:1:1 id'y'2:1:1 eof''2:2:0",
		      "t.stp:1:3: parse error: unterminated string literal\n"
		      "a \"bc\n"
		      "  ^\n");
}

TEST(string_escaped_quote_at_eof)
{
	CHECK_LEX_ERR("\"ab\\\"", "eof''1:6:0",
		      "t.stp:1:1: parse error: unterminated string literal\n"
		      "\"ab\\\"\n"
		      "^\n");
}

/* ---- comments and space ---- */

TEST(comments_three_kinds)
{
	struct lexed r = lex("# hash\n// slashes\n/* block\n spans */ x /**/y\n");

	CHECK_EQ_STR(r.dump, "id'x'4:11:1 id'y'4:17:1 eof''5:1:0");
	CHECK_EQ_INT(r.ts.t[0].space_before, 3);
	CHECK_EQ_INT(r.ts.t[1].space_before, 3);
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(comment_at_line_end)
{
	CHECK_LEX("a # x\nb // y\nc /* z */",
		  "id'a'1:1:1 id'b'2:1:1 id'c'3:1:1 eof''3:10:0");
}

TEST(comment_shebang)
{
	CHECK_LEX("#!/usr/bin/stap\nprobe", "id'probe'2:1:5 eof''2:6:0");
}

TEST(comment_block_not_nested)
{
	CHECK_LEX("/* a /* b */ c */",
		  "id'c'1:14:1 op'*'1:16:1 op'/'1:17:1 eof''1:18:0");
}

TEST(slash_is_not_comment)
{
	CHECK_LEX("a/b", "id'a'1:1:1 op'/'1:2:1 id'b'1:3:1 eof''1:4:0");
}

TEST(comment_unterminated)
{
	struct lexed r = lex("a /* xx\n yy");

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:1:3: parse error: unterminated comment\n"
		     "a /* xx\n"
		     "  ^~\n");
	CHECK_EQ_INT(r.ts.len, 2);
	CHECK_EQ_STR(r.ts.t[0].str, "a");
	CHECK_EQ_INT(r.ts.t[1].kind, TK_EOF);
}

TEST(eof_after_unterminated_comment)
{
	/* The end of input is where the file ends: line 2, column 4. */
	struct lexed r = lex("a /* xx\n yy");

	CHECK_EQ_STR(r.dump, "id'a'1:1:1 eof''2:4:0");
}

TEST(space_before_flags)
{
	struct lexed r = lex("a b(c)\t,d\n+e");
	static const int want[] = { 0, 1, 0, 0, 0, 1, 0, 1, 0, 1 };

	CHECK_EQ_STR(r.dump, "id'a'1:1:1 id'b'1:3:1 op'('1:4:1 id'c'1:5:1 "
		     "op')'1:6:1 op','1:8:1 id'd'1:9:1 op'+'2:1:1 id'e'2:2:1 "
		     "eof''2:3:0");
	CHECK_EQ_INT(r.ts.len, 10);
	for (int i = 0; i < r.ts.len && i < 10; i++)
		CHECK_EQ_INT(r.ts.t[i].space_before, want[i]);
}

/* A comment among the skipped text adds 2: --compatible below 2.0 keeps
 * string literals with one between them apart */
TEST(space_before_comment)
{
	struct lexed r = lex("\"a\" /* c */ \"b\" \"c\" # x\n\"d\"// y\n\"e\"");
	static const int want[] = { 0, 3, 1, 3, 3 };

	CHECK_EQ_INT(r.ts.len, 6);
	for (int i = 0; i < r.ts.len && i < 5; i++)
		CHECK_EQ_INT(r.ts.t[i].space_before, want[i]);
}

TEST(leading_space)
{
	struct lexed r = lex("  x");

	CHECK_EQ_INT(r.ts.t[0].space_before, 1);
	CHECK_EQ_INT(r.ts.t[0].loc.col, 3);
}

TEST(empty_input)
{
	struct lexed r = lex("");

	CHECK_EQ_STR(r.dump, "eof''1:1:0");
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(crlf_line_ends)
{
	CHECK_LEX("a\r\nb", "id'a'1:1:1 id'b'2:1:1 eof''2:2:0");
}

/* ---- embedded C and preprocessor markers ---- */

TEST(embedded_across_lines)
{
	struct lexed r = lex("%{ int x;\n  y(); %} z");

	CHECK_EQ_STR(r.dump, "emb' int x;\n  y(); '1:1:2 id'z'2:11:1 eof''2:12:0");
	CHECK_EQ_INT(r.ts.t[0].len, 15);
	CHECK_EQ_INT(r.nerr, 0);
}

TEST(embedded_keeps_comments_and_strings)
{
	CHECK_LEX("x %{/* c */ \"s\" // d\n%}",
		  "id'x'1:1:1 emb'/* c */ \"s\" // d\n'1:3:2 eof''2:3:0");
}

TEST(embedded_empty)
{
	CHECK_LEX("%{%}", "emb''1:1:2 eof''1:5:0");
}

TEST(embedded_unterminated)
{
	struct lexed r = lex("f %{ int\nx;");

	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, "t.stp:1:3: parse error: unterminated embedded C block\n"
		     "f %{ int\n"
		     "  ^~\n");
	CHECK_EQ_INT(r.ts.len, 2);
	CHECK_EQ_INT(r.ts.t[1].kind, TK_EOF);
}

TEST(pp_markers)
{
	struct lexed r = lex("%( x %? a %: b %)");

	CHECK_EQ_STR(r.dump, "pp'%('1:1:2 id'x'1:4:1 pp'%?'1:6:2 id'a'1:9:1 "
		     "pp'%:'1:11:2 id'b'1:14:1 pp'%)'1:16:2 eof''1:18:0");
	CHECK_EQ_INT(r.ts.t[0].kind, TK_PP_OPEN);
	CHECK_EQ_INT(r.ts.t[2].kind, TK_PP_THEN);
	CHECK_EQ_INT(r.ts.t[4].kind, TK_PP_ELSE);
	CHECK_EQ_INT(r.ts.t[6].kind, TK_PP_CLOSE);
}

TEST(percent_operators)
{
	struct lexed r = lex("a%b %= c%");

	CHECK_EQ_STR(r.dump, "id'a'1:1:1 op'%'1:2:1 id'b'1:3:1 op'%='1:5:2 "
		     "id'c'1:8:1 op'%'1:9:1 eof''1:10:0");
	CHECK_EQ_INT(r.ts.t[1].op, OP_PERCENT);
	CHECK_EQ_INT(r.ts.t[3].op, OP_MOD_ASSIGN);
}

/* ---- operators ---- */

TEST(every_operator_alone)
{
	static const struct {
		int op;
		const char *s;
	} ops[] = {
#define X(id, s) { id, s },
		OP_LIST(X)
#undef X
	};

	CHECK_EQ_INT(sizeof(ops) / sizeof(ops[0]), OP__COUNT - 1);
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		char *text = ar_printf(" %s ", ops[i].s);
		struct lexed r = lex(text);

		CHECK_EQ_STR(op_spelling[ops[i].op], ops[i].s);
		CHECK_EQ_INT(r.nerr, 0);
		if (!CHECK_EQ_INT(r.ts.len, 2)) {
			printf("    operator %s lexed as %s\n", ops[i].s, r.dump);
			continue;
		}
		CHECK_EQ_INT(r.ts.t[0].kind, TK_OP);
		CHECK_EQ_INT(r.ts.t[0].op, ops[i].op);
		CHECK_EQ_STR(r.ts.t[0].str, ops[i].s);
		CHECK_EQ_INT(r.ts.t[0].len, (int)strlen(ops[i].s));
		CHECK_EQ_INT(r.ts.t[0].loc.col, 2);
		CHECK_EQ_INT(r.ts.t[0].loc.len, (int)strlen(ops[i].s));
	}
}

TEST(every_operator_between_names)
{
	/* "a OP b" with no spaces: the operator still stands alone. */
	static const struct {
		int op;
		const char *s;
	} ops[] = {
#define X(id, s) { id, s },
		OP_LIST(X)
#undef X
	};

	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		struct lexed r = lex(ar_printf("a%sb", ops[i].s));

		CHECK_EQ_INT(r.nerr, 0);
		if (!CHECK_EQ_INT(r.ts.len, 4))
			continue;
		CHECK_EQ_INT(r.ts.t[1].op, ops[i].op);
		CHECK_EQ_INT(r.ts.t[2].loc.col, 2 + (int)strlen(ops[i].s));
		CHECK_EQ_INT(r.ts.t[1].space_before, 0);
	}
}

TEST(operators_longest_match)
{
	CHECK_LEX("a<<<b<<=c->d.=e!~f",
		  "id'a'1:1:1 op'<<<'1:2:3 id'b'1:5:1 op'<<='1:6:3 id'c'1:9:1 "
		  "op'->'1:10:2 id'd'1:12:1 op'.='1:13:2 id'e'1:15:1 "
		  "op'!~'1:16:2 id'f'1:18:1 eof''1:19:0");
}

TEST(operators_greedy_splits)
{
	CHECK_LEX("x---y", "id'x'1:1:1 op'--'1:2:2 op'-'1:4:1 id'y'1:5:1 eof''1:6:0");
	CHECK_LEX("<<<=", "op'<<<'1:1:3 op'='1:4:1 eof''1:5:0");
	CHECK_LEX("!==", "op'!='1:1:2 op'='1:3:1 eof''1:4:0");
	CHECK_LEX(">>=>", "op'>>='1:1:3 op'>'1:4:1 eof''1:5:0");
	CHECK_LEX("=~=", "op'=~'1:1:2 op'='1:3:1 eof''1:4:0");
	CHECK_LEX("&&&", "op'&&'1:1:2 op'&'1:3:1 eof''1:4:0");
	CHECK_LEX("|||=", "op'||'1:1:2 op'|='1:3:2 eof''1:5:0");
	CHECK_LEX("->>", "op'->'1:1:2 op'>'1:3:1 eof''1:4:0");
	CHECK_LEX("..=", "op'.'1:1:1 op'.='1:2:2 eof''1:4:0");
}

TEST(operators_ops_are_named)
{
	struct lexed r = lex("<<< <<= -> .= !~ ~");

	CHECK_EQ_INT(r.ts.t[0].op, OP_SHL_STAT);
	CHECK_EQ_INT(r.ts.t[1].op, OP_SHL_ASSIGN);
	CHECK_EQ_INT(r.ts.t[2].op, OP_ARROW);
	CHECK_EQ_INT(r.ts.t[3].op, OP_CAT_ASSIGN);
	CHECK_EQ_INT(r.ts.t[4].op, OP_NOMATCH);
	CHECK_EQ_INT(r.ts.t[5].op, OP_TILDE);
	CHECK(tok_is_op(&r.ts.t[2], OP_ARROW));
	CHECK(!tok_is_op(&r.ts.t[2], OP_MINUS));
}

/* ---- errors ---- */

TEST(invalid_character_printable)
{
	CHECK_LEX_ERR("a ` b", "id'a'1:1:1 id'b'1:5:1 eof''1:6:0",
		      "t.stp:1:3: parse error: invalid character '`'\n"
		      "a ` b\n"
		      "  ^\n");
}

TEST(invalid_character_backslash)
{
	CHECK_LEX_ERR("\\", "eof''1:2:0",
		      "t.stp:1:1: parse error: invalid character '\\'\n"
		      "\\\n"
		      "^\n");
}

TEST(invalid_character_control)
{
	/* Unprintable bytes are shown as '?' in the source line. */
	CHECK_LEX_ERR("x\x01y", "id'x'1:1:1 id'y'1:3:1 eof''1:4:0",
		      "t.stp:1:2: parse error: invalid character '\\x01'\n"
		      "x?y\n"
		      " ^\n");
}

TEST(invalid_character_second_line_with_tab)
{
	/* The tab expands to column 8; the caret follows it. */
	CHECK_LEX_ERR("a\n\tb `", "id'a'1:1:1 id'b'2:2:1 eof''2:5:0",
		      "t.stp:2:4: parse error: invalid character '`'\n"
		      "        b `\n"
		      "          ^\n");
}

TEST(several_errors_all_reported)
{
	struct lexed r = lex("` 0x \"x");

	CHECK_EQ_INT(r.nerr, 3);
	CHECK_EQ_STR(r.err,
		     "t.stp:1:1: parse error: invalid character '`'\n"
		     "` 0x \"x\n"
		     "^\n"
		     "t.stp:1:3: parse error: invalid number '0x'\n"
		     "` 0x \"x\n"
		     "  ^~\n"
		     "t.stp:1:6: parse error: unterminated string literal\n"
		     "` 0x \"x\n"
		     "     ^\n");
}

TEST(error_in_long_line_is_windowed)
{
	/* Lines over 120 columns show 120 around the caret. */
	struct sbuf text = { 0 }, want = { 0 };
	struct lexed r;

	for (int i = 0; i < 149; i++)
		sb_putc(&text, 'a');
	sb_putc(&text, '`');
	for (int i = 0; i < 150; i++)
		sb_putc(&text, 'b');
	r = lex(text.s);
	sb_printf(&want, "t.stp:1:150: parse error: invalid character '`'\n"
		  "...%.120s...\n%63s^\n", text.s + 89, "");
	CHECK_EQ_INT(r.nerr, 1);
	CHECK_EQ_STR(r.err, want.s);
}

/* ---- lex_text_at and tok_describe ---- */

TEST(text_at_fixed_location)
{
	struct source *src = mksrc("probe begin { x = $1 }");
	struct origin o = { { src, 1, 19, 2, NULL }, "in script argument %s", "$1" };
	struct loc at = { src, 1, 19, 2, &o };
	struct tokens ts = { 0 };

	lex_text_at("5+ 5", &at, &ts);
	CHECK_EQ_STR(dump_tokens(&ts), "num'5'1:19:2 op'+'1:19:2 num'5'1:19:2");
	for (int i = 0; i < ts.len; i++) {
		CHECK(ts.t[i].loc.src == src);
		CHECK(ts.t[i].loc.from == &o);
	}
	CHECK_EQ_INT(ts.t[1].space_before, 0);
	CHECK_EQ_INT(ts.t[2].space_before, 1);
}

TEST(text_at_empty)
{
	struct source *src = mksrc("x");
	struct loc at = { src, 1, 1, 1, NULL };
	struct tokens ts = { 0 };

	lex_text_at("", &at, &ts);
	CHECK_EQ_INT(ts.len, 0);
}

TEST(describe)
{
	struct lexed r = lex("foo 12 \"s\" + %{ c %}");
	struct lexed l = lex("\"0123456789012345678901234567890123456789"
			     "012345678901234567890123\"");

	CHECK_EQ_STR(tok_describe(&r.ts.t[0]), "'foo'");
	CHECK_EQ_STR(tok_describe(&r.ts.t[1]), "'12'");
	CHECK_EQ_STR(tok_describe(&r.ts.t[2]), "'\"s\"'");
	CHECK_EQ_STR(tok_describe(&r.ts.t[3]), "'+'");
	CHECK_EQ_STR(tok_describe(&r.ts.t[4]), "'%{'");
	CHECK_EQ_STR(tok_describe(&r.ts.t[5]), "end of input");
	CHECK_EQ_STR(tok_describe(&l.ts.t[0]),
		     "'\"012345678901234567890123456789012345678901234567890123456789...\"'");
}

int main(int argc, char **argv)
{
	diag_set_limit(1000000);
	return unit_main(argc, argv);
}
