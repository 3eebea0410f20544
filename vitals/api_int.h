/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the API's files share (api*.c): a request's parameters, checked
 * against the names an endpoint takes, and the answer being written.
 * An endpoint writes its JSON to a FILE (an open_memstream), so that
 * json.h's escaping serves both stp-vitals dump and the API.
 */
#ifndef STP_VITALS_API_INT_H
#define STP_VITALS_API_INT_H

#include <stdint.h>
#include <stdio.h>

#include "../store/read.h"

#define VAPI_MAX_PARAMS 16
#define VAPI_MAX_BUCKETS 20000
#define VAPI_MAX_MS 9223372036853LL	/* ms + 1 ms still fits int64's ns */

struct vapi_param {
	char *key, *val;	/* percent-decoded */
};

struct vapi_req {
	struct vread *r;
	FILE *out;		/* the body */
	int nparam;
	struct vapi_param param[VAPI_MAX_PARAMS];
	char err[512];		/* the message of an error status */
};

/* Split and decode query into q->param; 0, or 400 with q->err. */
int vapi_parse_query(struct vapi_req *q, const char *query);
/* 0 when every parameter is one of names (NULL-ended), else 400. */
int vapi_allow(struct vapi_req *q, const char *const *names);
/* The parameter's value, or NULL when absent. */
const char *vapi_param(const struct vapi_req *q, const char *key);
/* A required or optional time in ms, into *ms (ns in *ns); 0 or 400. */
int vapi_ms(struct vapi_req *q, const char *key, int required, int64_t *ms);
/* An integer in [lo, hi], into *v (left as is when absent); 0 or 400. */
int vapi_int(struct vapi_req *q, const char *key, int required, int64_t lo,
	     int64_t hi, int64_t *v);
/* from and to, both required, from < to; 0 or 400. */
int vapi_range(struct vapi_req *q, int64_t *from, int64_t *to);
/* A non-negative integer of text s (whole), into *v; 0, or -1. */
int vapi_num(const char *s, size_t n, int64_t lo, int64_t hi, int64_t *v);

/* Set q->err (printf) and return status. */
int vapi_fail(struct vapi_req *q, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* 500 with the store's error. */
int vapi_store_fail(struct vapi_req *q);

static inline int64_t vapi_ns_ms(int64_t ns)
{
	return ns / 1000000 - (ns % 1000000 < 0);	/* floor */
}

/* ,"key":"text" (null for NULL) and ,"key":true on q->out. */
void vapi_str(struct vapi_req *q, const char *key, const char *s);
void vapi_bool(struct vapi_req *q, const char *key, int b);

/* The endpoints: each returns the HTTP status. */
int vapi_meta(struct vapi_req *q);
int vapi_series(struct vapi_req *q);
int vapi_epoch(struct vapi_req *q);
int vapi_samples(struct vapi_req *q);
int vapi_flags(struct vapi_req *q);
int vapi_diff(struct vapi_req *q);

/*
 * The OpenMetrics text of the store's newest epochs (metrics.c), for
 * /metrics and stp-vitals metrics; 0, or -1 (vread_error says why).
 */
int vmetrics_write(struct vread *r, FILE *f);
#define VMETRICS_TYPE \
	"application/openmetrics-text; version=1.0.0; charset=utf-8"

#endif
