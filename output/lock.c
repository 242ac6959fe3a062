/* SPDX-License-Identifier: Apache-2.0 */
/* lock.c - one owner per output directory: the lock a command that
 * writes reports holds on each directory it writes into, and the kind of
 * report set a directory already holds (output.h; docs/reports.md).
 *
 * The lock is flock(2) on OUT_LOCK_NAME in the directory: the kernel
 * releases it when its holder dies however it dies, so only the flock
 * decides who holds a directory, never the pid written in the file (a
 * file left by a killed holder is no lock). The holder removes the file
 * at the end while it still holds it; one who opened it just before
 * then gets the lock on a file no longer there, so after locking, the
 * file at the path must still be the one locked, or it starts again. */
#include "output/output.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "across/compare.h"
#include "across/merge.h"
#include "base/termsafe.h"
#include "harness/verdict.h"
#include "reports/journal.h"
#include "reports/read/read.h"
#include "reports/report.h"

/* ---------------------------------------------------------------- lock */

/* How many times the lock file may turn out removed or replaced, or its
 * holder gone, between opening it and locking it, before giving up. */
#define LOCK_TRIES 20
/* What of the holder's record is read back (its command is cut to fit). */
#define HOLDER_MAX 4096

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/* The pid that holds a flock on the file st is, as the kernel lists it in
 * /proc/locks ("1: FLOCK  ADVISORY  WRITE 4242 08:01:1234 0 EOF"), or 0
 * when it lists none (released since, or no /proc). The device is matched
 * too when it matches one; a filesystem whose stat(2) device is not its
 * superblock's (btrfs, overlayfs) is matched by inode when only one
 * lock is on that inode. */
/* A line of /proc/locks that holds a flock on inode st: its pid and device
 * into *pid, *maj, *min. False for any other line (a waiter's "->" too). */
static bool flock_line(const char *line, const struct stat *st, int *pid, unsigned *maj,
		       unsigned *min)
{
	char type[16];
	unsigned long long ino;
	return !strstr(line, "->") &&
	       sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%llu", type, pid, maj, min, &ino) == 5 &&
	       strcmp(type, "FLOCK") == 0 && *pid > 0 && ino == (unsigned long long)st->st_ino;
}

static pid_t kernel_holder(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	char line[256];
	pid_t exact = 0, by_ino = 0;
	int n_ino = 0, pid;
	unsigned maj, min;
	while (fgets(line, sizeof line, f)) {
		if (!flock_line(line, st, &pid, &maj, &min))
			continue;
		if (maj == major(st->st_dev) && min == minor(st->st_dev))
			exact = pid;
		by_ino = pid;
		n_ino++;
	}
	fclose(f);
	return exact ? exact : n_ino == 1 ? by_ino : 0;
}

/* After flock() said yes: whether the kernel lists this process holding a
 * flock on inode st (a library that accepts and ignores the call must not
 * pass for a lock). True without /proc/locks: nothing to ask then. */
static bool kernel_lists_ours(const struct stat *st)
{
	FILE *f = fopen("/proc/locks", "re");
	if (!f)
		return true;
	char line[256];
	int pid;
	unsigned maj, min;
	bool ours = false;
	while (!ours && fgets(line, sizeof line, f))
		ours = flock_line(line, st, &pid, &maj, &min) && pid == getpid();
	fclose(f);
	return ours;
}

/* What the holder wrote in the lock file (write_holder): its pid (0 when
 * none) and its command ("" when none) into cmd. */
static pid_t recorded_holder(int fd, char *cmd, size_t len)
{
	char buf[HOLDER_MAX + 1];
	ssize_t n = pread(fd, buf, HOLDER_MAX, 0);
	buf[n > 0 ? n : 0] = 0;
	cmd[0] = 0;
	int pid = 0;
	if (sscanf(buf, "pid %d\n", &pid) != 1 || pid < 0)
		pid = 0;
	const char *c = strstr(buf, "\ncommand ");
	if (c) {
		c += strlen("\ncommand ");
		snprintf(cmd, len, "%.*s", (int)strcspn(c, "\n"), c);
	}
	return pid;
}

/* The refusal: who holds dir's lock file `file`, by the kernel's word
 * (kpid), with the command it recorded when the record is its own. */
static void say_held(const char *cmd, const char *dir, const char *file, int fd, pid_t kpid)
{
	char what[HOLDER_MAX], who[HOLDER_MAX + 100];
	pid_t rpid = recorded_holder(fd, what, sizeof what);
	if (kpid > 0 && rpid == kpid && what[0])
		snprintf(who, sizeof who, "pid %d (%s)", (int)kpid, what);
	else if (kpid > 0)
		snprintf(who, sizeof who, "pid %d", (int)kpid);
	else if (rpid > 0) /* no /proc/locks: the record is all there is */
		snprintf(who, sizeof who, "pid %d, as the lock file says%s%s%s", (int)rpid,
			 what[0] ? " (" : "", what, what[0] ? ")" : "");
	else
		snprintf(who, sizeof who, "a process that cannot be named");
	termsafe_println(stderr, "rtconform %s: %s is in use: %s holds its lock %s; one command "
			 "at a time writes into a directory, so this one stops here and writes "
			 "nothing (wait for it to end, or choose another directory)", cmd, dir,
			 who, file);
}

/* The holder's record, for the message of one refused: "pid N\ncommand
 * CMD\n". A record that cannot be written leaves the lock held. */
static void write_holder(int fd, const char *cmd, const char *cmdline)
{
	char buf[HOLDER_MAX];
	int n = cmdline ? snprintf(buf, sizeof buf, "pid %d\ncommand %.*s\n", (int)getpid(),
				   HOLDER_MAX / 2, cmdline)
			: snprintf(buf, sizeof buf, "pid %d\ncommand rtconform %s\n",
				   (int)getpid(), cmd);
	/* Not written (a full disk): the lock holds all the same; the record
	 * is only what a refusal can say of its holder. */
	if (n > 0 && ftruncate(fd, 0) == 0) {
		ssize_t w = pwrite(fd, buf, (size_t)n, 0);
		(void)w;
	}
}

/* Open the lock file: a regular file of one name, never through a
 * symbolic link (rtconform may run as root in a directory others write).
 * *created: this open made it (O_EXCL said so). The fd, -1 after saying
 * why, or -2 (nothing said) when it was removed between the two opens. */
static int open_lock(const char *cmd, const char *file, struct stat *st, bool *created)
{
	const int flags = O_RDWR | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK;
	int fd = open(file, flags | O_CREAT | O_EXCL, 0644);
	*created = fd >= 0;
	if (fd < 0 && errno == EEXIST && (fd = open(file, flags)) < 0 && errno == ENOENT)
		return -2;
	const char *why = NULL;
	if (fd < 0)
		why = errno == ELOOP ? "a symbolic link, not a lock file" : strerror(errno);
	else if (fstat(fd, st) != 0)
		why = strerror(errno);
	else if (!S_ISREG(st->st_mode))
		why = "not a regular file, so not a lock file";
	else if (st->st_nlink > 1)
		why = "a file of more than one name, not a lock file";
	if (!why)
		return fd;
	termsafe_println(stderr, "rtconform %s: cannot lock the output directory: %s: %s", cmd,
			 file, why);
	if (fd >= 0)
		close(fd);
	return -1;
}

/* A lock refused for a reason of our own (flock() failing, or not to be
 * trusted), not for a holder: the lock file goes again when this open
 * made it, is still the file at its path and the kernel lists no holder
 * of it, so a refused command leaves the directory as it found it (one
 * it made can then be removed: out_made_dirs). A holder's file stays. */
static void drop_made_lock(int fd, const char *file, const struct stat *st, bool created)
{
	struct stat now;
	if (created && stat(file, &now) == 0 && same_file(&now, st) && !kernel_holder(st))
		unlink(file);
	close(fd);
}

/* Lock `file` into l. 0, or EXIT_USAGE after saying why. */
static int take_lock(struct out_lock *l, const char *cmd, const char *dir, const char *file,
		     const char *cmdline)
{
	for (int tries = 0; tries < LOCK_TRIES; tries++) {
		struct stat st, now;
		bool created;
		int fd = open_lock(cmd, file, &st, &created);
		if (fd == -2)
			continue; /* removed between the two opens: again */
		if (fd < 0)
			return EXIT_USAGE;
		if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
			int e = errno;
			pid_t kpid = e == EWOULDBLOCK ? kernel_holder(&st) : 0;
			/* no holder listed: gone since, or /proc/locks cannot say;
			 * try again, and name the record's pid on the last try */
			if (e == EINTR || (e == EWOULDBLOCK && !kpid && tries < 2)) {
				close(fd);
				continue;
			}
			if (e == EWOULDBLOCK) {
				say_held(cmd, dir, file, fd, kpid);
				close(fd);
			} else {
				termsafe_println(stderr, "rtconform %s: cannot lock the output "
						 "directory: %s: %s", cmd, file, strerror(e));
				drop_made_lock(fd, file, &st, created);
			}
			return EXIT_USAGE;
		}
		if (stat(file, &now) != 0 || !same_file(&now, &st)) {
			close(fd); /* its last holder removed it after we opened it */
			continue;
		}
		/* The record first: a command refused meanwhile names us. */
		write_holder(fd, cmd, cmdline);
		if (!kernel_lists_ours(&st)) {
			termsafe_println(stderr, "rtconform %s: cannot lock the output directory: "
					 "flock() on %s said yes, but /proc/locks lists no lock of "
					 "this process on it: not trusted", cmd, file);
			if (ftruncate(fd, 0) != 0) { /* the record stays; flock decides */ }
			drop_made_lock(fd, file, &st, created);
			return EXIT_USAGE;
		}
		l->fd = fd;
		l->dev = st.st_dev;
		l->ino = st.st_ino;
		return 0;
	}
	termsafe_println(stderr, "rtconform %s: cannot lock the output directory: %s keeps being "
			 "removed or replaced while it is opened", cmd, file);
	return EXIT_USAGE;
}

int out_lock_dir(struct out_locks *ls, const char *cmd, const char *dir, const char *cmdline)
{
	struct stat ds;
	if (stat(dir, &ds) != 0) {
		termsafe_println(stderr, "rtconform %s: cannot lock the output directory %s: %s",
				 cmd, dir, strerror(errno));
		return EXIT_USAGE;
	}
	for (size_t i = 0; i < ls->n; i++)
		if (ls->l[i].dir_dev == ds.st_dev && ls->l[i].dir_ino == ds.st_ino)
			return 0; /* ours already: a second flock would refuse us */
	struct out_lock *l = &ls->l[ls->n];
	if (ls->n == OUT_LOCKS_MAX || !(l->file = path_join(dir, OUT_LOCK_NAME))) {
		termsafe_println(stderr, "rtconform %s: cannot lock the output directory %s: %s",
				 cmd, dir, strerror(ls->n == OUT_LOCKS_MAX ? EMFILE : ENOMEM));
		return EXIT_USAGE;
	}
	int rc = take_lock(l, cmd, dir, l->file, cmdline);
	if (rc) {
		free(l->file);
		return rc;
	}
	l->dir_dev = ds.st_dev;
	l->dir_ino = ds.st_ino;
	ls->n++;
	return 0;
}

int out_lock_parent(struct out_locks *ls, const char *cmd, const char *path,
		    const char *cmdline)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return out_lock_dir(ls, cmd, ".", cmdline);
	char *dir = slash == path ? strdup("/") : strndup(path, (size_t)(slash - path));
	if (!dir) {
		termsafe_println(stderr, "rtconform %s: %s", cmd, strerror(ENOMEM));
		return EXIT_USAGE;
	}
	int rc = out_lock_dir(ls, cmd, dir, cmdline);
	free(dir);
	return rc;
}

void out_unlock(struct out_locks *ls)
{
	for (size_t i = ls->n; i-- > 0;) {
		struct out_lock *l = &ls->l[i];
		struct stat st;
		/* Removed while held, and only when it is still the file we
		 * hold (not one someone made after removing ours). */
		if (stat(l->file, &st) == 0 && st.st_dev == l->dev && st.st_ino == l->ino)
			unlink(l->file);
		close(l->fd);
		free(l->file);
	}
	ls->n = 0;
}

/* ---------------------------------------------------------- report sets */

static const char *const set_what[] = {
	[OUT_SET_RUN] = "a run's reports (rtconform run)",
	[OUT_SET_FLEET] = "a fleet report (rtconform merge)",
	[OUT_SET_COMPARISON] = "a comparison (rtconform compare -o)",
};

/* A file that tells which set a directory holds (junit.xml, which every
 * set has, tells none; results.json tells by its schema). */
struct set_file {
	const char *name;
	enum out_set_kind kind;
};
#define NSET_FILES 6
static void set_files(struct set_file f[NSET_FILES])
{
	/* A killed run's journal: its reports are still to be rendered. */
	f[5] = (struct set_file){ JOURNAL_DIR, OUT_SET_RUN };
	f[0] = (struct set_file){ report_kind_file_name(REPORT_HTML), OUT_SET_RUN };
	f[1] = (struct set_file){ report_kind_file_name(REPORT_SUMMARY), OUT_SET_RUN };
	f[2] = (struct set_file){ MERGE_HTML, OUT_SET_FLEET };
	f[3] = (struct set_file){ CMP_TEXT, OUT_SET_COMPARISON };
	f[4] = (struct set_file){ CMP_HTML, OUT_SET_COMPARISON };
}

/* Whether dir/name exists (as anything). */
static bool exists_in(const char *dir, const char *name)
{
	char *p = path_join(dir, name);
	struct stat st;
	bool there = p && lstat(p, &st) == 0;
	free(p);
	return there;
}

/* The refusal of cmd writing `mine` into dir, which holds `name`: of set
 * `kind`, or of none rtconform can tell (kind < 0, why says more). */
static int refuse_set(const char *cmd, const char *dir, const char *name, int kind,
		      const char *why, enum out_set_kind mine)
{
	static const char *const mine_what[] = {
		[OUT_SET_RUN] = "this run's reports", [OUT_SET_FLEET] = "this fleet report",
		[OUT_SET_COMPARISON] = "this comparison's reports",
	};
	termsafe_println(stderr, "rtconform %s: %s holds %s, %s%s; %s would replace or mix with "
			 "it there (choose another -o, or give --force to write there anyway)",
			 cmd, dir, name, kind >= 0 ? "of " : "", kind >= 0 ? set_what[kind] : why,
			 mine_what[mine]);
	return EXIT_USAGE;
}

int out_check_set(const char *cmd, const char *dir, enum out_set_kind mine, bool force)
{
	if (force)
		return 0;
	const char *json = report_kind_file_name(REPORT_JSON);
	char *path = path_join(dir, json);
	enum read_kind rk = path ? read_results_kind(path) : READ_OTHER;
	free(path);
	bool told = rk == READ_RUN || rk == READ_FLEET;
	if (rk == READ_OTHER)
		return refuse_set(cmd, dir, json, -1, "a file rtconform cannot tell as a run's "
				  "or a fleet's (no schema of rtconform's at its start)", mine);
	if (told && (rk == READ_RUN ? OUT_SET_RUN : OUT_SET_FLEET) != mine)
		return refuse_set(cmd, dir, json, rk == READ_RUN ? OUT_SET_RUN : OUT_SET_FLEET,
				  NULL, mine);
	struct set_file f[NSET_FILES];
	set_files(f);
	for (size_t i = 0; i < NSET_FILES; i++) {
		if (!exists_in(dir, f[i].name))
			continue;
		if (f[i].kind != mine)
			return refuse_set(cmd, dir, f[i].name, (int)f[i].kind, NULL, mine);
		told = true;
	}
	const char *junit = report_kind_file_name(REPORT_JUNIT);
	if (!told && exists_in(dir, junit))
		return refuse_set(cmd, dir, junit, -1, "beside no report that tells whose it is "
				  "(a results.json, report.html, fleet.html or compare.txt)", mine);
	return 0;
}
