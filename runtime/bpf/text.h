/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text that pass 2's embedded C of $$parms, $$vars and $x$ builds
 * (btf_pretty.c, sdt_var.c), under the kmod runtime's names (str.h,
 * target.h): appending to a MAXSTRINGLEN buffer, numbers in hex, strings
 * quoted and escaped as SystemTap shows them.  kern.h includes this.
 *
 * An append writes at the buffer's length n up to MAXSTRINGLEN - n
 * bytes: the verifier bounds the two apart, so the buffer (a function's
 * STAP_RETVALUE in struct stp_ctx) needs MAXSTRINGLEN bytes after it
 * within the context, which the context's last field, stp_pad, gives.
 */
#ifndef STP_BPF_TEXT_H
#define STP_BPF_TEXT_H

/* Scratch, per CPU: too big for BPF's stack. */
struct stp_tvq {
	char raw[MAXSTRINGLEN];		/* a string read, to quote */
	char esc[2 * MAXSTRINGLEN];	/* it quoted */
	char len[MAXSTRINGLEN];		/* an append's copy, for the length */
	/* the quoting's state: here, not on the stack, so that the
	 * verifier sees unknown numbers and checks bpf_loop's step once
	 * rather than once a value */
	long o;		/* bytes written to esc */
	long in;	/* characters of raw taken */
	int cut;
};

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, u32);
	__type(value, struct stp_tvq);
} stp_tvq_map SEC(".maps");

/* The length comes from a helper's copy rather than a loop over dst: a
 * loop leaves the verifier one path per length, and each append after
 * multiplies them. */
/* STP_TEXT_FN: a call rather than a copy at every use: $$parms$ of a
 * big struct appends thousands of times, and inlined that outgrows what
 * a BPF program's jumps reach. */
#define STP_TEXT_FN static __attribute__((noinline))

STP_TEXT_FN void stp_str_append(char *dst, const char *src)
{
	u32 zero = 0;
	struct stp_tvq *q = bpf_map_lookup_elem(&stp_tvq_map, &zero);
	long n;

	if (!q)
		return;
	n = bpf_probe_read_kernel_str(q->len, MAXSTRINGLEN, dst) - 1;
	if (n < 0)
		n = 0;
	n &= MAXSTRINGLEN - 1;
	bpf_probe_read_kernel_str(dst + n, MAXSTRINGLEN - n, src);
}

#define stp_str_assign(dst, src) stp_strcpy((dst), (src))

/* v as "%#llx" prints it in the kernel ("0x0" for 0) */
STP_TEXT_FN void stp_tv_hex(char *out, u64 v)
{
	char b[20];
	int n = 0, top = 60;

	b[n++] = '0';
	b[n++] = 'x';
	while (top > 0 && !((v >> top) & 0xf))
		top -= 4;
	for (; top >= 0 && n < 18; top -= 4) {
		unsigned d = (v >> top) & 0xf;

		b[n++] = d < 10 ? '0' + d : 'a' + d - 10;
	}
	b[n & 31 ? n : 0] = 0;
	stp_str_append(out, b);
}

STP_INLINE void stp_tvq_put(struct stp_tvq *q, char ch)
{
	q->esc[q->o & (2 * MAXSTRINGLEN - 1)] = ch;
	q->o++;
}

/* bpf_loop's step i: the raw string's byte i, escaped */
static long stp_tvq_step(u32 i, struct stp_tvq **qp)
{
	struct stp_tvq *q = *qp;
	unsigned char ch = q->raw[i & (MAXSTRINGLEN - 1)];
	const char *named = "\n\t\r\v\f\a\b\"\\", *letter = "ntrvfab\"\\";
	int k = ch < 32 || ch >= 127 ? 4 : 1;

	if (!ch)
		return 1;
	for (int j = 0; j < 9; j++)
		if (ch == (unsigned char)named[j])
			k = 2;
	if (q->o + k > MAXSTRINGLEN - 1 - 5) {
		q->cut = 1;
		return 1;
	}
	q->in++;
	if (k == 1) {
		stp_tvq_put(q, ch);
		return 0;
	}
	stp_tvq_put(q, '\\');
	for (int j = 0; j < 9; j++)
		if (ch == (unsigned char)named[j]) {
			stp_tvq_put(q, letter[j]);
			return 0;
		}
	stp_tvq_put(q, '0' + (ch >> 6));
	stp_tvq_put(q, '0' + ((ch >> 3) & 7));
	stp_tvq_put(q, '0' + (ch & 7));
	return 0;
}

/* A char array of size bytes (at most MAXSTRINGLEN: a pointer's string)
 * at addr, as SystemTap quotes it in $$vars: at most MAXSTRINGLEN / 4
 * characters, then "..." */
STP_TEXT_FN void stp_tv_quoted(char *out, unsigned long addr, long size, int user)
{
	u32 zero = 0;
	struct stp_tvq *q = bpf_map_lookup_elem(&stp_tvq_map, &zero);
	long n;

	if (!q)
		return;
	if (size <= 0 || size > MAXSTRINGLEN)
		size = MAXSTRINGLEN;
	n = addr ? stp_strncpy_nofault(q->raw, (const char *)addr, size, user) : -1;
	if (n < 0) {
		stp_str_append(out, addr ? "?" : "(null)");
		return;
	}
	q->raw[MAXSTRINGLEN - 1] = 0;
	q->o = q->in = q->cut = 0;
	stp_tvq_put(q, '"');
	bpf_loop(MAXSTRINGLEN / 4, stp_tvq_step, &q, 0);
	if (q->in == MAXSTRINGLEN / 4 && q->raw[(MAXSTRINGLEN / 4) & (MAXSTRINGLEN - 1)])
		q->cut = 1;	/* more than SystemTap shows */
	stp_tvq_put(q, '"');
	if (q->cut) {
		stp_tvq_put(q, '.');
		stp_tvq_put(q, '.');
		stp_tvq_put(q, '.');
	}
	stp_tvq_put(q, 0);
	stp_str_append(out, q->esc);
}

#endif
