// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A request's query string (api_int.h): "k=v&k=v", percent-decoded,
 * each name at most once and known to its endpoint, numbers whole and
 * in range.  Hostile input stops here with a 400 that names the
 * parameter; the endpoints see only checked values.
 */
#include <stdlib.h>
#include <string.h>

#include "api_int.h"

static int hex(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* The byte of the escape at s[i] ('%'), or -1 when it is not one. */
static int escape_at(const char *s, size_t n, size_t i)
{
	int hi = i + 2 < n ? hex(s[i + 1]) : -1;
	int lo = hi >= 0 ? hex(s[i + 2]) : -1;

	return lo < 0 ? -1 : hi * 16 + lo;
}

/*
 * s[0..n) decoded (%XX, '+' as space) into *out; 0, or the error: 400
 * for a bad escape or a NUL, 500 out of memory.
 */
static int decode(struct vapi_req *q, const char *s, size_t n, char **out)
{
	char *d = malloc(n + 1), *o = d;
	int c;

	*out = NULL;
	if (!d)
		return vapi_fail(q, 500, "out of memory");
	for (size_t i = 0; i < n; i++) {
		c = s[i] == '+' ? ' ' : s[i] != '%' ? (unsigned char)s[i] :
		    escape_at(s, n, i);
		if (c <= 0) {
			free(d);
			return vapi_fail(q, 400, c ? "a bad escape in the query" :
					 "a NUL (%%00) in the query");
		}
		*o++ = (char)c;
		i += s[i] == '%' ? 2 : 0;
	}
	*o = 0;
	*out = d;
	return 0;
}

static int add_param(struct vapi_req *q, const char *s, size_t n)
{
	const char *eq = memchr(s, '=', n);
	size_t kn = eq ? (size_t)(eq - s) : n;
	struct vapi_param *p;
	int rc;

	if (q->nparam == VAPI_MAX_PARAMS)
		return vapi_fail(q, 400, "more than %d parameters",
				 VAPI_MAX_PARAMS);
	p = &q->param[q->nparam];
	rc = decode(q, s, kn, &p->key);
	if (!rc)
		rc = decode(q, eq ? eq + 1 : "", eq ? n - kn - 1 : 0, &p->val);
	if (rc) {
		free(p->key);
		p->key = NULL;
		return rc;
	}
	q->nparam++;
	for (int i = 0; i < q->nparam - 1; i++)
		if (!strcmp(q->param[i].key, p->key))
			return vapi_fail(q, 400, "parameter '%.100s' given twice",
					 p->key);
	return 0;
}

int vapi_parse_query(struct vapi_req *q, const char *query)
{
	const char *s = query, *amp;
	int rc = 0;

	while (s && *s && !rc) {
		amp = strchrnul(s, '&');
		if (amp > s)
			rc = add_param(q, s, (size_t)(amp - s));
		s = *amp ? amp + 1 : amp;
	}
	return rc;
}

int vapi_allow(struct vapi_req *q, const char *const *names)
{
	for (int i = 0; i < q->nparam; i++) {
		const char *const *n = names;

		while (*n && strcmp(*n, q->param[i].key))
			n++;
		if (!*n)
			return vapi_fail(q, 400, "unknown parameter '%.100s'",
					 q->param[i].key);
	}
	return 0;
}

const char *vapi_param(const struct vapi_req *q, const char *key)
{
	for (int i = 0; i < q->nparam; i++)
		if (!strcmp(q->param[i].key, key))
			return q->param[i].val;
	return NULL;
}

int vapi_num(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *v)
{
	uint64_t x = 0;		/* 19 digits fit, not always in int64 */

	if (n == 0 || n > 19 || lo < 0)
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		x = x * 10 + (uint64_t)(s[i] - '0');
	}
	if (x < (uint64_t)lo || x > (uint64_t)hi)
		return -1;
	*v = (int64_t)x;
	return 0;
}

int vapi_int(struct vapi_req *q, const char *key, int required, int64_t lo,
	     int64_t hi, int64_t *v)
{
	const char *s = vapi_param(q, key);

	if (!s && !required)
		return 0;
	if (!s)
		return vapi_fail(q, 400, "missing parameter '%s'", key);
	if (vapi_num(s, strlen(s), lo, hi, v))
		return vapi_fail(q, 400,
				 "%s: '%.100s' is not an integer from %lld to %lld",
				 key, s, (long long)lo, (long long)hi);
	return 0;
}

int vapi_ms(struct vapi_req *q, const char *key, int required, int64_t *ms)
{
	return vapi_int(q, key, required, 0, VAPI_MAX_MS, ms);
}

int vapi_range(struct vapi_req *q, int64_t *from, int64_t *to)
{
	int rc = vapi_ms(q, "from", 1, from);

	if (!rc)
		rc = vapi_ms(q, "to", 1, to);
	if (!rc && *from >= *to)
		rc = vapi_fail(q, 400, "from (%lld) is not before to (%lld)",
			       (long long)*from, (long long)*to);
	return rc;
}
