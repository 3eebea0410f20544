// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The table of probe families (family.h), made from list.h.
 */
#include "family.h"

static const struct family_ops *const families[PF_N] = {
#define FAMILY(ID, name) [PF_##ID] = &name##_family,
#include "list.h"
#undef FAMILY
};

const struct family_ops *family_row(int pf)
{
	return pf >= 0 && pf < PF_N ? families[pf] : NULL;
}
