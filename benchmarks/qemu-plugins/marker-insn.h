/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plugins' side of marker.h: which translated instruction is a marker.
 * Include after <qemu/qemu-plugin.h>.
 */
#ifndef MARKER_INSN_H
#define MARKER_INSN_H

#include <stdint.h>

#include "marker.h"

/* The magic of a marker (exactly 0f 1f 80 <magic, little endian>), else 0. */
static inline uint32_t marker_magic(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b = qemu_plugin_insn_data(insn);

	if (qemu_plugin_insn_size(insn) != 7 || b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return 0;
	return (uint32_t)b[3] | (uint32_t)b[4] << 8 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 24;
}

#endif
