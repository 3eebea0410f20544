#!/bin/bash
# The guest tests' user-space workloads, built into DIR (the guest's
# /files), each file written whole or not at all:
#
#   add           add.c, static, -g -O0: uprobe_* tests
#   depth         depth.c, static, -g -O0: calls nested deeper than slots
#   faults        faults.c, static: N page faults (perf_page_faults)
#   structs       structs.c, static: system calls passing structs with
#                 known contents (syscall_structs)
#   structs2      structs2.c, static: system calls passing sockaddrs,
#                 sigactions, siginfos, ... with known contents
#                 (syscall_structs2)
#   pagesleep     pagesleep.c, static: faults at a known place, sleeps,
#                 an exit code (procvm_tapsets)
#   threads       threads.c, static, -g -O0: process.thread.* and .syscall
#                 tests
#   net_load      net_load.c, static: exact loopback TCP/UDP traffic
#                 (tapset_ionet)
#   vitals_load   vitals_load.c, static, vitals_spin() at 0x800000: the
#                 vital signs' workload (vitals_* tests)
#   rules_leak, rules_starve, rules_send, rules_segv, rules_victim,
#   rules_exit, rules_stop, rules_badio, rules_goodio
#                 rules_load.c, static, one copy per name (the name picks
#                 the workload): the diagnosis rules' tests (rules_*)
#   getppid32, getppidx32   getppid32.c and getppidx32.c, static, no
#                 libc: 32-bit (ia32) and x32 system calls (sysd_compat)
#   compat32      compat32.c, static, no libc, i386, an SDT marker: process
#                 probes of a 32-bit program (compat32_*)
#   loop          tests/bench/guest/loop.c, static, as run.sh builds it
#                 for the guest: here for process("/files/loop") probes
#   addlib        addlib.c, dynamic, -g -O0, linked against
#   libstpadd.so  libstpadd.c, -g -O0: process().library() tests
#   allocs        allocs.c, dynamic, -g -O0, linked against
#   libstpsym.so  libstpsym.c, -O0, no -g and stripped (.dynsym only):
#                 uprobe_symtab_* and uprobe_buildid_* tests
#   sysprog       sysprog.c, static: system calls with known arguments
#                 (syscall_argstr)
#   sdt           sdt.c, static, -g -O0, with SDT markers (<sys/sdt.h>)
#                 and their semaphores: sdt_* tests
#   throws        throws.cc, C++, dynamic: it throws five exceptions
#   libstdc++.so.6, libm.so.6, libgcc_s.so.1   the host's, for throws
#                 (libstdc++'s own SDT markers: sdt_libstdcxx)
#   ld-linux-x86-64.so.2, libc.so.6   the host's, for addlib and allocs:
#                 the guest has no /lib, so they name
#                 /files/ld-linux-x86-64.so.2 as their interpreter and
#                 /files as their library path (libc6-dbg's DWARF is
#                 libc.so.6's too: the same build-id)
#
#   tests/guest/prog/build.sh DIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "${1:?usage: build.sh DIR}"
out=$(cd "$1" && pwd)
tmp=$(mktemp -d "$out/.build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# Built where the sources are, with the directory mapped to ".": DWARF
# names the files "add.c", wherever the tree is, and the same sources
# give the same programs.
cd "$here"
cc=(gcc -g -O0 -fdebug-prefix-map="$here"=.)
"${cc[@]}" -static -o "$tmp/add" add.c
"${cc[@]}" -static -o "$tmp/depth" depth.c
"${cc[@]}" -static -o "$tmp/faults" faults.c
"${cc[@]}" -static -o "$tmp/pagesleep" pagesleep.c
"${cc[@]}" -static -o "$tmp/structs" structs.c
"${cc[@]}" -static -o "$tmp/structs2" structs2.c
"${cc[@]}" -static -pthread -o "$tmp/threads" threads.c
"${cc[@]}" -static -Wl,--section-start=.vitals_spin=0x800000 -o "$tmp/vitals_load" vitals_load.c
"${cc[@]}" -static -o "$tmp/net_load" net_load.c
"${cc[@]}" -static -o "$tmp/rules_leak" rules_load.c
for n in starve send segv victim exit stop badio goodio; do cp "$tmp/rules_leak" "$tmp/rules_$n"; done
gcc -O2 -static -o "$tmp/loop" ../../bench/guest/loop.c
nolibc=(gcc -O1 -static -nostdlib -ffreestanding -fno-stack-protector)
"${nolibc[@]}" -m32 -fno-pic -o "$tmp/getppid32" getppid32.c
"${nolibc[@]}" -o "$tmp/getppidx32" getppidx32.c
# <sys/sdt.h> is in the x86-64 include directory, which -m32 skips
"${nolibc[@]}" -m32 -fno-pic -fno-omit-frame-pointer -idirafter /usr/include/x86_64-linux-gnu \
	-o "$tmp/compat32" compat32.c
"${cc[@]}" -shared -fPIC -Wl,--disable-new-dtags,-rpath,/files \
	-o "$tmp/libstpadd.so" libstpadd.c
"${cc[@]}" -o "$tmp/addlib" addlib.c -L"$tmp" -lstpadd \
	-Wl,--disable-new-dtags,-rpath,/files \
	-Wl,--dynamic-linker=/files/ld-linux-x86-64.so.2
gcc -O0 -shared -fPIC -o "$tmp/libstpsym.so" libstpsym.c
strip "$tmp/libstpsym.so"
"${cc[@]}" -o "$tmp/allocs" allocs.c -L"$tmp" -lstpsym \
	-Wl,--disable-new-dtags,-rpath,/files \
	-Wl,--dynamic-linker=/files/ld-linux-x86-64.so.2
"${cc[@]}" -static -o "$tmp/sdt" sdt.c
"${cc[@]}" -static -o "$tmp/sysprog" sysprog.c
g++ -g -O0 -fdebug-prefix-map="$here"=. -o "$tmp/throws" throws.cc \
	-Wl,--disable-new-dtags,-rpath,/files \
	-Wl,--dynamic-linker=/files/ld-linux-x86-64.so.2
cp -L "$(gcc -print-file-name=libc.so.6)" "$tmp/libc.so.6"
for lib in libstdc++.so.6 libm.so.6 libgcc_s.so.1; do
	cp -L "$(g++ -print-file-name=$lib)" "$tmp/$lib"
done
cp -L /lib64/ld-linux-x86-64.so.2 "$tmp/ld-linux-x86-64.so.2"
for f in add depth faults pagesleep structs structs2 threads vitals_load net_load rules_leak rules_starve rules_send rules_segv rules_victim rules_exit rules_stop rules_badio rules_goodio loop getppid32 getppidx32 compat32 addlib libstpadd.so allocs libstpsym.so libc.so.6 ld-linux-x86-64.so.2 \
	sdt sysprog throws libstdc++.so.6 libm.so.6 libgcc_s.so.1; do
	# an unchanged file is left alone (a run of tests beside may use it)
	cmp -s "$tmp/$f" "$out/$f" || mv -f "$tmp/$f" "$out/$f"
done
