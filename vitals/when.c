// SPDX-License-Identifier: GPL-2.0-or-later
/* Times: see when.h. */
#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "when.h"

#define NS 1000000000LL

char *when_format(int64_t ns, char buf[WHEN_LEN])
{
	time_t s = (time_t)(ns / NS);
	int ms = (int)(ns % NS / 1000000);
	struct tm tm;

	if (ms < 0) {
		s--;
		ms += 1000;
	}
	gmtime_r(&s, &tm);
	snprintf(buf, WHEN_LEN, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ",
		 tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday, tm.tm_hour,
		 tm.tm_min, tm.tm_sec, ms);
	return buf;
}

/* n digits at *p as a number, *p moved past them; -1 if not n digits. */
static int digits(const char **p, int n)
{
	int v = 0;

	for (int i = 0; i < n; i++, (*p)++) {
		if (!isdigit((unsigned char)**p))
			return -1;
		v = v * 10 + (**p - '0');
	}
	return v;
}

/* "." and digits at *p as nanoseconds (none: 0); *p moved past them. */
static int64_t fraction(const char **p)
{
	int64_t ns = 0, unit = NS;

	if (**p != '.')
		return 0;
	if (!isdigit((unsigned char)(*p)[1]))
		return -1;
	for ((*p)++; isdigit((unsigned char)**p); (*p)++)
		if (unit /= 10)
			ns += (**p - '0') * unit;
	return ns;
}

/* "Z", or an offset "+HH:MM"/"-HH:MM" as seconds east; -1 on error. */
static int zone(const char *p, int64_t *east)
{
	int sign, h, m;

	if ((*p == 'Z' || *p == 'z') && !p[1]) {
		*east = 0;
		return 0;
	}
	if (*p != '+' && *p != '-')
		return -1;
	sign = *p++ == '-' ? -1 : 1;
	h = digits(&p, 2);
	if (h < 0 || h > 23 || *p++ != ':')
		return -1;
	m = digits(&p, 2);
	if (m < 0 || m > 59 || *p)
		return -1;
	*east = sign * (h * 3600 + m * 60);
	return 0;
}

/* "YYYY-MM-DDTHH:MM:SS" into f[]: year, month, day, hour, minute, second */
static int date_time(const char **p, int f[6])
{
	static const char sep[] = "--T::";
	static const int lo[6] = { 1970, 1, 1, 0, 0, 0 };
	static const int hi[6] = { 9999, 12, 31, 23, 59, 60 };

	for (int i = 0; i < 6; i++) {
		f[i] = digits(p, i ? 2 : 4);
		if (f[i] < lo[i] || f[i] > hi[i])
			return -1;
		if (i < 5 && toupper((unsigned char)**p) != sep[i])
			return -1;
		if (i < 5)
			(*p)++;
	}
	return 0;
}

static int rfc3339(const char *p, int64_t *ns)
{
	struct tm tm = { 0 };
	int64_t frac, east;
	int f[6];

	if (date_time(&p, f))
		return -1;
	tm.tm_year = f[0] - 1900;
	tm.tm_mon = f[1] - 1;
	tm.tm_mday = f[2];
	tm.tm_hour = f[3];
	tm.tm_min = f[4];
	tm.tm_sec = f[5];
	frac = fraction(&p);
	if (frac < 0 || zone(p, &east))
		return -1;
	*ns = ((int64_t)timegm(&tm) - east) * NS + frac;
	return 0;
}

static int unix_seconds(const char *p, int64_t *ns)
{
	int64_t s = 0, frac;

	if (!isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (s > INT64_MAX / NS / 10)
			return -1;
		s = s * 10 + (*p - '0');
	}
	frac = fraction(&p);
	if (frac < 0 || *p)
		return -1;
	*ns = s * NS + frac;
	return 0;
}

/* "-N" and a unit: s, m, h or d. */
static int relative(const char *p, int64_t now_ns, int64_t *ns)
{
	static const char units[] = "smhd";
	static const int64_t secs[] = { 1, 60, 3600, 86400 };
	const char *u;
	int64_t n = 0;

	if (*p++ != '-' || !isdigit((unsigned char)*p))
		return -1;
	for (; isdigit((unsigned char)*p); p++) {
		if (n > INT64_MAX / NS)
			return -1;
		n = n * 10 + (*p - '0');
	}
	u = *p ? strchr(units, *p) : NULL;
	if (!u || p[1] || n > INT64_MAX / NS / secs[u - units])
		return -1;
	*ns = now_ns - n * secs[u - units] * NS;
	return 0;
}

int when_parse(const char *s, int64_t now_ns, int64_t *ns)
{
	if (*s == '-')
		return relative(s, now_ns, ns);
	if (strlen(s) > 4 && s[4] == '-')
		return rfc3339(s, ns);
	return unix_seconds(s, ns);
}
