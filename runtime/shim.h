/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one place where the runtime's data structures (maps, statistics,
 * printf formatting, output buffers) meet their environment: the kernel
 * when built into a module, libc when built on the host (-DSTP_HOST) for
 * unit tests, sanitizers and fuzzing.  Everything else in runtime/ that
 * is shared between the two includes only this.
 */
#ifndef STP_SHIM_H
#define STP_SHIM_H

#ifndef STP_HOST

#include <linux/types.h>
#include <linux/kernel.h>
#include <linux/string.h>
#include <linux/slab.h>
#include <linux/vmalloc.h>
#include <linux/smp.h>
#include <linux/sort.h>
#include <linux/uaccess.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/limits.h>

typedef atomic_long_t stp_atomic_t;
#define stp_atomic_inc(a)	atomic_long_inc(a)
#define stp_atomic_add(a, n)	atomic_long_add((n), (a))
#define stp_atomic_read(a)	atomic_long_read(a)
#define stp_atomic_set(a, n)	atomic_long_set((a), (n))
#define stp_atomic_add_return(a, n) atomic_long_add_return((n), (a))
/* The value *a held before: new was stored iff it equals old. */
#define stp_atomic_cmpxchg(a, old, new) atomic_long_cmpxchg((a), (old), (new))
/* Earlier stores are visible before the decrement is. */
#define stp_atomic_dec_release(a) atomic_long_dec_return_release(a)
#define stp_cmpxchg_u32(p, old, new) cmpxchg((p), (old), (new))
#define stp_read_u32(p)		READ_ONCE(*(p))
#define stp_smp_mb()		smp_mb()
#define stp_cpu_relax()		cpu_relax()

static inline void *stp_zalloc(size_t n) { return kvzalloc(n, GFP_KERNEL); }
static inline void stp_free(void *p) { kvfree(p); }
#define stp_ncpus()	((int)nr_cpu_ids)
#define stp_this_cpu()	((int)smp_processor_id())
#define stp_sort(base, n, size, cmp) sort((base), (n), (size), (cmp), NULL)
#define STP_LIKELY(x)	likely(x)
#define STP_UNLIKELY(x)	unlikely(x)
#define STP_ALWAYS_INLINE __always_inline

/* 0, or -EFAULT when any byte of [src, src+n) cannot be read. */
static inline int stp_read_kernel(void *dst, const void *src, size_t n)
{
	return copy_from_kernel_nofault(dst, src, n) ? -EFAULT : 0;
}

#else /* STP_HOST */

#include <stdint.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <limits.h>
#include <stdatomic.h>
#include <sched.h>

typedef int64_t s64;
typedef uint64_t u64;
typedef int32_t s32;
typedef uint32_t u32;
typedef uint16_t u16;
typedef uint8_t u8;
typedef _Atomic long stp_atomic_t;
#define stp_atomic_inc(a)	atomic_fetch_add((a), 1)
#define stp_atomic_add(a, n)	atomic_fetch_add((a), (n))
#define stp_atomic_read(a)	atomic_load(a)
#define stp_atomic_set(a, n)	atomic_store((a), (n))
#define stp_atomic_add_return(a, n) (atomic_fetch_add((a), (n)) + (n))
#define stp_atomic_dec_release(a) \
	atomic_fetch_sub_explicit((a), 1, memory_order_release)
#define stp_read_u32(p)		__atomic_load_n((p), __ATOMIC_RELAXED)
#define stp_smp_mb()		atomic_thread_fence(memory_order_seq_cst)
/* Host threads share few cores: a spinning waiter lets the others run. */
#define stp_cpu_relax()		sched_yield()

static inline long stp_atomic_cmpxchg(stp_atomic_t *a, long old, long new)
{
	atomic_compare_exchange_strong(a, &old, new);
	return old;
}

static inline u32 stp_cmpxchg_u32(u32 *p, u32 old, u32 new)
{
	__atomic_compare_exchange_n(p, &old, new, 0, __ATOMIC_SEQ_CST,
				    __ATOMIC_RELAXED);
	return old;
}

static inline void *stp_zalloc(size_t n) { return calloc(1, n ? n : 1); }
static inline void stp_free(void *p) { free(p); }
/* Host tests pretend to run on stp_host_cpu of stp_host_ncpus CPUs. */
extern int stp_host_cpu, stp_host_ncpus;
#define stp_ncpus()	(stp_host_ncpus)
#define stp_this_cpu()	(stp_host_cpu)
#define stp_sort(base, n, size, cmp) qsort((base), (n), (size), (cmp))
#define STP_LIKELY(x)	__builtin_expect(!!(x), 1)
#define STP_UNLIKELY(x)	__builtin_expect(!!(x), 0)
#define STP_ALWAYS_INLINE inline __attribute__((always_inline))
#ifndef EFAULT
#define EFAULT 14
#endif
#define notrace		/* the kernel's: no ftrace hook in this function */

/* Host builds read memory through a hook, so tests can make reads fail. */
extern int (*stp_host_read_hook)(void *dst, const void *src, size_t n);
static inline int stp_read_kernel(void *dst, const void *src, size_t n)
{
	if (stp_host_read_hook)
		return stp_host_read_hook(dst, src, n);
	memcpy(dst, src, n);
	return 0;
}

#endif /* STP_HOST */

/*
 * Limits a script can set with -D NAME=N.  The allocation sizes among
 * them are variables, so that stprun -D can raise them at load time.
 */
#ifndef MAXSTRINGLEN
#define MAXSTRINGLEN 512
#endif
#ifndef MAXACTION
#define MAXACTION 1000
#endif
#ifndef MAXNESTING
#define MAXNESTING 10
#endif
#ifndef MAXERRORS
#define MAXERRORS 0
#endif
#ifndef MAXSKIPPED
#define MAXSKIPPED 100
#endif
#ifndef MAXTRYLOCK
#define MAXTRYLOCK 1000
#endif
#ifndef MAXMAPENTRIES
#define MAXMAPENTRIES 2048
#endif
#ifndef STP_BUFFER_SIZE
#define STP_BUFFER_SIZE 8192	/* per-CPU print buffer, bytes */
#endif

#include "counters.h"

#endif
