// SPDX-License-Identifier: GPL-2.0-or-later
/* Stack traces and symbols: being written (issue 5). */
