/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Values by their names, as SystemTap's tapsets print a system call's
 * arguments: tables of the kernel's own names (STP_SC(O_CREAT)), read as
 * a value (its name, else hex) or as flags.  Shared by the tapset files
 * that decode arguments (syscall_args.stp, syscall_decoders.stp).
 */
#ifndef STP_SC_NAMES_H
#define STP_SC_NAMES_H

#include <linux/kernel.h>
#include <linux/string.h>

struct stp_sc_name {
	unsigned long v;
	const char *n;
};
#define STP_SC(x) { (unsigned long)(x), #x }

/* Appends text to buf (len bytes in all), as far as it fits. */
static void stp_sc_cat(char *buf, size_t len, const char *text)
{
	size_t l = strlen(buf);

	if (l + 1 < len)
		strscpy(buf + l, text, len - l);
}

/* The names of v's bits joined by '|' (a name of several bits when all
 * are set; list those first), the bits left over in hex; "0x0" for 0,
 * as SystemTap's (a name for 0, F_OK or PROT_NONE, is the caller's). */
static void stp_sc_flags(char *buf, size_t len, const struct stp_sc_name *t,
			 size_t n, unsigned long v)
{
	char rest[24];
	size_t i;

	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!t[i].v || (v & t[i].v) != t[i].v)
			continue;
		if (buf[0])
			stp_sc_cat(buf, len, "|");
		stp_sc_cat(buf, len, t[i].n);
		v &= ~t[i].v;
	}
	if (v) {
		snprintf(rest, sizeof(rest), "%s0x%lx", buf[0] ? "|" : "", v);
		stp_sc_cat(buf, len, rest);
	} else if (!buf[0]) {
		strscpy(buf, "0x0", len);
	}
}

/* The name v has in t, or v in hex (decimal: dec), as SystemTap's. */
static void stp_sc_enum_base(char *buf, size_t len, const struct stp_sc_name *t,
			     size_t n, long v, int dec)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (t[i].v == (unsigned long)v) {
			strscpy(buf, t[i].n, len);
			return;
		}
	}
	snprintf(buf, len, dec ? "%ld" : "0x%lx", v);
}
#define stp_sc_enum(buf, len, t, n, v) stp_sc_enum_base(buf, len, t, n, v, 0)

/* SystemTap's reading of flags: each name whose bits v shares, joined
 * by '|' (its bits then taken out of v), what is left in hex (decimal:
 * dec); 0 as the name of 0 in t, or "0x0" ("0"). */
static void stp_sc_or_base(char *buf, size_t len, const struct stp_sc_name *t,
			   size_t n, unsigned long v, int dec)
{
	char rest[24];
	size_t i;

	if (!v) {
		stp_sc_enum_base(buf, len, t, n, 0, dec);
		return;
	}
	buf[0] = '\0';
	for (i = 0; i < n; i++) {
		if (!(t[i].v & v))
			continue;
		if (buf[0])
			stp_sc_cat(buf, len, "|");
		stp_sc_cat(buf, len, t[i].n);
		v &= ~t[i].v;
	}
	if (v) {
		snprintf(rest, sizeof(rest), dec ? "%s%lu" : "%s0x%lx", buf[0] ? "|" : "", v);
		stp_sc_cat(buf, len, rest);
	}
}
#define stp_sc_or(buf, len, t, n, v) stp_sc_or_base(buf, len, t, n, v, 0)

#endif
