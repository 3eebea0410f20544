/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef STP_VERSION_H
#define STP_VERSION_H

#define STP_VERSION "0.1"
/* The SystemTap language level we follow: systemtap_v's default. */
#define STP_LANGUAGE_VERSION "4.8"

#endif
