/* SPDX-License-Identifier: Apache-2.0 */
/* ipc_sem.c - semaphore mechanisms of sem-pingpong: unnamed POSIX
 * (sem_init), named POSIX (sem_open) and SysV (semop). See ipc.h.
 *
 * Named and SysV semaphores outlive the processes that made them, so each
 * is recorded in result_shm.cleanup before it is created: the supervisor
 * removes whatever a crashed, timed-out or interrupted worker left. What a
 * run whose supervisor was killed outright left is removed by the next
 * run (ipc_reclaim_orphans).
 */
#include "harness/measure/probes/ipc.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/sem.h>
#include <sys/stat.h>
#include <unistd.h>

static int sem_wait_intr(sem_t *s)
{
	while (sem_wait(s) != 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

/* ------------------------------------------------------------ posix-sem */

static int psem_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	for (int d = 0; d < 2; d++)
		if (sem_init(&ch->u.psem[d], ch->pshared, 0) != 0) {
			int e = errno;
			return probe_fail(c, e, "sem_init(pshared=%d): %s (%s)", ch->pshared,
					  probe_errname(e), strerror(e));
		}
	return 0;
}

static int psem_post(struct ipc_chan *ch, int dir)
{
	return sem_post(&ch->u.psem[dir]) == 0 ? 0 : -errno;
}

static int psem_wait(struct ipc_chan *ch, int dir)
{
	return sem_wait_intr(&ch->u.psem[dir]);
}

static void psem_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)c;
	/* sem_destroy on Linux releases nothing; the mapping goes with the
	 * probe's munmap. Nothing can be left in the system. */
	(void)ch;
}

const struct ipc_mech ipc_posix_sem = {
	.name = "posix-sem", .open = psem_open, .post = psem_post, .wait = psem_wait,
	.close = psem_close,
};

/* ------------------------------------------------------ posix-named-sem */

static int nsem_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	char (*names)[64] = c->res->cleanup.names;
	ch->u.nsem[0] = ch->u.nsem[1] = SEM_FAILED;
	for (int d = 0; d < 2; d++) {
		/* Unique among live processes: the worker's pid is. */
		snprintf(names[d], sizeof names[d], "/rtconform-%ld-%d", (long)getpid(), d);
		sem_t *s = sem_open(names[d], O_CREAT | O_EXCL, 0600, 0);
		if (s == SEM_FAILED && errno == EEXIST) {
			/* Only a dead worker that had our pid can have made
			 * this name (its supervisor was killed before cleaning
			 * up): a leftover, safe to remove. */
			sem_unlink(names[d]);
			s = sem_open(names[d], O_CREAT | O_EXCL, 0600, 0);
		}
		if (s == SEM_FAILED) {
			int e = errno;
			return probe_fail(c, e, "sem_open(%s): %s (%s)", names[d], probe_errname(e),
					  strerror(e));
		}
		ch->u.nsem[d] = s;
	}
	/* Both exist and this process maps them; the peer inherits the
	 * mappings (fork) or shares them (thread), exactly the objects a
	 * sem_open by name would give it. Drop the names now, so nothing is
	 * left in /dev/shm whatever happens next. */
	for (int d = 0; d < 2; d++) {
		if (sem_unlink(names[d]) != 0 && errno != ENOENT) {
			int e = errno;
			return probe_fail(c, e, "sem_unlink(%s): %s (%s)", names[d], probe_errname(e),
					  strerror(e));
		}
		names[d][0] = 0;
	}
	return 0;
}

static int nsem_post(struct ipc_chan *ch, int dir)
{
	return sem_post(ch->u.nsem[dir]) == 0 ? 0 : -errno;
}

static int nsem_wait(struct ipc_chan *ch, int dir)
{
	return sem_wait_intr(ch->u.nsem[dir]);
}

static void nsem_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	char (*names)[64] = c->res->cleanup.names;
	for (int d = 0; d < 2; d++) {
		if (ch->u.nsem[d] != SEM_FAILED)
			sem_close(ch->u.nsem[d]);
		ch->u.nsem[d] = SEM_FAILED;
		if (names[d][0]) { /* open() failed before unlinking */
			sem_unlink(names[d]);
			names[d][0] = 0;
		}
	}
}

const struct ipc_mech ipc_named_sem = {
	.name = "posix-named-sem", .open = nsem_open, .post = nsem_post, .wait = nsem_wait,
	.close = nsem_close,
};

/* ------------------------------------------------------------- sysv-sem */

/* A set removed early is unusable (EIDRM), so it lives until close(). It is
 * made under a key recorded beforehand rather than with IPC_PRIVATE, whose
 * id would only be known after semget returns: a worker killed in between
 * would leak a set nobody can name.
 *
 * The key names its maker: rtconform's tag in bits 22-30 and the worker's
 * pid in bits 0-21 (pids stay below 2^22, the kernel's PID_MAX_LIMIT). When
 * the supervisor is killed outright nobody runs the cleanup hook, so the
 * set outlives the run; the next sysv-sem run (and every cleanup hook)
 * removes such leftovers, and only those it can prove are rtconform's and
 * orphaned: our tag, two semaphores, mode 0600, our user, and no process
 * with that pid at all (a reused pid keeps the set: left alone, never
 * wrongly removed). */
#define SYSV_TAG 0x1b5u
#define SYSV_PID_BITS 22
#define SYSV_PID_MASK ((1u << SYSV_PID_BITS) - 1)

static key_t sysv_key(pid_t pid)
{
	return (key_t)((SYSV_TAG << SYSV_PID_BITS) | ((unsigned)pid & SYSV_PID_MASK));
}

/* Is the set `id` one rtconform makes (2 semaphores, 0600, ours)? */
static bool sysv_is_ours(int id)
{
	struct semid_ds ds;
	union { int val; struct semid_ds *buf; } arg = { .buf = &ds };
	return semctl(id, 0, IPC_STAT, arg) == 0 && ds.sem_nsems == 2 &&
	       (ds.sem_perm.mode & 0777) == 0600 && ds.sem_perm.uid == geteuid();
}

/* No process with that pid runs any more: none exists, or only its zombie
 * (an orphaned worker waits for whoever adopted it to reap it). */
static bool pid_gone(pid_t pid)
{
	if (kill(pid, 0) != 0)
		return errno == ESRCH;
	char path[40], buf[256];
	snprintf(path, sizeof path, "/proc/%ld/stat", (long)pid);
	FILE *f = fopen(path, "re");
	size_t n = f ? fread(buf, 1, sizeof buf - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = 0;
	const char *st = strrchr(buf, ')'); /* "pid (comm) S ..." */
	return st && st[1] == ' ' && (st[2] == 'Z' || st[2] == 'X');
}

/* Remove the sets and named semaphores of dead rtconform workers. */
static void ipc_reclaim_orphans(void)
{
	FILE *f = fopen("/proc/sysvipc/sem", "re");
	char line[256];
	while (f && fgets(line, sizeof line, f)) {
		long long key;
		int id;
		if (sscanf(line, "%lld %d", &key, &id) != 2 || key <= 0 ||
		    ((unsigned long long)key >> SYSV_PID_BITS) != SYSV_TAG)
			continue;
		pid_t pid = (pid_t)(key & SYSV_PID_MASK);
		if (pid > 0 && pid != getpid() && pid_gone(pid) && sysv_is_ours(id))
			semctl(id, 0, IPC_RMID);
	}
	if (f)
		fclose(f);
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long pid;
		int n, end = 0;
		struct stat st;
		if (sscanf(e->d_name, "sem.rtconform-%ld-%d%n", &pid, &n, &end) != 2 ||
		    e->d_name[end] || pid <= 0 || pid == getpid() || !pid_gone((pid_t)pid) ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

static int sysv_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	int64_t *rec = &c->res->cleanup.ids[IPC_CLEANUP_SYSV_KEY];
	key_t key = sysv_key(getpid());
	ipc_reclaim_orphans();
	__atomic_store_n(rec, (int64_t)key, __ATOMIC_SEQ_CST);
	int id = semget(key, 2, IPC_CREAT | IPC_EXCL | 0600);
	if (id < 0 && errno == EEXIST) {
		/* Made by a dead worker that had our pid: ours to remove if it
		 * is rtconform's; anything else under the key is not touched. */
		int old = semget(key, 0, 0);
		if (old >= 0 && sysv_is_ours(old))
			semctl(old, 0, IPC_RMID);
		id = semget(key, 2, IPC_CREAT | IPC_EXCL | 0600);
	}
	if (id < 0) {
		int e = errno;
		__atomic_store_n(rec, 0, __ATOMIC_SEQ_CST); /* not ours */
		return probe_fail(c, e, "semget(key 0x%08x, 2 semaphores): %s (%s)%s",
				  (unsigned)key, probe_errname(e), strerror(e),
				  e == ENOSPC ? "; the SEMMNI/SEMMNS limits are reached (ipcs -l)"
				  : e == EEXIST ? "; another program holds a set under this key" : "");
	}
	ch->u.sysv_id = id;
	unsigned short zero[2] = { 0, 0 };
	if (semctl(ch->u.sysv_id, 0, SETALL, zero) != 0) {
		int e = errno;
		return probe_fail(c, e, "semctl(SETALL): %s (%s)", probe_errname(e), strerror(e));
	}
	return 0;
}

static int sysv_post(struct ipc_chan *ch, int dir)
{
	struct sembuf op = { .sem_num = (unsigned short)dir, .sem_op = 1, .sem_flg = 0 };
	return semop(ch->u.sysv_id, &op, 1) == 0 ? 0 : -errno;
}

static int sysv_wait(struct ipc_chan *ch, int dir)
{
	struct sembuf op = { .sem_num = (unsigned short)dir, .sem_op = -1, .sem_flg = 0 };
	while (semop(ch->u.sysv_id, &op, 1) != 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

static void sysv_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	if (ch->u.sysv_id >= 0 && semctl(ch->u.sysv_id, 0, IPC_RMID) == 0)
		__atomic_store_n(&c->res->cleanup.ids[IPC_CLEANUP_SYSV_KEY], 0, __ATOMIC_SEQ_CST);
	ch->u.sysv_id = -1;
}

const struct ipc_mech ipc_sysv_sem = {
	.name = "sysv-sem", .open = sysv_open, .post = sysv_post, .wait = sysv_wait,
	.close = sysv_close,
};

/* -------------------------------------------------------------- cleanup */

void ipc_sem_cleanup(const struct result_shm *res)
{
	ipc_reclaim_orphans();
	/* The recorded key is the worker's word, written before its semget:
	 * only a key of our form, and a set of ours under it, is removed (a
	 * worker killed before its semget may have recorded a key another
	 * program holds). */
	int64_t key = res->cleanup.ids[IPC_CLEANUP_SYSV_KEY];
	if (key > 0 && key <= 0x7fffffff && ((uint64_t)key >> SYSV_PID_BITS) == SYSV_TAG) {
		int id = semget((key_t)key, 0, 0);
		if (id >= 0 && sysv_is_ours(id))
			semctl(id, 0, IPC_RMID);
	}
	for (int d = 0; d < 2; d++) {
		char name[64];
		/* Copy with a guaranteed terminator: the worker that wrote it
		 * may have died mid-write. */
		memcpy(name, res->cleanup.names[d], sizeof name);
		name[sizeof name - 1] = 0;
		if (strncmp(name, "/rtconform-", 11) == 0)
			sem_unlink(name);
	}
}
