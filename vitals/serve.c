// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * stp-vitals serve DB [--listen ADDR:PORT] [--web DIR]: the web page and
 * its API over HTTP (doc/web.md, "Serving the vital signs").  Debian's
 * libmicrohttpd answers each request in turn in the command's own thread
 * (no thread of its own), so the store's one connection is never shared
 * between threads, and the page's first view is warmed between requests.
 * The raw request target is kept from the URI callback, because
 * libmicrohttpd decodes the path before the handler sees it, and the
 * checks here must see "%2e%2e" as what it was sent as.
 */
#include <netdb.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "cmd.h"
#include "serve_int.h"

#define WARM_WHILE_VIEWED 600	/* s after a page's last /api/meta */

struct server {
	struct vread *r;
	char *web;		/* the web directory's real path, or NULL */
	struct vcache *cache;
	time_t viewed;		/* a page's last /api/meta (monotonic s) */
	int64_t warmed;		/* the newest epoch's end when warmed */
};

static volatile sig_atomic_t stopping;

static void on_signal(int sig)
{
	(void)sig;
	stopping = 1;
}

static time_t now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec;
}

static void *keep_uri(void *cls, const char *uri, struct MHD_Connection *con)
{
	(void)cls;
	(void)con;
	return strdup(uri);
}

static void done(void *cls, struct MHD_Connection *con, void **con_cls,
		 enum MHD_RequestTerminationCode why)
{
	(void)cls;
	(void)con;
	(void)why;
	free(*con_cls);
	*con_cls = NULL;
}

static enum MHD_Result reply(struct MHD_Connection *con, int status,
			    struct MHD_Response *resp, const char *type)
{
	enum MHD_Result rc;

	if (!resp)
		return MHD_NO;
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, type);
	MHD_add_response_header(resp, "X-Content-Type-Options", "nosniff");
	MHD_add_response_header(resp, MHD_HTTP_HEADER_CACHE_CONTROL,
				"no-cache");
	if (status == 405)
		MHD_add_response_header(resp, MHD_HTTP_HEADER_ALLOW,
					"GET, HEAD");
	rc = MHD_queue_response(con, (unsigned)status, resp);
	MHD_destroy_response(resp);
	return rc;
}

static enum MHD_Result send_buf(struct MHD_Connection *con, int status,
				struct vbuf *b, const char *type)
{
	struct MHD_Response *resp;

	resp = MHD_create_response_from_buffer(b->len, b->p ? b->p : (char *)"",
					       b->p ? MHD_RESPMEM_MUST_FREE :
					       MHD_RESPMEM_PERSISTENT);
	b->p = NULL;
	return reply(con, status, resp, type);
}

/* {"error": why}; each why is one of this file's texts, nothing to escape. */
static enum MHD_Result send_error(struct MHD_Connection *con, int status,
				  const char *why)
{
	char body[512];
	struct vbuf b = { 0 };
	size_t n;

	n = (size_t)snprintf(body, sizeof(body), "{\"error\":\"%s\"}\n", why);
	b.p = strndup(body, n < sizeof(body) ? n : sizeof(body) - 1);
	b.len = b.p ? strlen(b.p) : 0;
	return send_buf(con, status, &b, "application/json");
}

static enum MHD_Result send_api(struct server *s, struct MHD_Connection *con,
				const char *path, const char *key,
				const char *query)
{
	const struct vbuf *kept;
	struct vbuf out = { 0 };
	const char *type;
	int status;

	kept = vcache_get(s->cache, s->r, key, &status, &type);
	if (kept)
		return reply(con, status,
			    MHD_create_response_from_buffer(kept->len, kept->p,
							    MHD_RESPMEM_MUST_COPY),
			    type);
	status = vapi_get(s->r, path, query, &out, &type);
	vcache_put(s->cache, key, status, type, &out);
	return send_buf(con, status, &out, type);
}

static enum MHD_Result send_file(struct server *s, struct MHD_Connection *con,
				 const char *path)
{
	struct MHD_Response *resp;
	struct vweb_file f;

	if (!s->web)
		return send_error(con, 404, "no web page: its directory was not found");
	if (vweb_open(s->web, path, &f) != 200)
		return send_error(con, 404, "no such file");
	resp = MHD_create_response_from_fd64(f.size, f.fd);	/* owns fd */
	if (!resp)
		close(f.fd);
	return reply(con, 200, resp, f.type);
}

static enum MHD_Result answer(void *cls, struct MHD_Connection *con,
			      const char *url, const char *method,
			      const char *version, const char *upload,
			      size_t *upload_size, void **con_cls)
{
	struct server *s = cls;
	const char *raw = *con_cls ? *con_cls : url, *q, *why;
	enum MHD_Result rc;
	char *path;

	(void)version;
	(void)upload;
	(void)upload_size;
	if (strcmp(method, "GET") && strcmp(method, "HEAD"))
		return send_error(con, 405, "only GET and HEAD are answered");
	if (strlen(raw) > VSERVE_MAX_URL)
		return send_error(con, 414, "the URL is longer than 4096 bytes");
	q = strchrnul(raw, '?');
	if (vweb_path(raw, (size_t)(q - raw), &path, &why))
		return send_error(con, 400, why);
	if (!strcmp(path, "/api/meta"))
		s->viewed = now_s();
	if (!strncmp(path, "/api/", 5) || !strcmp(path, "/metrics"))
		rc = send_api(s, con, path, raw, *q ? q + 1 : NULL);
	else
		rc = send_file(s, con, path);
	free(path);
	return rc;
}

struct opts {
	const char *db, *listen, *web;
};

static int serve_args(const struct vcmd *c, int argc, char **argv,
		      struct opts *o)
{
	const char *v;

	for (int i = 1; i < argc; i++) {
		if ((v = vcmd_value(argc, argv, &i, "--listen")))
			o->listen = v;
		else if ((v = vcmd_value(argc, argv, &i, "--web")))
			o->web = v;
		else if (!strcmp(argv[i], "--listen") || !strcmp(argv[i], "--web"))
			return vcmd_usage(c, "%s needs a value", argv[i]);
		else if (argv[i][0] == '-' && argv[i][1])
			return vcmd_usage(c, "unknown option '%s'", argv[i]);
		else if (o->db)
			return vcmd_usage(c, "one store, not '%s' too", argv[i]);
		else
			o->db = argv[i];
	}
	return o->db ? 0 : vcmd_usage(c, "no store given");
}

/* ADDR:PORT or [ADDR6]:PORT into *ai (getaddrinfo's); 0 or the usage error. */
static int parse_listen(const struct vcmd *c, const char *s,
			struct addrinfo **ai)
{
	struct addrinfo hints = { .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_NUMERICSERV | AI_PASSIVE };
	const char *colon = strrchr(s, ':');
	char host[256];
	size_t n;

	if (!colon || !colon[1] || colon == s)
		return vcmd_usage(c, "--listen: '%s' is not ADDR:PORT", s);
	n = (size_t)(colon - s);
	if (s[0] == '[' && colon[-1] == ']') {
		s++;
		n -= 2;
	}
	if (n >= sizeof(host))
		return vcmd_usage(c, "--listen: the address is too long");
	memcpy(host, s, n);
	host[n] = 0;
	if (strspn(colon + 1, "0123456789") != strlen(colon + 1) ||
	    strlen(colon + 1) > 5 || atoi(colon + 1) > 65535)
		return vcmd_usage(c, "--listen: '%s' is not a port", colon + 1);
	if (getaddrinfo(host, colon + 1, &hints, ai))
		return vcmd_usage(c, "--listen: no such address '%s'", host);
	return 0;
}

static struct MHD_Daemon *start(struct server *s, const struct addrinfo *ai)
{
	unsigned flags = MHD_USE_AUTO | MHD_USE_ERROR_LOG;

	if (ai->ai_family == AF_INET6)
		flags |= MHD_USE_IPv6;
	return MHD_start_daemon(flags, 0, NULL, NULL, answer, s,
				MHD_OPTION_SOCK_ADDR, ai->ai_addr,
				MHD_OPTION_URI_LOG_CALLBACK, keep_uri, NULL,
				MHD_OPTION_NOTIFY_COMPLETED, done, NULL,
				MHD_OPTION_CONNECTION_LIMIT, 64u,
				MHD_OPTION_PER_IP_CONNECTION_LIMIT, 32u,
				MHD_OPTION_CONNECTION_TIMEOUT, 10u,
				MHD_OPTION_END);
}

static void announce(struct MHD_Daemon *d, const struct opts *o,
		     const struct addrinfo *ai)
{
	const union MHD_DaemonInfo *info;
	char host[NI_MAXHOST];

	info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
	if (getnameinfo(ai->ai_addr, ai->ai_addrlen, host, sizeof(host), NULL,
			0, NI_NUMERICHOST))
		strcpy(host, "?");
	printf("stp-vitals: serving %s on http://%s%s%s:%u/\n", o->db,
	       ai->ai_family == AF_INET6 ? "[" : "", host,
	       ai->ai_family == AF_INET6 ? "]" : "",
	       info ? info->port : 0);
	fflush(stdout);
}

/*
 * Answer requests until SIGINT or SIGTERM, in this thread, and between
 * them warm the page's first view: once before saying where it serves,
 * then for each new epoch while a page has been open in the last
 * WARM_WHILE_VIEWED s.
 */
static int run(struct server *s, const struct opts *o,
	       const struct addrinfo *ai)
{
	struct sigaction sa = { .sa_handler = on_signal };
	struct MHD_Daemon *d;

	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	d = start(s, ai);
	if (!d)
		return vcmd_fail("serve: cannot listen on %s", o->listen);
	vwarm_first_view(s->cache, s->r, &s->warmed);
	announce(d, o, ai);	/* listening already: early requests wait */
	while (!stopping) {
		MHD_run_wait(d, 500);
		if (s->viewed && now_s() - s->viewed < WARM_WHILE_VIEWED)
			vwarm_first_view(s->cache, s->r, &s->warmed);
	}
	MHD_stop_daemon(d);
	return 0;
}

int vcmd_serve(const struct vcmd *c, int argc, char **argv)
{
	struct opts o = { .listen = "127.0.0.1:8463" };
	struct server s = { 0 };
	struct addrinfo *ai = NULL;
	const char *tried;
	int rc = serve_args(c, argc, argv, &o);

	if (!rc)
		rc = parse_listen(c, o.listen, &ai);
	if (rc)
		return rc;
	s.r = vcmd_open(o.db);
	if (!s.r) {
		freeaddrinfo(ai);
		return 1;
	}
	s.web = vweb_dir(o.web, &tried);
	if (!s.web)
		fprintf(stderr, "stp-vitals: serve: no web page at %s (the API "
			"still answers)\n", tried);
	s.cache = vcache_new();
	rc = s.cache ? run(&s, &o, ai) : vcmd_fail("out of memory");
	vcache_free(s.cache);
	free(s.web);
	vread_close(s.r);
	freeaddrinfo(ai);
	return rc;
}
