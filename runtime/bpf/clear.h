/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * delete of a whole array or statistic in a kernel probe (kern.h
 * includes this): a hash map's entries deleted from a
 * bpf_for_each_map_elem callback (Linux 5.13), which may delete the
 * element it is given; a scalar statistic's per-CPU shares zeroed, one
 * CPU after another (bpf_map_lookup_percpu_elem: Linux 6.0).
 */
#ifndef STP_BPF_CLEAR_H
#define STP_BPF_CLEAR_H

static long stp_clear_cb(void *map, const void *key, void *val, void *ctx)
{
	(void)val;
	(void)ctx;
	bpf_map_delete_elem(map, key);
	return 0;
}

/* m: a hash map (an array, a statistic with keys) */
#define stp_clear(m) ((void)bpf_for_each_map_elem((m), stp_clear_cb, 0, 0))

#ifndef STP_MAXCPUS
#define STP_MAXCPUS 256
#endif

/* m: a scalar statistic's per-CPU array of size-byte values */
STP_INLINE void stp_clear_percpu(stp_map_t m, unsigned size)
{
	u32 zero = 0;

	for (u32 i = 0; i < STP_MAXCPUS && i < stp_g.stp_ncpus; i++) {
		void *v = bpf_map_lookup_percpu_elem(m, &zero, i);

		if (v)
			bpf_probe_read_kernel(v, size, &stp_hzero);
	}
}

#endif
