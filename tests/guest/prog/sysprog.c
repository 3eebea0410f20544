// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The system call tapsets' workload (guest test syscall_argstr): after a
 * getppid() that marks the start, system calls with known arguments, in
 * this order, each made directly (no library call that adds its own):
 *
 *   openat(AT_FDCWD, "/tmp/sysprog.out", O_WRONLY|O_CREAT|O_TRUNC, 0644)
 *   write(fd, "hello\n", 6), close(fd)
 *   openat(AT_FDCWD, "/tmp/sysprog.out", O_RDONLY), read(fd, buf, 64),
 *   close(fd)
 *   mmap(NULL, 4096, PROT_READ|PROT_WRITE, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0)
 *   kill(999999, SIGKILL)          no such process: -3 (ESRCH)
 *   clone(SIGCHLD, 0, 0, 0, 0)     a child that exits at once
 *   wait4(child), then
 *   execve("/files/sysprog", ["/files/sysprog", "again"], ["A=1"])
 *
 * Run as "sysprog again" it exits at once.  It prints nothing.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

static const char path[] = "/tmp/sysprog.out";

int main(int argc, char **argv)
{
	char *args[] = { "/files/sysprog", "again", NULL };
	char *env[] = { "A=1", NULL };
	static char buf[64];
	long fd, child;

	(void)argv;
	if (argc > 1)
		return 0;
	/* the strings are read at the calls' entry, without faulting:
	 * touch their pages first */
	if (strlen(path) + strlen(args[0]) + strlen(args[1]) + strlen(env[0]) == 0)
		return 1;
	syscall(SYS_getppid);
	fd = syscall(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	syscall(SYS_write, fd, "hello\n", 6);
	syscall(SYS_close, fd);
	fd = syscall(SYS_openat, AT_FDCWD, path, O_RDONLY);
	syscall(SYS_read, fd, buf, sizeof(buf));
	syscall(SYS_close, fd);
	syscall(SYS_mmap, 0, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	syscall(SYS_kill, 999999, SIGKILL);
	child = syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (child == 0)
		syscall(SYS_exit_group, 0);
	syscall(SYS_wait4, child, 0, 0, 0);
	syscall(SYS_execve, args[0], args, env);
	return 1;
}
