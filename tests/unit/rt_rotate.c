// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests of -S SIZE_MB[,COUNT] (staprun/rotate.c): what the option
 * takes, and the files written: FILE.0, FILE.1, ..., none bigger than
 * the size, lines kept whole unless one is longer than a file, the
 * oldest deleted beyond COUNT, and every byte written once, in order.
 * The stream takes its size in bytes, so a few bytes make a test.
 */
#include <sys/stat.h>
#include "unit.h"
#include "../../staprun/rotate.c"

static char dir[] = "/tmp/stp-rotate.XXXXXX";

/* dir/out.n's text, or NULL when there is no such file. */
static char *part(long n)
{
	static char buf[1 << 16];
	char name[512];
	FILE *f;
	size_t k;

	snprintf(name, sizeof(name), "%s/out.%ld", dir, n);
	f = fopen(name, "r");
	if (!f)
		return NULL;
	k = fread(buf, 1, sizeof(buf) - 1, f);
	buf[k] = '\0';
	fclose(f);
	return buf;
}

static FILE *fresh(long size, long count)
{
	char cmd[600], path[512];

	snprintf(cmd, sizeof(cmd), "rm -f %s/out.*", dir);
	if (system(cmd))
		return NULL;
	snprintf(path, sizeof(path), "%s/out", dir);
	return rotate_open(path, size, count);
}

TEST(parse_ok)
{
	long size, count;

	CHECK_EQ_INT(rotate_parse("1", &size, &count), 0);
	CHECK_EQ_INT(size, 1);
	CHECK_EQ_INT(count, 0);
	CHECK_EQ_INT(rotate_parse("64,5", &size, &count), 0);
	CHECK_EQ_INT(size, 64);
	CHECK_EQ_INT(count, 5);
	CHECK_EQ_INT(rotate_parse("1048576,1", &size, &count), 0);
}

TEST(parse_bad)
{
	static const char *const bad[] = {
		"", "0", "x", "1.5", "-1", " 1", "+1", "1,", "1,0", "1,x",
		"1,2,3", "1, 2", "1048577", "99999999999999999999",
	};
	long size, count;

	for (size_t i = 0; i < sizeof(bad) / sizeof(*bad); i++)
		if (rotate_parse(bad[i], &size, &count) != -1)
			CHECK_EQ_STR(bad[i], "(refused)");
}

TEST(lines_whole)
{
	FILE *f = fresh(10, 0);

	CHECK(f != NULL);
	for (int i = 0; i < 5; i++)
		fputs("abc\n", f);
	CHECK_EQ_INT(fclose(f), 0);
	CHECK_EQ_STR(part(0), "abc\nabc\n");
	CHECK_EQ_STR(part(1), "abc\nabc\n");
	CHECK_EQ_STR(part(2), "abc\n");
	CHECK(part(3) == NULL);
}

TEST(exact_fit)
{
	FILE *f = fresh(8, 0);

	fputs("abc\nabc\nabc\n", f);
	fclose(f);
	CHECK_EQ_STR(part(0), "abc\nabc\n");
	CHECK_EQ_STR(part(1), "abc\n");
}

/* switch_file(): the next file at once, whatever room is left. */
TEST(next_now)
{
	FILE *f = fresh(100, 0), *other = fopen("/dev/null", "w");

	fputs("abc\n", f);
	CHECK_EQ_INT(rotate_next(f), 0);
	fputs("def\n", f);
	CHECK_EQ_INT(rotate_next(other), -1);	/* not a rotating stream */
	CHECK_EQ_INT(fclose(f), 0);
	fclose(other);
	CHECK_EQ_STR(part(0), "abc\n");
	CHECK_EQ_STR(part(1), "def\n");
	CHECK(part(2) == NULL);
}

TEST(long_line_cut)
{
	FILE *f = fresh(10, 0);

	fputs("ab\n0123456789012345\n", f);
	fclose(f);
	CHECK_EQ_STR(part(0), "ab\n");
	CHECK_EQ_STR(part(1), "0123456789");
	CHECK_EQ_STR(part(2), "012345\n");
}

TEST(count_keeps_newest)
{
	FILE *f = fresh(4, 2);

	fputs("a0\na1\na2\na3\n", f);
	fclose(f);
	CHECK(part(0) == NULL);
	CHECK(part(1) == NULL);
	CHECK_EQ_STR(part(2), "a2\n");
	CHECK_EQ_STR(part(3), "a3\n");
}

TEST(empty_run_makes_file_0)
{
	FILE *f = fresh(4, 1);

	fclose(f);
	CHECK_EQ_STR(part(0), "");
	CHECK(part(1) == NULL);
}

/* Much output through stdio's buffer: every byte once, in order. */
TEST(many_writes)
{
	static char want[200000], got[200000];
	size_t len = 0, glen = 0;
	long n;
	FILE *f = fresh(1000, 0);
	char *p;

	for (int i = 0; len < sizeof(want) - 100; i++)
		len += sprintf(want + len, "line %d %.*s\n", i, i % 37, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	fwrite(want, 1, len, f);
	fclose(f);
	for (n = 0; (p = part(n)); n++) {
		size_t k = strlen(p);

		if (k > 1000 || (k && p[k - 1] != '\n'))
			CHECK_EQ_INT(k, -1);
		memcpy(got + glen, p, k);
		glen += k;
	}
	CHECK(n > 190);
	CHECK_EQ_INT(glen, len);
	CHECK(!memcmp(got, want, len));
}

TEST(unwritable)
{
	errno = 0;
	CHECK(rotate_open("/nonexistent/dir/out", 1, 0) == NULL);
	CHECK_EQ_INT(errno, ENOENT);
}

int main(int argc, char **argv)
{
	char cmd[600];
	int rc;

	if (!mkdtemp(dir))
		return 2;
	rc = unit_main(argc, argv);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	if (system(cmd))
		rc = 1;
	return rc;
}
