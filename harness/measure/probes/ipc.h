/* SPDX-License-Identifier: Apache-2.0 */
/* ipc.h - the wake-up mechanisms of the sem-pingpong probe (internal to
 * harness/measure/probes; not a probe, so not in RTC_PROBES).
 *
 * A channel carries wake-ups in two directions between A (the worker) and B
 * (its peer, a forked process or a thread): IPC_TO_B (A posts, B waits) and
 * IPC_TO_A (B posts, A waits). Each direction is a binary signal: the
 * ping-pong never posts twice before the matching wait. Every mechanism
 * implements the same four operations; sem_pingpong.c owns the protocol and
 * the timing, so the mechanisms compare like for like.
 *
 * A channel lives in the probe's shared anonymous mapping, made and opened
 * before the peer exists, so both sides reach the same object: by address
 * (unnamed semaphores, futex words, mutex and condition variables), by an
 * inherited mapping (named semaphores), by an inherited descriptor (pipe,
 * eventfd) or by a kernel id (SysV).
 */
#ifndef RTC_PROBES_IPC_H
#define RTC_PROBES_IPC_H

#include <pthread.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdint.h>

#include "harness/measure/probe.h"

enum { IPC_TO_B = 0, IPC_TO_A = 1 };

/* What the supervisor's cleanup needs, in result_shm.cleanup:
 *   ids[IPC_CLEANUP_SYSV_KEY]  SysV key of the semaphore set (0: none);
 *   ids[IPC_CLEANUP_SYSV_ID]   its id, once semget made it (0: none);
 *   names[0], names[1]         POSIX named semaphores ("" : none).
 * Each is recorded *before* the object is created and cleared once it is
 * removed, so a worker killed at any instant leaves a record of everything
 * it may have made. */
#define IPC_CLEANUP_SYSV_KEY 0
#define IPC_CLEANUP_SYSV_ID 1

struct ipc_chan {
	bool pshared; /* the peer is a process: objects must work across processes */
	union {
		sem_t psem[2];           /* posix-sem: in the shared mapping */
		sem_t *nsem[2];          /* posix-named-sem: sem_open's mappings */
		int sysv_id;             /* sysv-sem: one set, semaphore 0 and 1 */
		struct {
			_Alignas(64) uint32_t word;
		} futex[2];              /* futex: one word per direction, own cache line */
		struct {
			pthread_mutex_t mutex;
			pthread_cond_t cond[2];
			int posted[2];   /* the predicate each wait loops on */
			bool inited;
		} mc;                    /* mutex-cond */
		int pipe[2][2];          /* pipe: [direction][read end, write end] */
		int efd[2];              /* eventfd */
	} u;
};

struct ipc_mech {
	const char *name;
	/* The call wait() blocks in ("sem_wait"), for the words on a wait that
	 * returned without its post (sem_pingpong.c). */
	const char *wait_call;
	/* Create both directions, neither posted, shareable with a process
	 * peer when ch->pshared. Runs in the worker before the peer exists.
	 * Returns 0, or -errno after probe_fail(); whatever was made is
	 * released by close(). */
	int (*open)(struct ipc_chan *ch, struct probe_ctx *c);
	/* Signal direction dir. 0 or -errno. */
	int (*post)(struct ipc_chan *ch, int dir);
	/* Block until direction dir is signalled, and consume the signal;
	 * retries EINTR. 0 or -errno. It trusts the primitive's word that the
	 * signal came (a semaphore's, a descriptor's) or, where the primitive
	 * may wake spuriously (FUTEX_WAIT, pthread_cond_wait), loops on the
	 * word or predicate that the post sets; the ping-pong checks each
	 * return against the post's sequence number either way. */
	int (*wait)(struct ipc_chan *ch, int dir);
	/* Release everything open() made (also after a partial open). Runs in
	 * the worker after the peer is gone. */
	void (*close)(struct ipc_chan *ch, struct probe_ctx *c);
};

extern const struct ipc_mech ipc_posix_sem, ipc_named_sem, ipc_sysv_sem;
extern const struct ipc_mech ipc_futex, ipc_mutex_cond;
extern const struct ipc_mech ipc_pipe, ipc_eventfd;

/* Supervisor side: remove what result_shm.cleanup names (a SysV set, named
 * semaphores) if a worker left it behind. Idempotent; errors are ignored
 * (the object is already gone). */
void ipc_sem_cleanup(const struct result_shm *res);

#endif
