// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A CO-RE relocation libbpf could not resolve, said in the script's
 * terms: the object was built against one kernel's types (translator/
 * btf/btf_core.c's ___stpc flavours) and the running kernel's struct
 * lacks a member the script reads.  libbpf's line names the local
 * flavour: "failed to resolve CO-RE relocation <byte_off> [38] struct
 * task_struct___stpc.tgid (0:1 @ offset 8)".
 */
#include "run.h"

#include <stdio.h>
#include <string.h>

int stp_u_core_error(const char *log)
{
	const char *p = log ? strstr(log, "failed to resolve CO-RE relocation") : NULL;
	const char *kind, *flavour, *path;

	if (!p)
		return 0;
	kind = strstr(p, "] ");
	flavour = kind ? strstr(kind, "___stpc.") : NULL;
	if (!flavour || memchr(kind, '\n', (size_t)(flavour - kind)))
		return 0;
	kind += 2;
	path = flavour + strlen("___stpc.");
	fprintf(stderr, "ERROR: this kernel's %.*s has no member '%.*s', which the script reads "
		"(its BPF object was built against another kernel's types)\n",
		(int)(flavour - kind), kind, (int)strcspn(path, " \n"), path);
	return 1;
}
