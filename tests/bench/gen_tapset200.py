#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Write the pass-2 benchmark's inputs: a tapset directory of 200 .stp files
(DIR/tapset/bx_000.stp ... bx_199.stp) and a script (DIR/script20.stp) that
uses 20 probe aliases and 20 functions from it.

Each tapset file (60-150 lines) is shaped like a SystemTap tapset: doc
comments, globals (public, private, initialised), helper functions with
same-arity overloads that fall through with `next`, other-arity overloads,
one embedded-C function, a function calling into another file, a `probe
begin` that fills a private table, and probe aliases over kprobe.function()
of real kernel functions: entry, .return, optional (`?`) lists, aliases of
aliases (two levels), an epilogue alias (`+=`), and `%( kernel_v %)` /
`%( arch %)` alternatives.  Every name has a `bx_` prefix, which no
SystemTap tapset uses.

The kernel functions are all in Debian 6.1's System.map, outside the kprobe
blacklist, and accepted by both stp -p2 and stap -p2 (checked when this
list was made; tests/bench/pass2.sh checks the generated files against the
System.map again before timing).

Deterministic: no randomness, no clock, no environment; the same bytes every
run.  Usage: gen_tapset200.py OUTDIR
"""
import os
import sys

NFILES = 200
NUSED = 20

KFUNCS = """
ksys_read ksys_write ksys_pread64 ksys_pwrite64 ksys_lseek ksys_fallocate
ksys_sync ksys_fadvise64_64 ksys_readahead ksys_dup3 ksys_mmap_pgoff
ksys_unshare ksys_ioperm ksys_msgget ksys_semget ksys_shmget ksys_shmdt
ksys_msgsnd ksys_msgrcv ksys_semtimedop ksys_sync_file_range ksys_fchown
vfs_read vfs_write vfs_readv vfs_writev vfs_iter_read vfs_iter_write
vfs_llseek vfs_fsync vfs_fsync_range vfs_open vfs_getattr vfs_statx
vfs_fstat vfs_create vfs_mkdir vfs_rmdir vfs_unlink vfs_rename vfs_link
vfs_symlink vfs_readlink vfs_truncate vfs_fallocate vfs_copy_file_range
vfs_setxattr vfs_getxattr vfs_listxattr vfs_removexattr vfs_mknod
vfs_fadvise vfs_dedupe_file_range vfs_clone_file_range vfs_utimes vfs_ioctl
vfs_lock_file vfs_test_lock vfs_cancel_lock vfs_kern_mount vfs_get_tree
vfs_statfs vfs_fchmod vfs_fchown vfs_dup_fs_context vfs_get_link
vfs_tmpfile do_sys_openat2 do_sys_open do_filp_open filp_close filp_open
do_sys_poll do_epoll_wait do_select do_nanosleep do_exit do_group_exit
kernel_clone do_mmap do_munmap vm_mmap_pgoff vm_munmap do_madvise
do_mprotect_pkey do_truncate do_fchownat do_fchmodat do_faccessat
do_readlinkat do_renameat2 do_unlinkat do_rmdir do_mkdirat do_symlinkat
do_linkat do_mknodat do_dentry_open do_splice do_sendfile do_signal_stop
do_send_sig_info do_sigaction do_wait do_utimes do_statfs_native do_pipe2
do_epoll_ctl do_epoll_create do_eventfd do_timerfd_settime do_futex
do_setitimer do_getitimer do_sched_setscheduler do_prlimit do_syslog
do_mount path_mount
tcp_sendmsg tcp_recvmsg tcp_v4_connect tcp_close tcp_rcv_established
tcp_v4_rcv tcp_retransmit_skb tcp_write_xmit tcp_ack tcp_set_state tcp_fin
tcp_shutdown tcp_poll tcp_ioctl udp_sendmsg udp_recvmsg udp_rcv
sock_sendmsg sock_recvmsg sock_create sock_close sock_alloc inet_bind
inet_listen inet_accept inet_release inet_sendmsg inet_recvmsg ip_output
ip_rcv ip_local_out ip_queue_xmit wake_up_new_task try_to_wake_up
wake_up_process down_read down_write up_read up_write kmem_cache_alloc
kmem_cache_free __alloc_pages __free_pages filemap_read filemap_fault
generic_file_write_iter generic_perform_write security_file_open
security_file_permission send_signal_locked get_signal futex_wait futex_wake
submit_bio blk_mq_submit_bio handle_mm_fault
""".split()

SYSCALLS = """
read write openat close fstat newfstat lseek mmap munmap brk ioctl pread64
pwrite64 readv writev access pipe select sched_yield mremap msync mincore
madvise dup dup2 nanosleep getpid sendfile64 socket connect accept sendto
recvfrom sendmsg recvmsg shutdown bind listen clone fork vfork execve exit
wait4 kill uname fcntl flock fsync fdatasync truncate ftruncate getdents64
getcwd chdir rename mkdir rmdir unlink readlink chmod chown umask epoll_wait
epoll_ctl futex poll ppoll pselect6 statx newstat newlstat faccessat
getrandom memfd_create copy_file_range clock_gettime clock_nanosleep
rt_sigaction rt_sigprocmask
""".split()

TOPICS = ["file I/O", "sockets", "memory mapping", "process lifetime",
          "scheduler wake-ups", "page cache", "block requests", "signals",
          "polling", "extended attributes", "locks", "timers"]

OPS = ["open", "read", "write", "sync", "seek", "map", "unmap", "wait",
       "wake", "send", "recv", "poll", "lock", "unlock", "stat", "flush"]

# The aliases each file defines, in the order the script uses them.
ALIAS_KINDS = ["entry", "entry.return", "alt", "any", "all", "modern",
               "sys", "counted"]
# The functions (name, arity) each file offers the script.
FUNC_KINDS = [("name", 1), ("fmt", 1), ("fmt", 2), ("ratio", 2),
              ("label", 1), ("mask", 1), ("note", 2)]


def kf(i, j):
    """The j-th kernel function of file i."""
    return KFUNCS[(i * 7 + j * 31) % len(KFUNCS)]


def sysc(i, j):
    return SYSCALLS[(i * 5 + j * 13) % len(SYSCALLS)]


def peer(i):
    """The file whose name function file i's label function calls."""
    return (i * 37 + 11) % NFILES


def tapset_file(i):
    p = "bx_%03d" % i
    topic = TOPICS[i % len(TOPICS)]
    f = [kf(i, j) for j in range(6)]
    nnames = 4 + i % 9          # cases in the name function: file length varies
    nextra = i % 3              # extra helper functions
    L = []
    w = L.append
    w("// SPDX-License-Identifier: GPL-2.0-or-later")
    w("// %s: %s probes and helpers." % (p, topic))
    w("// Generated by tests/bench/gen_tapset200.py for the pass-2 benchmark.")
    w("")
    w("global %s_calls, %s_bytes" % (p, p))
    w("global %s_hits = 0" % p)
    w("private %s_limit = %d" % (p, 32 + i))
    w("private %s_ops" % p)
    w("")
    w("probe begin")
    w("{")
    for k in range(3):
        w('\t%s_ops[%d] = "%s"' % (p, k, OPS[(i + k) % len(OPS)]))
    w("}")
    w("")
    w("function %s_name:string (nr:long)" % p)
    w("{")
    for k in range(nnames):
        w('\tif (nr == %d) return "%s"' % (k, OPS[(i + k) % len(OPS)]))
    w("\tif (nr in %s_ops)" % p)
    w("\t\treturn %s_ops[nr]" % p)
    w('\treturn sprintf("op%d", nr)')
    w("}")
    w("")
    w("function %s_fmt:string (v:long)" % p)
    w("{")
    w("\tif (v < 0 || v > %s_limit)" % p)
    w("\t\tnext")
    w('\treturn sprintf("%%d/%%d", v, %s_limit)' % p)
    w("}")
    w("")
    w("function %s_fmt:string (v:long)" % p)
    w("{")
    w('\treturn sprintf("%d", v)')
    w("}")
    w("")
    w("function %s_fmt:string (v:long, unit:string)" % p)
    w("{")
    w("\tif (v >= 1024)")
    w('\t\treturn sprintf("%d Ki%s", v / 1024, unit)')
    w('\treturn sprintf("%d %s", v, unit)')
    w("}")
    w("")
    w("function %s_ratio:long (part:long, whole:long)" % p)
    w("{")
    w("\treturn whole ? part * 100 / whole : 0")
    w("}")
    w("")
    w("function %s_label:string (nr:long)" % p)
    w("{")
    w('\treturn sprintf("%%s:%%s", bx_%03d_name(nr), %s_name(nr))' % (peer(i), p))
    w("}")
    w("")
    w("function %s_mask:long (v:long)" % p)
    w("%{ /* pure */")
    w("\tSTAP_RETVALUE = STAP_ARG_v & 0x%x;" % (0xff + i))
    w("%}")
    w("")
    w("function %s_note (what:string, n:long)" % p)
    w("{")
    w("\t%s_calls[what] <<< n" % p)
    w("\t%s_bytes += n" % p)
    w("}")
    for k in range(nextra):
        w("")
        w("function %s_extra%d:long (a:long, b:long)" % (p, k))
        w("{")
        w("\tif (a > b)")
        w("\t\treturn a - b + %d" % k)
        w("\treturn b - a")
        w("}")
    w("")
    w("/**")
    w(" * probe %s.entry - %s() is called" % (p, f[0]))
    w(" * @name: the function's name")
    w(" * @op: operation code")
    w(" */")
    w("probe %s.entry = kprobe.function(\"%s\")" % (p, f[0]))
    w("{")
    w('\tname = "%s"' % f[0])
    w("\top = %d" % (i % nnames))
    w('\targstr = sprintf("op=%s", %s_name(op))' % ("%s", p))
    w("}")
    w("")
    w("probe %s.entry.return = kprobe.function(\"%s\").return" % (p, f[0]))
    w("{")
    w('\tname = "%s"' % f[0])
    w('\tretstr = "returned"')
    w("}")
    w("")
    w("probe %s.alt = kprobe.function(\"%s\") ?, kprobe.function(\"%s\") ?"
      % (p, f[1], f[2]))
    w("{")
    w('\tname = "%s"' % topic.split()[0])
    w("\top = %d" % ((i + 1) % nnames))
    w("}")
    w("")
    w('probe %s.any = %s.entry, %s.alt { kind = "any" }' % (p, p, p))
    w("")
    w("probe %s.all = %s.any, %s.entry.return { %s_hits++ }" % (p, p, p, p))
    w("")
    w('%( kernel_v >= "5.0" %?')
    w("probe %s.modern = kprobe.function(\"%s\")" % (p, f[3]))
    w("{")
    w('\tname = "%s"' % f[3])
    w("\tgen = 5")
    w("}")
    w("%:")
    w('probe %s.modern = kprobe.function("%s") { name = "%s"; gen = 4 }'
      % (p, f[4], f[4]))
    w("%)")
    w("")
    w('%( arch == "x86_64" %?')
    w("probe %s.sys = kprobe.function(\"__x64_sys_%s\")" % (p, sysc(i, 0)))
    w("%:")
    w("probe %s.sys = kprobe.function(\"sys_%s\")" % (p, sysc(i, 0)))
    w("%)")
    w("{")
    w('\tname = "%s"' % sysc(i, 0))
    w("\tnr = %d" % (i % 64))
    w("}")
    w("")
    w("probe %s.counted += kprobe.function(\"%s\")" % (p, f[5]))
    w("{")
    w("\t%s_note(\"%s\", 1)" % (p, f[5]))
    w("}")
    return "\n".join(L) + "\n"


def script():
    L = []
    w = L.append
    w("#! /usr/bin/env stap")
    w("# Pass-2 benchmark script: 20 probe aliases and 20 functions from the")
    w("# generated bx_* tapset directory (tests/bench/gen_tapset200.py).")
    w("")
    w("global events, sizes, last_label, per_op")
    w("global total = 0")
    w("")
    for k in range(NUSED):
        a = (k * 10 + 3) % NFILES           # the file giving the alias
        b = (k * 10 + 8) % NFILES           # the file giving the function
        kind = ALIAS_KINDS[k % len(ALIAS_KINDS)]
        fname, arity = FUNC_KINDS[k % len(FUNC_KINDS)]
        fn = "bx_%03d_%s" % (b, fname)
        # An epilogue alias's block runs after the handler: no name yet.
        name = '"counted"' if kind == "counted" else "name"
        if fname == "fmt" and arity == 2:
            call = '%s(total, "B")' % fn
        elif fname == "ratio":
            call = "%s(@count(events[%s]), total)" % (fn, name)
        elif fname == "note":
            call = None
        else:
            call = "%s(%d)" % (fn, k)
        w("probe bx_%03d.%s" % (a, kind))
        w("{")
        w("\ttotal++")
        w("\tevents[%s] <<< 1" % name)
        w("\tsizes[%s, %d] <<< %d" % (name, k, 64 << (k % 6)))
        if call is None:
            w("\t%s(%s, %d)" % (fn, name, k + 1))
        elif fname in ("name", "fmt", "label"):
            w("\tlast_label[%s] = %s" % (name, call))
        else:
            w("\tper_op[%d] <<< %s" % (k, call))
        if k % 3 == 0:
            w('\tprintf("%%s %%d\\n", %s, @count(events[%s]))' % (name, name))
        w("}")
        w("")
    w("probe timer.s(5)")
    w("{")
    w("\tforeach (n in events- limit 5)")
    w('\t\tprintf("%-24s %8d\\n", n, @count(events[n]))')
    w("}")
    w("")
    w("probe end")
    w("{")
    w('\tprintf("%d events\\n", total)')
    w("\tforeach ([n, k] in sizes)")
    w('\t\tprintf("%-24s %2d %8d %8d %8d\\n", n, k, @count(sizes[n, k]),')
    w("\t\t       @sum(sizes[n, k]), @avg(sizes[n, k]))")
    w("\tforeach (n in last_label)")
    w('\t\tprintf("%-24s %s\\n", n, last_label[n])')
    w("\tforeach (k in per_op+) {")
    w('\t\tprintf("op %d: min %d max %d\\n", k, @min(per_op[k]), @max(per_op[k]))')
    w("\t\tprint(@hist_log(per_op[k]))")
    w("\t}")
    w("}")
    return "\n".join(L) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_tapset200.py OUTDIR")
    out = sys.argv[1]
    tdir = os.path.join(out, "tapset")
    os.makedirs(tdir, exist_ok=True)
    for name in os.listdir(tdir):
        if name.endswith(".stp"):
            os.unlink(os.path.join(tdir, name))
    for i in range(NFILES):
        with open(os.path.join(tdir, "bx_%03d.stp" % i), "w") as fh:
            fh.write(tapset_file(i))
    with open(os.path.join(out, "script20.stp"), "w") as fh:
        fh.write(script())


if __name__ == "__main__":
    main()
