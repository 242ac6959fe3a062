/* SPDX-License-Identifier: Apache-2.0 */
/* culprit.c - a known cause of latency, injected beside a traced probe so
 * that tests and ci/bench.d/explain.sh can check that `rtconform explain`
 * names it (docs/explain.md, "Proven with injected culprits").
 *
 *   culprit burst CPU POLICY PRIO BURST_US PERIOD_US SECONDS
 *       one thread pinned to CPU, at POLICY fifo, rr or other (PRIO is then
 *       the nice value), busy-running BURST_US microseconds every PERIOD_US
 *       (BURST_US = PERIOD_US: never sleeps) for SECONDS seconds;
 *   culprit read CPU POLICY PRIO FILE SECONDS [PAUSE_US]
 *       one thread pinned to CPU at POLICY and PRIO (as for burst) reading
 *       FILE whole, 8 MiB a read(2), over and over, for SECONDS seconds,
 *       sleeping PAUSE_US microseconds (default 0) after each read: on
 *       a kernel without full preemption (PREEMPT_NONE, voluntary) a long
 *       read runs on in the kernel after a higher-priority task woke on its
 *       CPU: copying 8 MiB of a file in the page cache out does (0.5 to 2
 *       ms here); a file the kernel makes up as it goes (/proc/kallsyms)
 *       gives a page a read(2), 70 to 120 us. A
 *       real-time reader that never pauses takes the whole CPU, and the
 *       kernel's real-time throttling (sched_rt_runtime_us) then stops every
 *       real-time task on it, a probe too, for the rest of each period;
 *   culprit fork CPU POLICY PRIO MIB SECONDS
 *       one task pinned to CPU at POLICY and PRIO (as for burst) with MIB
 *       MiB of memory touched, forking a child that exits at once and
 *       waiting for it, over and over, for SECONDS seconds: the children
 *       inherit its policy and CPU. Copying and tearing down the address
 *       space is kernel work that, on a kernel without full preemption
 *       (PREEMPT_NONE, voluntary), runs on after a higher-priority task
 *       woke on the CPU;
 *   culprit dread CPU FILE SECONDS
 *       one thread pinned to CPU at SCHED_OTHER reading FILE 4 KiB at a time
 *       with O_DIRECT (never writing): every read is a request to the disk,
 *       whose completion interrupt lands where its IRQ affinity says;
 *   culprit net CPU RXCPU udp|tcp SIZE SECONDS
 *       a sender pinned to CPU at SCHED_OTHER sending SIZE bytes a send(2)
 *       over 127.0.0.1 as fast as it can, to a receiver (a child process)
 *       pinned to RXCPU at SCHED_OTHER that reads and drops them: a packet
 *       sent over the loopback device is received by the NET_RX softirq on
 *       the sender's CPU, which runs when the send re-enables bottom halves.
 *
 * What the kernel gave it (sched_getscheduler, sched_getparam,
 * sched_getaffinity as raw system calls, getpriority) is read back before
 * it starts: anything but what was asked exits 2 with the reason. Once set up it prints one
 * line "culprit PID ready" on stdout. It exits 0 at the end of its time,
 * 2 on a usage error or a failed request.
 */

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void die(const char *what)
{
	fprintf(stderr, "culprit: %s: %s\n", what, strerror(errno));
	exit(2);
}

static long arg_num(const char *s, const char *name, long lo, long hi)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < lo || v > hi) {
		fprintf(stderr, "culprit: %s '%s' is not a number in %ld..%ld\n", name, s,
			lo, hi);
		exit(2);
	}
	return v;
}

static long long now_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000000000LL + t.tv_nsec;
}

/* pin the calling thread to cpu and set its policy; read both back */
static void place(int cpu, int policy, int prio)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof set, &set))
		die("sched_setaffinity");
	struct sched_param sp = {.sched_priority = policy == SCHED_OTHER ? 0 : prio};
	if (sched_setscheduler(0, policy, &sp))
		die("sched_setscheduler");
	if (policy == SCHED_OTHER && setpriority(PRIO_PROCESS, 0, prio))
		die("setpriority");
	/* read back from the kernel itself (raw system calls): a C library
	 * layer that ignores requests may answer what was asked */
	cpu_set_t got;
	CPU_ZERO(&got);
	if (syscall(SYS_sched_getaffinity, 0, sizeof got, &got) < 0)
		die("sched_getaffinity");
	if (!CPU_EQUAL(&got, &set) || CPU_COUNT(&got) != 1) {
		fprintf(stderr, "culprit: asked for CPU %d alone, the kernel gave %d CPUs\n", cpu,
			CPU_COUNT(&got));
		exit(2);
	}
	int pol = (int)syscall(SYS_sched_getscheduler, 0);
	struct sched_param gp;
	if (pol < 0 || syscall(SYS_sched_getparam, 0, &gp))
		die("sched_getscheduler");
	pol &= ~SCHED_RESET_ON_FORK;
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, 0);
	if (errno)
		die("getpriority");
	int want = policy == SCHED_OTHER ? 0 : prio;
	if (pol != policy || gp.sched_priority != want ||
	    (policy == SCHED_OTHER && nice != prio)) {
		fprintf(stderr,
			"culprit: asked for policy %d priority %d, the kernel runs it at "
			"policy %d priority %d nice %d\n",
			policy, prio, pol, gp.sched_priority, nice);
		exit(2);
	}
}

static int policy_of(const char *s)
{
	if (!strcmp(s, "fifo"))
		return SCHED_FIFO;
	if (!strcmp(s, "rr"))
		return SCHED_RR;
	if (!strcmp(s, "other"))
		return SCHED_OTHER;
	fprintf(stderr, "culprit: policy '%s' is not fifo, rr or other\n", s);
	exit(2);
}

static void ready(void)
{
	printf("culprit %ld ready\n", (long)getpid());
	fflush(stdout);
}

static int burst(char **av)
{
	int cpu = (int)arg_num(av[0], "CPU", 0, CPU_SETSIZE - 1);
	int policy = policy_of(av[1]);
	int prio = policy == SCHED_OTHER ? (int)arg_num(av[2], "nice", -20, 19)
					 : (int)arg_num(av[2], "priority", 1, 99);
	long long b = arg_num(av[3], "BURST_US", 1, 10000000) * 1000LL;
	long long p = arg_num(av[4], "PERIOD_US", 1, 10000000) * 1000LL;
	long long end = arg_num(av[5], "SECONDS", 1, 86400) * 1000000000LL;
	if (b > p) {
		fprintf(stderr, "culprit: BURST_US %lld is longer than PERIOD_US %lld\n",
			b / 1000, p / 1000);
		return 2;
	}
	place(cpu, policy, prio);
	ready();
	long long t0 = now_ns(), next = t0;
	end += t0;
	while (next < end) {
		long long stop = next + b;
		while (now_ns() < stop)
			;
		next += p;
		if (b == p)
			continue;
		struct timespec ts = {.tv_sec = next / 1000000000LL,
				      .tv_nsec = next % 1000000000LL};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return 0;
}

static int read_loop(char **av)
{
	int cpu = (int)arg_num(av[0], "CPU", 0, CPU_SETSIZE - 1);
	int policy = policy_of(av[1]);
	int prio = policy == SCHED_OTHER ? (int)arg_num(av[2], "nice", -20, 19)
					 : (int)arg_num(av[2], "priority", 1, 99);
	long long end = arg_num(av[4], "SECONDS", 1, 86400) * 1000000000LL;
	long long pause = av[5] ? arg_num(av[5], "PAUSE_US", 0, 1000000) * 1000LL : 0;
	enum { CHUNK = 8 << 20 };
	char *buf = malloc(CHUNK);
	if (!buf)
		die("malloc");
	int fd = open(av[3], O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		die(av[3]);
	place(cpu, policy, prio);
	ready();
	end += now_ns();
	while (now_ns() < end) {
		ssize_t n = read(fd, buf, CHUNK);
		if (n < 0)
			die(av[3]);
		if (n == 0 && lseek(fd, 0, SEEK_SET) < 0)
			die("lseek");
		struct timespec ts = {.tv_sec = pause / 1000000000LL,
				      .tv_nsec = pause % 1000000000LL};
		if (pause)
			nanosleep(&ts, NULL);
	}
	close(fd);
	free(buf);
	return 0;
}

static int fork_loop(char **av)
{
	int cpu = (int)arg_num(av[0], "CPU", 0, CPU_SETSIZE - 1);
	int policy = policy_of(av[1]);
	int prio = policy == SCHED_OTHER ? (int)arg_num(av[2], "nice", -20, 19)
					 : (int)arg_num(av[2], "priority", 1, 99);
	size_t mib = (size_t)arg_num(av[3], "MIB", 0, 4096);
	long long end = arg_num(av[4], "SECONDS", 1, 86400) * 1000000000LL;
	char *mem = mib ? malloc(mib << 20) : NULL;
	if (mib && !mem)
		die("malloc");
	if (mem)
		memset(mem, 1, mib << 20);
	place(cpu, policy, prio);
	ready();
	end += now_ns();
	while (now_ns() < end) {
		pid_t c = fork();
		if (c < 0)
			die("fork");
		if (c == 0)
			_exit(0);
		if (waitpid(c, NULL, 0) < 0)
			die("waitpid");
	}
	free(mem);
	return 0;
}

static int direct_read(char **av)
{
	int cpu = (int)arg_num(av[0], "CPU", 0, CPU_SETSIZE - 1);
	long long end = arg_num(av[2], "SECONDS", 1, 86400) * 1000000000LL;
	void *buf;
	if (posix_memalign(&buf, 4096, 4096))
		die("posix_memalign");
	int fd = open(av[1], O_RDONLY | O_DIRECT | O_CLOEXEC);
	if (fd < 0)
		die(av[1]);
	off_t size = lseek(fd, 0, SEEK_END);
	if (size < 4096) {
		fprintf(stderr, "culprit: %s is smaller than 4 KiB\n", av[1]);
		return 2;
	}
	place(cpu, SCHED_OTHER, 0);
	ready();
	end += now_ns();
	unsigned long long x = (unsigned long long)getpid();
	while (now_ns() < end) {
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		off_t at = (off_t)((x >> 16) % (unsigned long long)(size / 4096)) * 4096;
		if (pread(fd, buf, 4096, at) < 0)
			die(av[1]);
	}
	close(fd);
	free(buf);
	return 0;
}

/* the receiver: a child pinned to rxcpu, reading until its parent goes */
static pid_t net_receiver(int rxcpu, int fd, int tcp, size_t size)
{
	pid_t c = fork();
	if (c < 0)
		die("fork");
	if (c)
		return c;
	/* gone with its parent, however the parent ends */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(0);
	place(rxcpu, SCHED_OTHER, 0);
	char *buf = malloc(size);
	if (!buf)
		die("malloc");
	int conn = tcp ? accept(fd, NULL, NULL) : fd;
	if (conn < 0)
		die("accept");
	for (;;) {
		ssize_t n = recv(conn, buf, size, 0);
		if (n < 0 && errno != EINTR)
			die("recv");
		if (n == 0 && tcp)
			_exit(0);
	}
}

static int net_loop(char **av)
{
	int cpu = (int)arg_num(av[0], "CPU", 0, CPU_SETSIZE - 1);
	int rxcpu = (int)arg_num(av[1], "RXCPU", 0, CPU_SETSIZE - 1);
	int tcp = !strcmp(av[2], "tcp");
	if (!tcp && strcmp(av[2], "udp")) {
		fprintf(stderr, "culprit: protocol '%s' is not udp or tcp\n", av[2]);
		return 2;
	}
	size_t size = (size_t)arg_num(av[3], "SIZE", 1, tcp ? 1 << 20 : 65507);
	long long end = arg_num(av[4], "SECONDS", 1, 86400) * 1000000000LL;
	struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t alen = sizeof a;
	int rx = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (rx < 0 || bind(rx, (struct sockaddr *)&a, sizeof a) ||
	    getsockname(rx, (struct sockaddr *)&a, &alen) || (tcp && listen(rx, 1)))
		die("receiver socket");
	pid_t child = net_receiver(rxcpu, rx, tcp, size);
	int tx = socket(AF_INET, tcp ? SOCK_STREAM : SOCK_DGRAM, 0);
	if (tx < 0 || connect(tx, (struct sockaddr *)&a, sizeof a))
		die("sender socket");
	char *buf = calloc(1, size);
	if (!buf)
		die("calloc");
	place(cpu, SCHED_OTHER, 0);
	ready();
	end += now_ns();
	while (now_ns() < end)
		if (send(tx, buf, size, 0) < 0 && errno != ECONNREFUSED && errno != ENOBUFS)
			die("send");
	close(tx);
	kill(child, SIGTERM);
	waitpid(child, NULL, 0);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 8 && !strcmp(argv[1], "burst"))
		return burst(argv + 2);
	if ((argc == 7 || argc == 8) && !strcmp(argv[1], "read"))
		return read_loop(argv + 2);
	if (argc == 7 && !strcmp(argv[1], "fork"))
		return fork_loop(argv + 2);
	if (argc == 5 && !strcmp(argv[1], "dread"))
		return direct_read(argv + 2);
	if (argc == 7 && !strcmp(argv[1], "net"))
		return net_loop(argv + 2);
	fprintf(stderr, "usage: culprit burst CPU fifo|rr|other PRIO|NICE BURST_US PERIOD_US "
			"SECONDS\n       culprit read CPU fifo|rr|other PRIO|NICE FILE SECONDS\n"
			"       culprit fork CPU fifo|rr|other PRIO|NICE MIB SECONDS\n"
			"       culprit dread CPU FILE SECONDS\n"
			"       culprit net CPU RXCPU udp|tcp SIZE SECONDS\n");
	return 2;
}
