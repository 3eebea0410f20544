// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The rows of timer.* and timer.profile (family.h).
 */
#include "timer_family.h"

static const char *const timer_shapes[] = {
	"timer.ms", "timer.s", "timer.us", "timer.ns", "timer.jiffies", "timer.hz", NULL,
};
static const char *const profile_shapes[] = { "timer.profile", NULL };
static const char *const timer_types[] = {
	"timer.{ms|msec|s|sec|us|usec|ns|nsec|jiffies}(number)[.randomize(number)]",
	"timer.hz(number)", NULL,
};
static const char *const profile_types[] = { "timer.profile[.tick]", NULL };

const struct family_ops timer_family = {
	.name = "timer", .shapes = timer_shapes, .types = timer_types,
	.kmod_entry = em_timer_entry, .kmod_tables = em_timer_tables,
	.bpf_section = bx_timer_section, .bpf_ctx = BX_CTX_VOID,
};

const struct family_ops profile_family = {
	.name = "timer.profile", .shapes = profile_shapes, .types = profile_types,
	.kmod_entry = em_timer_entry,
	.bpf_section = bx_profile_section, .bpf_ctx = BX_CTX_VOID,
};
