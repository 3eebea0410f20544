// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A tracepoint event's record fields ($next_comm, $prev_pid of
 * sched_switch), as SystemTap's BPF runtime offers them beside the
 * prototype's arguments: the event's format file in tracefs names each
 * field with its offset, size and sign.  Only an event has a record (a
 * bare DECLARE_TRACE tracepoint has none), and only the running kernel's
 * tracefs says where its fields are: --runtime=bpf runs there.
 */
#include "btf.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int is_name_char(char c)
{
	return c == '_' || (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'z');
}

/* "\tfield:char next_comm[16];\toffset:40;\tsize:16;\tsigned:0;" into
 * name and f; 0 when the line is no field. */
static int field_line(const char *line, char *name, size_t cap, struct tp_field *f)
{
	const char *decl = strstr(line, "field:"), *semi, *p;
	size_t n;
	int off, size, sgn;

	if (!decl || !(semi = strchr(decl, ';')))
		return 0;
	if (!(p = strstr(semi, "offset:")) || sscanf(p, "offset:%d;", &off) != 1 ||
	    !(p = strstr(semi, "size:")) || sscanf(p, "size:%d;", &size) != 1 ||
	    !(p = strstr(semi, "signed:")) || sscanf(p, "signed:%d;", &sgn) != 1)
		return 0;
	/* the name: the last word of the declaration, before its [N] when
	 * it ends in one ("char next_comm[16]"; "__data_loc char[] name") */
	p = semi;
	if (p[-1] == ']') {
		while (p > decl && *p != '[')
			p--;
	}
	while (p > decl && p[-1] == ' ')
		p--;
	for (n = 0; p - n > decl && is_name_char(p[-1 - (long)n]); n++)
		;
	if (!n || n >= cap)
		return 0;
	memcpy(name, p - n, n);
	name[n] = '\0';
	f->offset = off;
	f->size = size;
	f->is_signed = sgn;
	f->is_array = semi[-1] == ']';
	/* its text elsewhere in the record: a u32, length << 16 | offset */
	p = strstr(decl, "__data_loc");
	f->is_data_loc = p && p < semi;
	return 1;
}

int tp_record_field(const struct tracepoint_info *tp, const char *field, struct tp_field *out)
{
	if (!tp->system)
		return 0;
	for (size_t i = 0; i < TRACEFS_EVENTS_DIRS; i++) {
		FILE *f = fopen(ar_printf("%s/%s/%s/format", tracefs_events_dirs[i], tp->system,
					  tp->name), "r");
		char line[512], name[128];
		int found = 0;

		if (!f)
			continue;
		while (!found && fgets(line, sizeof(line), f))
			found = field_line(line, name, sizeof(name), out) && !strcmp(name, field);
		fclose(f);
		return found;
	}
	return 0;
}
