// SPDX-License-Identifier: GPL-2.0-or-later
/* kprobes and kretprobes: being written (issue 5). */
