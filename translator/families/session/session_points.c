// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows of begin, end, error and never (family.h).
 */
#include "session_family.h"

static const char *const begin_shapes[] = { "begin", NULL };
static const char *const end_shapes[] = { "end", NULL };
static const char *const error_shapes[] = { "error", NULL };
static const char *const never_shapes[] = { "never", NULL };
static const char *const begin_types[] = { "begin[(number)]", NULL };
static const char *const end_types[] = { "end[(number)]", NULL };
static const char *const error_types[] = { "error[(number)]", NULL };

const struct family_ops begin_family = {
	.name = "begin", .shapes = begin_shapes, .types = begin_types, .session = 1,
	.kmod_kind = "STP_PK_BEGIN",
	.kmod_entry = em_session_entry, .kmod_tables = em_begin_tables,
};

const struct family_ops end_family = {
	.name = "end", .shapes = end_shapes, .types = end_types, .session = 1,
	.kmod_kind = "STP_PK_END",
	.kmod_entry = em_session_entry, .kmod_tables = em_end_tables,
};

const struct family_ops error_family = {
	.name = "error", .shapes = error_shapes, .types = error_types, .session = 1,
	.kmod_kind = "STP_PK_ERROR",
	.kmod_entry = em_session_entry, .kmod_tables = em_error_tables,
};

const struct family_ops never_family = {
	.name = "never", .shapes = never_shapes, .types = never_shapes, .session = 1,
};
