/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * An output buffer: print functions append to it; when it is full it is
 * handed to its flush function (the kernel's transport writes it to the
 * CPU's relay buffer; host tests collect it) and reused.  A single write
 * larger than the whole buffer is cut, and the cut bytes are counted.
 */
#ifndef STP_OUT_H
#define STP_OUT_H

#include "shim.h"

struct stp_out {
	char *buf;
	size_t len, cap;
	void (*flush)(struct stp_out *o);	/* empties buf; may be NULL */
	void *priv;
};

void stp_out_write(struct stp_out *o, const char *p, size_t n);
void stp_out_str(struct stp_out *o, const char *s);
void stp_out_char(struct stp_out *o, char ch);
void stp_out_long(struct stp_out *o, int64_t v);	/* decimal */
void stp_out_flush(struct stp_out *o);

#endif
