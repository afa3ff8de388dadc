/*-------------------------------------------------------------------------
 *
 * without_io_uring.c
 *	  Run a command as if the kernel refused io_uring.
 *
 * Installs a seccomp filter that makes io_uring_setup, io_uring_enter and
 * io_uring_register fail with EPERM — what Docker's default profile and
 * kernel.io_uring_disabled do — then runs the command, whose children
 * inherit the filter.  Tests the real fallback path, and produces the
 * alternative expected output of the uring test (expected/uring_1.out) for
 * machines where io_uring is refused:
 *
 *	  gcc -o /tmp/without_io_uring tools/without_io_uring.c
 *	  /tmp/without_io_uring tools/run-tests.sh uring
 *
 * Affects only the command it runs; needs no privileges.
 *
 *-------------------------------------------------------------------------
 */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#if defined(__x86_64__)
#define ARCH_NR AUDIT_ARCH_X86_64
#elif defined(__aarch64__)
#define ARCH_NR AUDIT_ARCH_AARCH64
#else
#error "add this architecture's AUDIT_ARCH_* value"
#endif

int
main(int argc, char **argv)
{
	struct sock_filter filter[] = {
		/* other architectures' system call numbers mean other calls: allow */
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ARCH_NR, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_setup, 3, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_enter, 2, 0),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_io_uring_register, 1, 0),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA)),
	};
	struct sock_fprog prog = {
		.len = sizeof(filter) / sizeof(filter[0]),
		.filter = filter,
	};

	if (argc < 2)
	{
		fprintf(stderr, "usage: %s command [argument...]\n", argv[0]);
		return 2;
	}
	/* required to install a filter without CAP_SYS_ADMIN */
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
		prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog) != 0)
	{
		fprintf(stderr, "%s: could not install the seccomp filter: %s\n",
				argv[0], strerror(errno));
		return 1;
	}
	execvp(argv[1], argv + 1);
	fprintf(stderr, "%s: could not run \"%s\": %s\n", argv[0], argv[1],
			strerror(errno));
	return 127;
}
