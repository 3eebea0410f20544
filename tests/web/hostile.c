// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A store whose texts are HTML meant to break out of the page, for
 * tests/web/run.sh: the page shows them as text, served or in a report
 * (where they sit inside a <script>), and no script of theirs runs.
 *
 *   hostile DB
 */
#include <stdio.h>
#include <stdlib.h>

#include "../../store/store.h"

#define T0 1795478400000000000ULL	/* 2026-11-24T00:00:00Z */
#define EPOCH_NS 60000000000ULL

/* each sets document.title when it runs: the test reads the title */
#define END_SCRIPT "</script><script>document.title='pwned'</script>"
#define TAG "<img src=x onerror=\"document.title='pwned'\">"
#define COMMENT "<!--<script>"

static const struct vx_sample samples[] = {
	{ "cpuu", T0 + 1000000, 1, 1, "/tmp/" END_SCRIPT, 0, 7, TAG,
	  COMMENT, "x+0x1 [kernel]\n" END_SCRIPT " [prog]", 1 },
	{ "cpuu", T0 + 2000000, 2, 1, TAG, 0, 8, END_SCRIPT,
	  "</style><style>*{display:none}</style>", COMMENT " [kernel]", 1 },
};

int main(int argc, char **argv)
{
	struct vx_vital v[] = {
		{ "cpuu", 2, 2, 2, 2, 0, 2, 1, NULL, NULL, 0 },
		{ TAG, 1, 1, 1, 0, 0, 2, 1, NULL, NULL, 0 },
	};
	struct vx_epoch e[] = {
		{ T0, T0 + EPOCH_NS, END_SCRIPT, 2, v, 2, samples },
		{ T0 + EPOCH_NS, T0 + 2 * EPOCH_NS, TAG, 2, v, 0, NULL },
	};
	struct vstore *st;
	char *err;

	if (argc != 2) {
		fputs("usage: hostile DB\n", stderr);
		return 2;
	}
	st = vstore_open(argv[1], &err);
	for (int i = 0; st && i < 2; i++)
		if (vstore_put(st, &e[i], &err))
			st = NULL;
	if (!st) {
		fprintf(stderr, "hostile: %s\n", err);
		return 1;
	}
	vstore_close(st);
	return 0;
}
