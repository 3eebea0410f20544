// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Output helpers only the kernel build needs: printf from embedded C, and
 * the end-of-run display of globals the script wrote and never read
 * (SystemTap's format: x=5, s="str", a["k",1]=2, statistics as their
 * aggregates; arrays by value, largest first).
 */

void stp_out_kprintf(struct stp_out *o, const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n >= (int)sizeof(buf)) {
		stp_count_n(STP_EV_OUT_TRUNC, n - (int)sizeof(buf) + 1);
		n = sizeof(buf) - 1;
	}
	stp_out_write(o, buf, n);
}

void stp_display_long(struct stp_out *o, int64_t v)
{
	stp_out_char(o, '=');
	stp_out_long(o, v);
}

void stp_display_str(struct stp_out *o, const char *s)
{
	stp_out_char(o, '"');
	stp_out_str(o, s);
	stp_out_char(o, '"');
}

/*
 * " @count=2 @min=1 @max=3 @sum=4 @avg=2" (without the first space when
 * printed alone); SystemTap shows an empty statistic as " @count=0x0".
 */
void stp_display_stat(struct stp_out *o, struct stp_stat *st,
		      const struct stp_stat_desc *d, int lead)
{
	static const struct {
		const char *name;
		enum stp_agg agg;
	} aggs[] = {
		{ " @count", STP_AGG_COUNT }, { " @min", STP_AGG_MIN },
		{ " @max", STP_AGG_MAX }, { " @sum", STP_AGG_SUM },
		{ " @avg", STP_AGG_AVG },
	};
	int64_t v;
	int i;

	if (!st || !st->count) {
		stp_out_str(o, " @count=0x0" + !lead);
		return;
	}
	for (i = 0; i < ARRAY_SIZE(aggs); i++) {
		if (stp_stat_get(st, d, aggs[i].agg, &v))
			v = 0;
		stp_out_str(o, aggs[i].name + (!i && !lead));
		stp_display_long(o, v);
	}
}

/*
 * text_str()/text_strn(): unprintable characters as C escapes.  At most
 * len input characters when len > 0; quoted puts the result in double
 * quotes, with "..." after them when the input was cut.
 */
void stp_text_escape(char *dst, const char *src, int64_t len, int64_t quoted)
{
	size_t n = 0, room = MAXSTRINGLEN - 1 - (quoted ? 5 : 0);
	int64_t i, max = len > 0 ? len : MAXSTRINGLEN;
	int cut = 0;

	if (quoted)
		dst[n++] = '"';
	for (i = 0; src[i]; i++) {
		unsigned char ch = src[i];
		char esc[5];
		int k;

		if (i >= max) {
			cut = 1;
			break;
		}
		switch (ch) {
		case '\n': k = snprintf(esc, sizeof(esc), "\\n"); break;
		case '\t': k = snprintf(esc, sizeof(esc), "\\t"); break;
		case '\r': k = snprintf(esc, sizeof(esc), "\\r"); break;
		case '\v': k = snprintf(esc, sizeof(esc), "\\v"); break;
		case '\f': k = snprintf(esc, sizeof(esc), "\\f"); break;
		case '\a': k = snprintf(esc, sizeof(esc), "\\a"); break;
		case '\b': k = snprintf(esc, sizeof(esc), "\\b"); break;
		case '"': k = snprintf(esc, sizeof(esc), "\\\""); break;
		case '\\': k = snprintf(esc, sizeof(esc), "\\\\"); break;
		default:
			if (ch < 32 || ch >= 127)
				k = snprintf(esc, sizeof(esc), "\\%03o", ch);
			else
				k = snprintf(esc, sizeof(esc), "%c", ch);
		}
		if (n + k > room) {
			cut = 1;
			break;
		}
		memcpy(dst + n, esc, k);
		n += k;
	}
	if (quoted) {
		dst[n++] = '"';
		if (cut) {
			memcpy(dst + n, "...", 3);
			n += 3;
		}
	}
	dst[n] = '\0';
}
