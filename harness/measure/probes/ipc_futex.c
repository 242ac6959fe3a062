/* SPDX-License-Identifier: Apache-2.0 */
/* ipc_futex.c - futex-based mechanisms of sem-pingpong: a raw futex word per
 * direction, and a pthread mutex with a condition variable. See ipc.h.
 * Both live wholly in the shared mapping: nothing to leave behind.
 */
#include "harness/measure/probes/ipc.h"

#include <errno.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

/* ---------------------------------------------------------------- futex */

/* The word is 1 when posted, 0 when consumed. Between threads the private
 * futex (hashed by address in this mm) is what a thread library uses;
 * between processes the shared form (hashed by the page of the shared
 * mapping) is the only one that works. */
static int futex_op(struct ipc_chan *ch, uint32_t *w, int op, uint32_t val)
{
	if (!ch->pshared)
		op |= FUTEX_PRIVATE_FLAG;
	return (int)syscall(SYS_futex, w, op, val, NULL, NULL, 0);
}

static int fx_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)c;
	for (int d = 0; d < 2; d++)
		ch->u.futex[d].word = 0;
	return 0;
}

static int fx_post(struct ipc_chan *ch, int dir)
{
	uint32_t *w = &ch->u.futex[dir].word;
	__atomic_store_n(w, 1, __ATOMIC_RELEASE);
	/* Always wake: in a ping-pong the other side is (about to be) asleep,
	 * and a waiter count would add a second shared word to the path. */
	return futex_op(ch, w, FUTEX_WAKE, 1) < 0 ? -errno : 0;
}

static int fx_wait(struct ipc_chan *ch, int dir)
{
	uint32_t *w = &ch->u.futex[dir].word;
	for (;;) {
		if (__atomic_load_n(w, __ATOMIC_ACQUIRE) &&
		    __atomic_exchange_n(w, 0, __ATOMIC_ACQ_REL))
			return 0;
		/* Sleeps only while the word is still 0: a post between the
		 * check and the call makes it return EAGAIN at once. */
		if (futex_op(ch, w, FUTEX_WAIT, 0) < 0 && errno != EAGAIN && errno != EINTR)
			return -errno;
	}
}

static void fx_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)ch;
	(void)c;
}

const struct ipc_mech ipc_futex = {
	.name = "futex", .wait_call = "FUTEX_WAIT",
	.open = fx_open, .post = fx_post, .wait = fx_wait, .close = fx_close,
};

/* ----------------------------------------------------------- mutex-cond */

static int mc_open(struct ipc_chan *ch, struct probe_ctx *c)
{
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;
	int pshared = ch->pshared ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
	int rc;
	const char *what = "pthread_mutexattr_setpshared";

	ch->u.mc.inited = false;
	pthread_mutexattr_init(&ma);
	pthread_condattr_init(&ca);
	if ((rc = pthread_mutexattr_setpshared(&ma, pshared)) != 0)
		goto out;
	what = "pthread_condattr_setpshared";
	if ((rc = pthread_condattr_setpshared(&ca, pshared)) != 0)
		goto out;
	what = "pthread_mutex_init";
	if ((rc = pthread_mutex_init(&ch->u.mc.mutex, &ma)) != 0)
		goto out;
	what = "pthread_cond_init";
	if ((rc = pthread_cond_init(&ch->u.mc.cond[0], &ca)) != 0) {
		pthread_mutex_destroy(&ch->u.mc.mutex);
		goto out;
	}
	if ((rc = pthread_cond_init(&ch->u.mc.cond[1], &ca)) != 0) {
		pthread_cond_destroy(&ch->u.mc.cond[0]);
		pthread_mutex_destroy(&ch->u.mc.mutex);
		goto out;
	}
	ch->u.mc.posted[0] = ch->u.mc.posted[1] = 0;
	ch->u.mc.inited = true;
out:
	pthread_condattr_destroy(&ca);
	pthread_mutexattr_destroy(&ma);
	if (rc)
		return probe_fail(c, rc, "%s(%s): %s (%s)", what,
				  ch->pshared ? "PTHREAD_PROCESS_SHARED" : "PTHREAD_PROCESS_PRIVATE",
				  probe_errname(rc), strerror(rc));
	return 0;
}

static int mc_post(struct ipc_chan *ch, int dir)
{
	int rc;
	if ((rc = pthread_mutex_lock(&ch->u.mc.mutex)) != 0)
		return -rc;
	ch->u.mc.posted[dir] = 1;
	pthread_mutex_unlock(&ch->u.mc.mutex);
	/* Signalled after the unlock: a waiter woken while the mutex is still
	 * held would only block again on it. The predicate makes this safe: a
	 * waiter either saw posted set or was already in cond_wait. */
	rc = pthread_cond_signal(&ch->u.mc.cond[dir]);
	return -rc;
}

static int mc_wait(struct ipc_chan *ch, int dir)
{
	int rc;
	if ((rc = pthread_mutex_lock(&ch->u.mc.mutex)) != 0)
		return -rc;
	while (!ch->u.mc.posted[dir])
		if ((rc = pthread_cond_wait(&ch->u.mc.cond[dir], &ch->u.mc.mutex)) != 0)
			break;
	if (!rc)
		ch->u.mc.posted[dir] = 0;
	pthread_mutex_unlock(&ch->u.mc.mutex);
	return -rc;
}

static void mc_close(struct ipc_chan *ch, struct probe_ctx *c)
{
	(void)c;
	if (!ch->u.mc.inited)
		return;
	ch->u.mc.inited = false;
	/* glibc's cond_destroy waits for every waiter to leave. A process
	 * peer killed inside cond_wait would never leave, and the shared
	 * mapping is unmapped next anyway: destroy only between threads,
	 * which have been joined. */
	if (ch->pshared)
		return;
	pthread_cond_destroy(&ch->u.mc.cond[0]);
	pthread_cond_destroy(&ch->u.mc.cond[1]);
	pthread_mutex_destroy(&ch->u.mc.mutex);
}

const struct ipc_mech ipc_mutex_cond = {
	.name = "mutex-cond", .wait_call = "pthread_cond_wait",
	.open = mc_open, .post = mc_post, .wait = mc_wait, .close = mc_close,
};
