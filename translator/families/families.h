/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * translator/families/: the probe families, what pass 2 matches and
 * which variables each point has (pass 3's code for each is in
 * ../kmod/emit_FAMILY.c and ../bpf/).  A family's matcher is a row of
 * the table in ../elab/probes.c.
 *
 *   tracepoints.c   kernel.trace("[SYSTEM:]NAME"), via BTF (../btf/)
 *   process.c       process.begin/.end/.thread.*, .syscall (process.h)
 *   uprobes.c       process(...).function/.statement/.library (uprobes.h)
 *   uprobe_syms.c   a program's functions by its ELF symbol table
 *   plt.c           process(...).plt: PLT stubs (plt.h)
 *   sdt.c           process(...).mark: SDT markers (sdt.h)
 *   sdt_var.c       a marker's $argN, $$name, $$parms
 *   python.c        python3.module(...).function(...): aliases over
 *                   CPython's markers (python.h)
 *   perf.c          perf.*: perf events (perf.h)
 *   procfs.c        procfs("PATH").read/.write (procfs.h)
 *   netfilter.c     netfilter.hook(...).pf(...) (netfilter.h)
 *   netfilter_var.c a netfilter hook's variables
 *   hwbkpt.c        kernel.data(...): hardware breakpoints (hwbkpt.h)
 *   sysdispatch.c   kernel.syscall(NR)[.return] (sysdispatch.h)
 *
 * kernel.function, module().function and kprobe.* are DWARF's and the
 * kernel symbols' (../dwarf/, ../symbols/ksyms.c); timers, begin, end
 * and never are matched in ../elab/probes.c itself.
 */
#ifndef STP_FAMILIES_H
#define STP_FAMILIES_H
#endif
