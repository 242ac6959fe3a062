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

#include "base/procid.h"

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
	.name = "posix-sem", .wait_call = "sem_wait",
	.open = psem_open, .post = psem_post, .wait = psem_wait,
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
	.name = "posix-named-sem", .wait_call = "sem_wait",
	.open = nsem_open, .post = nsem_post, .wait = nsem_wait,
	.close = nsem_close,
};

/* ------------------------------------------------------------- sysv-sem */

/* A set removed early is unusable (EIDRM), so it lives until close(). It is
 * made under a key recorded beforehand rather than with IPC_PRIVATE, whose
 * id would only be known after semget returns: a worker killed in between
 * would leak a set nobody can name.
 *
 * When the supervisor is killed outright nobody runs the cleanup hook, so
 * the set outlives the run; the next sysv-sem run (and every cleanup hook)
 * removes such leftovers, and only those it can prove are rtconform's and
 * orphaned. A pid alone proves nothing: containers of one pod (or
 * --ipc=host) share the IPC namespace but not the PID namespace, and a pid
 * of another PID namespace names nobody here, or someone else. So each set
 * carries a stamp: besides its two semaphores it has four whose values
 * (15 bits each, below SEMVMX) hold the maker's PID namespace (the inode of
 * /proc/self/ns/pid, unique among live namespaces) and its pid there. A set
 * is an orphan only when it has our tag, six semaphores, mode 0600, our
 * user, our namespace in its stamp, and no process with its pid in our
 * namespace (a reused pid keeps the set: left alone, never wrongly
 * removed). A set of another namespace is never removed, whatever its pid;
 * where /proc is missing our namespace is unknown and nothing is reclaimed.
 *
 * The key is rtconform's tag in bits 22-30 and a number below: the
 * worker's pid first, then others derived from it, since a worker of
 * another PID namespace may hold the same pid and so the same key. The set
 * is made with mode 0200 and only set to 0600 once its stamp is written,
 * so a set in between is nobody's orphan; the supervisor removes it by the
 * id the worker recorded. */
#define SYSV_TAG 0x1b5u
#define SYSV_PID_BITS 22
#define SYSV_PID_MASK ((1u << SYSV_PID_BITS) - 1)
#define SYSV_NSEMS 6          /* 2 to ping-pong, 4 for the stamp */
#define SYSV_STAMP_BITS 15    /* per semaphore: SEMVMX is 32767 */
#define SYSV_TRIES 8
#define SYSV_STRIDE 0x9e37u   /* odd: the tries' keys differ */

static key_t sysv_key(pid_t pid, unsigned try)
{
	return (key_t)((SYSV_TAG << SYSV_PID_BITS) |
		       (((unsigned)pid + try * SYSV_STRIDE) & SYSV_PID_MASK));
}

static bool sysv_tagged(long long key)
{
	return key > 0 && ((unsigned long long)key >> SYSV_PID_BITS) == SYSV_TAG;
}

static uint64_t stamp_of(uint64_t ns, pid_t pid)
{
	return ns << SYSV_PID_BITS | ((unsigned)pid & SYSV_PID_MASK);
}

/* Is the set `id` an orphan of our PID namespace: a finished set of
 * rtconform's shape whose stamp names our namespace and a maker that no
 * longer runs? The maker may be this very process's pid only when
 * self_is_gone (a worker about to make its set: one under its pid is a
 * dead predecessor's). */
static bool sysv_orphan(int id, bool self_is_gone)
{
	struct semid_ds ds;
	union { int val; struct semid_ds *buf; unsigned short *array; } arg = { .buf = &ds };
	if (semctl(id, 0, IPC_STAT, arg) != 0 || ds.sem_nsems != SYSV_NSEMS ||
	    (ds.sem_perm.mode & 0777) != 0600 || ds.sem_perm.uid != geteuid())
		return false;
	unsigned short v[SYSV_NSEMS];
	arg.array = v;
	if (semctl(id, 0, GETALL, arg) != 0)
		return false;
	uint64_t stamp = 0, ns = procid_pidns();
	for (int i = SYSV_NSEMS - 1; i >= 2; i--)
		stamp = stamp << SYSV_STAMP_BITS | v[i];
	pid_t pid = (pid_t)(stamp & SYSV_PID_MASK);
	if (ns == 0 || stamp >> SYSV_PID_BITS != ns || pid <= 0)
		return false;
	return pid == getpid() ? self_is_gone : procid_state(pid, NULL) == PROCID_GONE;
}

/* Remove the sets and named semaphores of dead rtconform workers. */
static void ipc_reclaim_orphans(void)
{
	FILE *f = fopen("/proc/sysvipc/sem", "re");
	char line[256];
	while (f && fgets(line, sizeof line, f)) {
		long long key;
		int id;
		if (sscanf(line, "%lld %d", &key, &id) == 2 && sysv_tagged(key) &&
		    sysv_orphan(id, false))
			semctl(id, 0, IPC_RMID);
	}
	if (f)
		fclose(f);
	/* Named semaphores: a name is unlinked as soon as both are open, and
	 * the maker keeps using what it mapped; removing a name of another
	 * namespace's live worker costs it nothing. */
	DIR *d = opendir("/dev/shm");
	struct dirent *e;
	while (d && (e = readdir(d))) {
		long pid;
		int n, end = 0;
		struct stat st;
		if (sscanf(e->d_name, "sem.rtconform-%ld-%d%n", &pid, &n, &end) != 2 ||
		    e->d_name[end] || pid <= 0 || pid == getpid() ||
		    procid_state((pid_t)pid, NULL) != PROCID_GONE ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0 ||
		    !S_ISREG(st.st_mode) || st.st_uid != geteuid())
			continue;
		unlinkat(dirfd(d), e->d_name, 0);
	}
	if (d)
		closedir(d);
}

/* Make the set under the first free key of ours (recorded before each
 * semget), taking back one our dead predecessor left under it; a set of
 * anyone else is passed by. The set's id, or -errno. */
static int sysv_make(struct probe_ctx *c)
{
	int64_t *rec = &c->res->cleanup.ids[IPC_CLEANUP_SYSV_KEY];
	int id = -1, e = EEXIST;
	for (unsigned t = 0; t < SYSV_TRIES && id < 0 && e == EEXIST; t++) {
		key_t key = sysv_key(getpid(), t);
		__atomic_store_n(rec, (int64_t)key, __ATOMIC_SEQ_CST);
		id = semget(key, SYSV_NSEMS, IPC_CREAT | IPC_EXCL | 0200);
		e = id < 0 ? errno : 0;
		if (e == EEXIST) {
			int old = semget(key, 0, 0);
			if (old >= 0 && sysv_orphan(old, true) && semctl(old, 0, IPC_RMID) == 0) {
				id = semget(key, SYSV_NSEMS, IPC_CREAT | IPC_EXCL | 0200);
				e = id < 0 ? errno : 0;
			}
		}
	}
	if (id < 0)
		__atomic_store_n(rec, 0, __ATOMIC_SEQ_CST); /* not ours */
	else
		__atomic_store_n(&c->res->cleanup.ids[IPC_CLEANUP_SYSV_ID], (int64_t)id,
				 __ATOMIC_SEQ_CST);
	return id < 0 ? -e : id;
}

static int sysv_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	ipc_reclaim_orphans();
	int id = sysv_make(c);
	if (id < 0) {
		int e = -id;
		return probe_fail(c, e, "semget(%d semaphores): %s (%s)%s", SYSV_NSEMS,
				  probe_errname(e), strerror(e),
				  e == ENOSPC ? "; the SEMMNI/SEMMNS limits are reached (ipcs -l)"
				  : e == EEXIST ? "; other programs hold a set under each of "
						  "rtconform's keys for this pid" : "");
	}
	ch->u.sysv_id = id;
	/* The stamp, then mode 0600: from then on it is a set of ours. */
	unsigned short v[SYSV_NSEMS] = { 0, 0 };
	uint64_t stamp = stamp_of(procid_pidns(), getpid());
	for (int i = 2; i < SYSV_NSEMS; i++, stamp >>= SYSV_STAMP_BITS)
		v[i] = (unsigned short)(stamp & ((1u << SYSV_STAMP_BITS) - 1));
	struct semid_ds ds = { .sem_perm = { .uid = geteuid(), .gid = getegid(), .mode = 0600 } };
	if (semctl(id, 0, SETALL, v) != 0 || semctl(id, 0, IPC_SET, &ds) != 0) {
		int e = errno;
		return probe_fail(c, e, "semctl(SETALL, IPC_SET): %s (%s)", probe_errname(e),
				  strerror(e));
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
	if (ch->u.sysv_id >= 0 && semctl(ch->u.sysv_id, 0, IPC_RMID) == 0) {
		__atomic_store_n(&c->res->cleanup.ids[IPC_CLEANUP_SYSV_KEY], 0, __ATOMIC_SEQ_CST);
		__atomic_store_n(&c->res->cleanup.ids[IPC_CLEANUP_SYSV_ID], 0, __ATOMIC_SEQ_CST);
	}
	ch->u.sysv_id = -1;
}

const struct ipc_mech ipc_sysv_sem = {
	.name = "sysv-sem", .wait_call = "semop",
	.open = sysv_open, .post = sysv_post, .wait = sysv_wait,
	.close = sysv_close,
};

/* -------------------------------------------------------------- cleanup */

void ipc_sem_cleanup(const struct result_shm *res)
{
	ipc_reclaim_orphans();
	/* The worker's record: the id it got from semget, under the key it
	 * recorded before. Removed only while that key still names that id
	 * (our worker's set, stamped or not yet); a key alone may be one the
	 * worker found taken by another program, and is left to the orphan
	 * test above. */
	int64_t key = res->cleanup.ids[IPC_CLEANUP_SYSV_KEY];
	int64_t id = res->cleanup.ids[IPC_CLEANUP_SYSV_ID];
	if (sysv_tagged(key) && key <= 0x7fffffff && id > 0 && id <= 0x7fffffff &&
	    semget((key_t)key, 0, 0) == (int)id)
		semctl((int)id, 0, IPC_RMID);
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
