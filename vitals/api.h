/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The web page's JSON API (api*.c), answered without HTTP so that both
 * stp-vitals serve (serve.c) and stp-vitals report (report.c, which
 * embeds the answers in one page) use it.  Times in the API are Unix
 * milliseconds (integers a browser holds exactly).  doc/web.md ("The web
 * page") documents every endpoint.
 *
 *   /api/meta                        host, first and last epoch, vitals
 *   /api/series?scale=S&from=MS&to=MS
 *                                    S: epoch, hour or day; aligned arrays
 *   /api/epoch?at=MS                 the epoch holding that time
 *   /api/samples?epoch=ID[&vital=A,B][&exec=P][&uid=U][&pid=P][&site=S]
 *   /api/flags?from=MS&to=MS         the rules' flags
 *   /api/diff?a=MS-MS&b=MS-MS        stp-vitals diff's rows
 *   /metrics                         OpenMetrics text
 */
#ifndef STP_VITALS_API_H
#define STP_VITALS_API_H

#include <stddef.h>

#include "../store/read.h"

struct vbuf {
	char *p;
	size_t len, cap;
};

/*
 * Answer path?query (query without '?', may be NULL) into out (appended,
 * caller frees out->p); *type gets the content type.  Returns the HTTP
 * status: 200, 400 for a bad parameter or range, 404 for an unknown path
 * or epoch, 500 when the store fails.  An error's body is JSON:
 * {"error": "..."}.
 */
int vapi_get(struct vread *r, const char *path, const char *query,
	     struct vbuf *out, const char **type);

#endif
