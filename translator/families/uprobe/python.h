/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * SystemTap's Python probe points,
 * python2/python3.module("MODULE").function("PATTERN")[.call|.return].
 */
#ifndef STP_PYTHON_H
#define STP_PYTHON_H

#include "../../elab/elab.h"

/* The library of aliases the user's Python points need (one each, named
 * as the point is), as a script's text; NULL when it has none. */
const char *python_aliases(const struct script *user);

#endif
