// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of printf formatting (runtime/format.c) and output buffers
 * (runtime/out.c).  Expected strings are SystemTap's output, which is
 * not C's where runtime/format.c's top comment says so.
 */
#include "format.h"
#include "out.h"
#include "unit.h"

static char fbuf[20000];
static int flen;		/* what stp_format returned */
static const char *ferr;

static union stp_val L(int64_t v)
{
	union stp_val u = { .l = v };
	return u;
}

static union stp_val S(const char *s)
{
	union stp_val u = { .s = s };
	return u;
}

static const char *fmtv(const char *f, const union stp_val *a, int n)
{
	ferr = NULL;
	flen = stp_format(fbuf, sizeof(fbuf), f, a, n, &ferr);
	return fbuf;
}

#define F0(f) fmtv((f), NULL, 0)
#define F(f, ...)                                                      \
	fmtv((f), (union stp_val[]){ __VA_ARGS__ },                    \
	     (int)(sizeof((union stp_val[]){ __VA_ARGS__ }) /          \
		   sizeof(union stp_val)))
/* Formats with embedded NULs: compare n bytes. */
#define CHECK_BYTES(got, exp, n)                                       \
	do {                                                           \
		if (CHECK_EQ_INT(flen, (n)))                           \
			CHECK(!memcmp((got), (exp), (n)));             \
	} while (0)

TEST(fmt_plain_text_and_percent)
{
	CHECK_EQ_STR(F0("abc"), "abc");
	CHECK_EQ_INT(flen, 3);
	CHECK_EQ_STR(F0("100%% sure %%d"), "100% sure %d");
	CHECK_EQ_STR(F0(""), "");
	CHECK_EQ_INT(flen, 0);
}

TEST(fmt_decimal)
{
	CHECK_EQ_STR(F("%d", L(42)), "42");
	CHECK_EQ_STR(F("%d", L(-42)), "-42");
	CHECK_EQ_STR(F("%i|%d", L(0), L(7)), "0|7");
	CHECK_EQ_STR(F("%u", L(123456789012345LL)), "123456789012345");
	CHECK_EQ_STR(F("x=%d y=%d", L(1), L(2)), "x=1 y=2");
}

TEST(fmt_int64_extremes)
{
	CHECK_EQ_STR(F("%d", L(INT64_MIN)), "-9223372036854775808");
	CHECK_EQ_STR(F("%d", L(INT64_MAX)), "9223372036854775807");
	CHECK_EQ_STR(F("%u", L(-1)), "18446744073709551615");
	CHECK_EQ_STR(F("%x", L(-1)), "ffffffffffffffff");
	CHECK_EQ_STR(F("%X", L(INT64_MIN)), "8000000000000000");
	CHECK_EQ_STR(F("%o", L(-1)), "1777777777777777777777");
	CHECK_EQ_STR(F("%u", L(INT64_MIN)), "9223372036854775808");
	CHECK_EQ_STR(F("%+d", L(INT64_MIN)), "-9223372036854775808");
}

TEST(fmt_hex_octal)
{
	CHECK_EQ_STR(F("%x %X %o", L(255), L(255), L(8)), "ff FF 10");
	CHECK_EQ_STR(F("%x", L(0)), "0");
	CHECK_EQ_STR(F("%x", L(-2)), "fffffffffffffffe");
	CHECK_EQ_STR(F("%o", L(-8)), "1777777777777777777770");
}

TEST(fmt_width_left_zero)
{
	CHECK_EQ_STR(F("%5d|%-5d|%05d", L(42), L(42), L(42)),
		     "   42|42   |00042");
	CHECK_EQ_STR(F("%05d", L(-42)), "-0042");
	CHECK_EQ_STR(F("%-05d|", L(42)), "42   |");
	CHECK_EQ_STR(F("%1d", L(12345)), "12345");
	CHECK_EQ_STR(F("%8x|%-8X|%08o", L(255), L(255), L(8)),
		     "      ff|FF      |00000010");
	CHECK_EQ_STR(F("%6u", L(-1)), "18446744073709551615");
}

TEST(fmt_plus_space)
{
	CHECK_EQ_STR(F("%+d|% d|%+d|%+ d", L(5), L(5), L(-5), L(5)),
		     "+5| 5|-5|+5");
	/* Sign flags mean nothing to unsigned conversions. */
	CHECK_EQ_STR(F("%+u|% x|%+o", L(5), L(5), L(5)), "5|5|5");
	CHECK_EQ_STR(F("%+5d|%+05d|%-+5d|", L(5), L(5), L(5)),
		     "   +5|+0005|+5   |");
	CHECK_EQ_STR(F("% 05d", L(-5)), "-0005");
}

TEST(fmt_int_precision)
{
	CHECK_EQ_STR(F("%.3d", L(7)), "007");
	CHECK_EQ_STR(F("%.3d", L(-7)), "-007");
	/* SystemTap still prints the 0 at precision 0. */
	CHECK_EQ_STR(F("%.0d|%.d", L(0), L(0)), "0|0");
	CHECK_EQ_STR(F("%8.3d|%-8.3d|", L(7), L(7)), "     007|007     |");
	/* ... and keeps the zero padding a precision cancels in C. */
	CHECK_EQ_STR(F("%08.3d", L(7)), "00000007");
	CHECK_EQ_STR(F("%.2d", L(12345)), "12345");
	CHECK_EQ_STR(F("%.4x", L(255)), "00ff");
}

TEST(fmt_alternate_forms)
{
	CHECK_EQ_STR(F("%#x|%#X|%#o", L(255), L(255), L(8)), "0xff|0XFF|010");
	/* Unlike C: the prefix goes on zero as well. */
	CHECK_EQ_STR(F("%#x|%#o", L(0), L(0)), "0x0|00");
	CHECK_EQ_STR(F("%#10x|", L(255)), "      0xff|");
	CHECK_EQ_STR(F("%#010x", L(255)), "0x000000ff");
	CHECK_EQ_STR(F("%-#10x|", L(255)), "0xff      |");
	CHECK_EQ_STR(F("%#.4x", L(255)), "0x00ff");
	CHECK_EQ_STR(F("%#.3o", L(8)), "0010");
	CHECK_EQ_STR(F("%#d|%#u", L(5), L(5)), "5|5");
	CHECK_EQ_STR(F("%#x", L(-1)), "0xffffffffffffffff");
}

TEST(fmt_pointer)
{
	/* %p is %#x of the 64-bit value: no fixed width on 64-bit. */
	CHECK_EQ_STR(F("%p", L(0x1234)), "0x1234");
	CHECK_EQ_STR(F("%p", L(0)), "0x0");
	CHECK_EQ_STR(F("%p", L(-1)), "0xffffffffffffffff");
	CHECK_EQ_STR(F("%p", L((int64_t)0xffffffff81000000ULL)),
		     "0xffffffff81000000");
	CHECK_EQ_STR(F("%20p|", L(0x1234)), "              0x1234|");
	CHECK_EQ_STR(F("%-20p|", L(0x1234)), "0x1234              |");
	CHECK_EQ_STR(F("%020p", L(0x1234)), "0x000000000000001234");
}

TEST(fmt_char)
{
	CHECK_EQ_STR(F("%c", L('A')), "A");
	CHECK_EQ_STR(F("%3c|%-3c|", L('A'), L('A')), "  A|A  |");
	CHECK_EQ_STR(F("%03c", L('A')), "  A");
	/* Only the low byte counts. */
	CHECK_EQ_STR(F("%c", L(256 + 'B')), "B");
	F("a%cb", L(0));
	CHECK_BYTES(fbuf, "a\0b", 3);
}

TEST(fmt_char_escapes)
{
	CHECK_EQ_STR(F("%#c", L('\n')), "\\n");
	CHECK_EQ_STR(F("%#c%#c%#c", L('\a'), L('\t'), L('\v')), "\\a\\t\\v");
	CHECK_EQ_STR(F("%#c|%#c", L('\''), L('\\')), "\\'|\\\\");
	CHECK_EQ_STR(F("%#c|%#c", L(1), L(0xff)), "\\001|\\377");
	CHECK_EQ_STR(F("%#c|%#c", L('a'), L('"')), "a|\"");
	CHECK_EQ_STR(F("%#5c|%-#5c|", L('\n'), L(2)), "   \\n|\\002 |");
	CHECK_EQ_STR(F("%#c", L(0x7f)), "\\177");
}

TEST(fmt_string)
{
	CHECK_EQ_STR(F("%s", S("hello")), "hello");
	CHECK_EQ_STR(F("%10s|%-10s|", S("hello"), S("hello")),
		     "     hello|hello     |");
	CHECK_EQ_STR(F("%.3s|%10.3s|%.0s|", S("hello"), S("hello"),
		       S("hello")), "hel|       hel||");
	CHECK_EQ_STR(F("%.10s", S("hi")), "hi");
	CHECK_EQ_STR(F("%s", S(NULL)), "<NULL>");
	CHECK_EQ_STR(F("[%s]", S("")), "[]");
	CHECK_EQ_STR(F("%2s", S("hello")), "hello");
}

TEST(fmt_string_zero_flag_appends_nul)
{
	F("%05s|", S("ab"));
	CHECK_BYTES(fbuf, "   ab\0|", 7);
	F("%-05s|", S("ab"));
	CHECK_BYTES(fbuf, "ab   \0|", 7);
}

TEST(fmt_star_width_precision)
{
	CHECK_EQ_STR(F("%*d|", L(5), L(42)), "   42|");
	CHECK_EQ_STR(F("%*d|", L(-5), L(42)), "42   |");
	CHECK_EQ_STR(F("%.*d", L(3), L(7)), "007");
	/* A negative precision is 0, as in SystemTap. */
	CHECK_EQ_STR(F("%.*d|%.*s|", L(-1), L(7), L(-3), S("abc")), "7||");
	CHECK_EQ_STR(F("%*.*s|", L(6), L(2), S("hello")), "    he|");
	CHECK_EQ_STR(F("%-*s|", L(4), S("a")), "a   |");
	/* The most negative width: left-aligned, capped. */
	F("%*s|", L(INT64_MIN), S("a"));
	CHECK_EQ_INT(flen, STP_BUFFER_SIZE + 1);
	CHECK_EQ_INT(fbuf[0], 'a');
	CHECK_EQ_INT(fbuf[STP_BUFFER_SIZE], '|');
}

TEST(fmt_width_is_capped)
{
	F("%100000d", L(1));
	CHECK_EQ_INT(flen, STP_BUFFER_SIZE);
	F("%99999999999999999999d", L(1));
	CHECK_EQ_INT(flen, STP_BUFFER_SIZE);
	F("%.100000d", L(1));
	CHECK_EQ_INT(flen, STP_BUFFER_SIZE);
	F("%*d", L(INT64_MAX), L(1));
	CHECK_EQ_INT(flen, STP_BUFFER_SIZE);
	CHECK_EQ_INT(fbuf[STP_BUFFER_SIZE - 1], '1');
}

TEST(fmt_length_modifiers_ignored)
{
	CHECK_EQ_STR(F("%lld|%ld|%hd|%hhd|%Ld", L(70000), L(70000), L(70000),
		       L(70000), L(70000)), "70000|70000|70000|70000|70000");
	CHECK_EQ_STR(F("%lx|%llu|%hhx", L(-1), L(-1), L(-1)),
		     "ffffffffffffffff|18446744073709551615|ffffffffffffffff");
	CHECK_EQ_STR(F("%ls", S("s")), "s");
}

TEST(fmt_binary)
{
	F("%b", L(0x0807060504030201LL));
	CHECK_BYTES(fbuf, "\1\2\3\4\5\6\7\10", 8);
	F("%1b%2b", L(0x41), L(0x4243));
	CHECK_BYTES(fbuf, "ACB", 3);
	F("%4b", L(0x44434241));
	CHECK_BYTES(fbuf, "ABCD", 4);
	F("%.2b", L(0x4241));
	CHECK_BYTES(fbuf, "AB", 2);
	/* A width that is no size: 8 bytes, no padding. */
	F("%3b", L(0x41));
	CHECK_BYTES(fbuf, "A\0\0\0\0\0\0\0", 8);
	F("%10.2b", L(0x4241));
	CHECK_BYTES(fbuf, "\0\0\0\0\0\0\0\0AB", 10);
	F("%-10.2b|", L(0x4241));
	CHECK_BYTES(fbuf, "AB\0\0\0\0\0\0\0\0|", 11);
	F("%.3b", L(0x41));
	CHECK_BYTES(fbuf, "A\0\0\0\0\0\0\0", 8);
	F("%1b", L(-1));
	CHECK_BYTES(fbuf, "\xff", 1);
}

static const char mem[] = "ABCDEFGH";

/* Readable: mem[0..8); anything else faults. */
static int read_mem_only(void *dst, const void *src, size_t n)
{
	const char *p = src;

	if (p < mem || p + n > mem + 8)
		return -EFAULT;
	memcpy(dst, src, n);
	return 0;
}

TEST(fmt_memory)
{
	int64_t a = (int64_t)(uintptr_t)mem;

	stp_host_read_hook = read_mem_only;
	CHECK_EQ_STR(F("%m", L(a)), "A");
	CHECK_EQ_STR(F("%.3m|%5.2m|%-5.2m|", L(a), L(a), L(a)),
		     "ABC|   AB|AB   |");
	CHECK_EQ_STR(F("%M|%.3M|%8.3M|%-8.2M|", L(a), L(a), L(a), L(a)),
		     "41|414243|  414243|4142    |");
	CHECK_EQ_STR(F("%.*m", L(8), L(a)), "ABCDEFGH");
	F("%03m|", L(a));
	CHECK_BYTES(fbuf, "  A\0|", 5);
	stp_host_read_hook = NULL;
}

TEST(fmt_memory_fault)
{
	int64_t a = (int64_t)(uintptr_t)mem;

	stp_host_read_hook = read_mem_only;
	ferr = NULL;
	CHECK_EQ_INT(stp_format(fbuf, sizeof(fbuf), "x%.9m",
				(union stp_val[]){ L(a) }, 1, &ferr), -1);
	CHECK_EQ_STR(ferr, "kernel read fault in %m/%M");
	CHECK_EQ_INT(stp_format(fbuf, sizeof(fbuf), "%M",
				(union stp_val[]){ L(a + 8) }, 1, NULL), -1);
	CHECK_EQ_INT(stp_format(fbuf, sizeof(fbuf), "%.8M",
				(union stp_val[]){ L(a) }, 1, NULL), 16);
	stp_host_read_hook = NULL;
}

TEST(fmt_bad_formats)
{
	static const struct {
		const char *fmt, *err;
	} cases[] = {
		{ "%", "format string ends inside a conversion" },
		{ "abc%-05", "format string ends inside a conversion" },
		{ "%.3l", "format string ends inside a conversion" },
		{ "%q", "unknown conversion in format string" },
		{ "%f", "unknown conversion in format string" },
		{ "%n", "unknown conversion in format string" },
		{ "%lls", NULL },	/* fine */
		{ "%d %d", "format needs more arguments than it was given" },
		{ "%*d", "format needs more arguments than it was given" },
	};
	union stp_val one[] = { L(1) };
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ferr = NULL;
		flen = stp_format(fbuf, sizeof(fbuf), cases[i].fmt,
				  i == 6 ? (union stp_val[]){ S("x") } : one,
				  1, &ferr);
		CHECK_EQ_INT(flen, cases[i].err ? -1 : 1);
		CHECK_EQ_STR(ferr, cases[i].err);
	}
	/* err may be NULL. */
	CHECK_EQ_INT(stp_format(fbuf, sizeof(fbuf), "%y", NULL, 0, NULL), -1);
}

TEST(fmt_snprintf_contract)
{
	char small[8];
	union stp_val a[] = { S("hello") };

	CHECK_EQ_INT(stp_format(NULL, 0, "%s!", a, 1, NULL), 6);
	memset(small, 'z', sizeof(small));
	CHECK_EQ_INT(stp_format(small, 4, "%s!", a, 1, NULL), 6);
	CHECK_EQ_STR(small, "hel");
	CHECK_EQ_INT(small[4], 'z');
	CHECK_EQ_INT(stp_format(small, 1, "%s!", a, 1, NULL), 6);
	CHECK_EQ_STR(small, "");
	CHECK_EQ_INT(stp_format(small, 7, "%s!", a, 1, NULL), 6);
	CHECK_EQ_STR(small, "hello!");
	CHECK_EQ_INT(stp_format(small, 6, "%s!", a, 1, NULL), 6);
	CHECK_EQ_STR(small, "hello");
	/* Extra arguments are ignored. */
	CHECK_EQ_INT(stp_format(small, 8, "x", a, 1, NULL), 1);
}

/* ---- output buffers ---- */

static char flushed[4096];
static size_t nflushed;
static int flushes;

static void collect(struct stp_out *o)
{
	memcpy(flushed + nflushed, o->buf, o->len);
	nflushed += o->len;
	o->len = 0;
	flushes++;
}

static struct stp_out *out_new(size_t cap, int with_flush)
{
	static char storage[256];
	static struct stp_out o;

	memset(&o, 0, sizeof(o));
	o.buf = storage;
	o.cap = cap;
	o.flush = with_flush ? collect : NULL;
	nflushed = 0;
	flushes = 0;
	flushed[0] = 0;
	for (int i = 0; i < STP_EV_COUNT; i++)
		stp_atomic_set(&stp_events[i], 0);
	return &o;
}

/* Flushed text followed by what is still buffered. */
static const char *out_text(struct stp_out *o)
{
	static char all[4096 + 256];

	memcpy(all, flushed, nflushed);
	memcpy(all + nflushed, o->buf, o->len);
	all[nflushed + o->len] = 0;
	return all;
}

TEST(out_write_and_flush)
{
	struct stp_out *o = out_new(8, 1);

	stp_out_str(o, "abcde");
	stp_out_char(o, 'f');
	CHECK_EQ_INT(flushes, 0);
	stp_out_str(o, "ghi");	/* does not fit: flushed first */
	CHECK_EQ_INT(flushes, 1);
	CHECK_EQ_STR(out_text(o), "abcdefghi");
	stp_out_long(o, INT64_MIN);	/* 20 bytes > 8: cut */
	CHECK_EQ_INT(stp_atomic_read(&stp_events[STP_EV_OUT_TRUNC]), 12);
	CHECK_EQ_STR(out_text(o), "abcdefghi-9223372");
	stp_out_flush(o);
	CHECK_EQ_INT(o->len, 0);
}

TEST(out_long)
{
	struct stp_out *o = out_new(64, 0);

	stp_out_long(o, 0);
	stp_out_char(o, ' ');
	stp_out_long(o, -1);
	stp_out_char(o, ' ');
	stp_out_long(o, INT64_MAX);
	stp_out_char(o, ' ');
	stp_out_long(o, INT64_MIN);
	CHECK_EQ_STR(out_text(o),
		     "0 -1 9223372036854775807 -9223372036854775808");
}

TEST(out_without_flush_cuts)
{
	struct stp_out *o = out_new(4, 0);

	stp_out_str(o, "abc");
	stp_out_str(o, "def");
	CHECK_EQ_STR(out_text(o), "abcd");
	CHECK_EQ_INT(stp_atomic_read(&stp_events[STP_EV_OUT_TRUNC]), 2);
	stp_out_flush(o);	/* no flush function: nothing happens */
	CHECK_EQ_INT(o->len, 4);
}

TEST(out_format)
{
	struct stp_out *o = out_new(16, 1);
	union stp_val a[] = { L(12345), S("abcdef") };

	CHECK_EQ_INT(stp_out_format(o, "n=%d;", a, 1, NULL), 8);
	CHECK_EQ_INT(o->len, 8);
	/* 9 bytes do not fit in the 8 left: flushed, then written. */
	CHECK_EQ_INT(stp_out_format(o, "s=%s;", a + 1, 1, NULL), 9);
	CHECK_EQ_INT(flushes, 1);
	CHECK_EQ_STR(out_text(o), "n=12345;s=abcdef;");
	/* Larger than the whole buffer: cut, the rest counted. */
	CHECK_EQ_INT(stp_out_format(o, "%20d", a, 1, NULL), 20);
	CHECK_EQ_INT(flushes, 2);
	CHECK_EQ_INT(o->len, 15);
	CHECK_EQ_INT(stp_atomic_read(&stp_events[STP_EV_OUT_TRUNC]), 5);
	CHECK_EQ_STR(out_text(o), "n=12345;s=abcdef;               ");
	CHECK_EQ_INT(stp_out_format(o, "%q", a, 1, &ferr), -1);
	CHECK_EQ_INT(o->len, 15);
}

TEST(out_format_without_flush)
{
	struct stp_out *o = out_new(8, 0);
	union stp_val a[] = { S("abcdef") };

	CHECK_EQ_INT(stp_out_format(o, "%s", a, 1, NULL), 6);
	CHECK_EQ_INT(stp_out_format(o, "%s", a, 1, NULL), 6);
	CHECK_EQ_STR(out_text(o), "abcdefa");
	CHECK_EQ_INT(stp_atomic_read(&stp_events[STP_EV_OUT_TRUNC]), 5);
}

int main(int argc, char **argv)
{
	return unit_main(argc, argv);
}
