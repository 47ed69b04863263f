/* output.c — safe output files for every command that writes one (docs/design.md#command: never
 * delete or truncate a file the run did not create; nothing lost).
 *
 * slpi_output_open(path, mode):
 *   - path NULL or "-": standard output (commit flushes it and reports a write error).
 *   - an existing file that is not a regular file (a device such as /dev/null or
 *     /dev/full, a FIFO): written in place, never truncated beyond what open(2) does to
 *     such a file, never removed; write, flush and close errors are reported.
 *   - otherwise (a regular file, or no file yet), SLPI_OUTPUT_REPLACE writes a fresh
 *     temporary file ".NAME.slpi-PID-XXXXXX" in the same folder (PID the writer's process
 *     id; through a symbolic link:
 *     in the folder of its target, so the link survives), and slpi_output_commit
 *     flushes, fsyncs, renames it over PATH and fsyncs the folder. Until then PATH is
 *     untouched: an input error, a write error or a killed process leaves the old PATH
 *     as it was. From open to commit or abort the process holds PATH's writer lock
 *     (take_writer_lock): a second writer of PATH is refused at open, never the last
 *     one to win. slpi_output_abort removes only that temporary file.
 *     slpi_output_publish renames early and keeps writing into the published file
 *     (a streamed output whose valid prefix must be visible: checkpointed runs), which
 *     it locks (fcntl(2), whole file) for the rest of the run. A PATH that another
 *     process holds locked (a live resume, a checkpointed run writing it) is refused
 *     at open and at the rename, exactly as SLPI_OUTPUT_UPDATE refuses it.
 *     SIGINT, SIGTERM, SIGHUP and SIGPIPE remove the temporary files (pending_add; the
 *     `slpi` command's own SIGINT handler, core/interrupt.c, calls
 *     slpi_output_remove_pending); only SIGKILL or a crash can leave one behind, and the
 *     next writer of PATH removes it (remove_stale: under PATH's writer lock, a
 *     ".NAME.slpi-PID-XXXXXX" whose process PID is gone).
 *   - SLPI_OUTPUT_UPDATE opens an existing regular file for update in place (resuming
 *     a checkpointed run), under an exclusive fcntl(2) lock that a second writer is
 *     refused, be it another resumer or the run that wrote the checkpoint and still
 *     writes (its published output is locked); abort leaves it as it is.
 * Every failure is reported as "PATH: what: strerror" and is an error of the command
 * (SLPI_EINPUT): a lost report is never an exit 0.
 *
 * slpi_output_check_paths refuses an output that is also an input or another output
 * of the same command: by device and inode when both exist, else by normalized path
 * (the real path of the folder plus the last component). Existing non-regular files
 * (/dev/null, FIFOs) may be named twice: writing them twice loses nothing. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <stddef.h>

#include "core/output.h"
#include "slpi/errors.h"
#include "slpi/output.h"
#include "slpi/limits.h"
#include "core/command.h"

/* Temporary files not yet renamed, removed if the process is ended by SIGINT, SIGTERM,
 * SIGHUP or SIGPIPE (handlers installed only where the disposition is the default, which would
 * end the process anyway; they unlink and re-raise). Slots are claimed and released
 * by one atomic flag each, so the handler only reads names that are complete. */
#define PENDING_MAX 16
static char pending_name[PENDING_MAX][SLPI_PATH_MAX + 64];
static volatile sig_atomic_t pending_used[PENDING_MAX];

void slpi_output_remove_pending(void)
{
    for (int i = 0; i < PENDING_MAX; i++)
        if (pending_used[i]) unlink(pending_name[i]);
}

static void remove_pending(int sig)
{
    slpi_output_remove_pending();
    signal(sig, SIG_DFL);
    raise(sig);
}

static int pending_add(const char *name)
{
    static int installed;
    if (!installed) {
        static const int sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGPIPE };
        for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
            struct sigaction old, sa;
            memset(&sa, 0, sizeof sa);
            sa.sa_handler = remove_pending;
            sigemptyset(&sa.sa_mask);
            if (sigaction(sigs[i], NULL, &old) == 0 && old.sa_handler == SIG_DFL) sigaction(sigs[i], &sa, NULL);
        }
        installed = 1;
    }
    for (int i = 0; i < PENDING_MAX; i++)
        if (!pending_used[i] && strlen(name) < sizeof pending_name[i]) {
            strcpy(pending_name[i], name);
            pending_used[i] = 1;
            return i;
        }
    return -1; /* more than PENDING_MAX at once: that one is not cleaned up on a signal */
}

static void pending_drop(int slot)
{
    if (slot >= 0) pending_used[slot] = 0;
}

/* Block the signals whose handler removes the pending files, for the few calls between
 * creating a lock file or a temporary output and naming it pending (and between
 * unlinking a lock file and forgetting it): a signal there would leave the file behind,
 * or remove a successor's lock. A signal that arrives meanwhile is delivered when the
 * mask is restored. */
static void hold_signals(sigset_t *old)
{
    sigset_t s;
    sigemptyset(&s);
    sigaddset(&s, SIGINT);
    sigaddset(&s, SIGTERM);
    sigaddset(&s, SIGHUP);
    sigaddset(&s, SIGPIPE);
    sigprocmask(SIG_BLOCK, &s, old);
}

struct slpi_output {
    FILE *f;
    char *path;       /* the name given (for messages) */
    char *target;     /* the regular file that commit renames over (symlinks resolved) */
    char *tmp;        /* our temporary file, NULL once renamed or when writing in place */
    int pending;      /* its slot in pending_name (-1: none) */
    char *lock;       /* the writer's lock file ".NAME.slpi-lock" beside target (NULL: none) */
    int lock_fd;      /* its descriptor, flock(2)ed exclusively from open to release (-1: none) */
    int lock_pending; /* its slot in pending_name (-1: none) */
    int is_stdout;
    int regular; /* f is a regular file: fsync it */
};

static int fail(slpi_error *err, const char *path, const char *what)
{
    return slpi_error_set(err, SLPI_EINPUT, "%s: %s: %s", path, what, strerror(errno));
}

/* The folder of path (malloc'd; "." for a bare name); NULL when out of memory. */
static char *folder_of(const char *path)
{
    char *copy = strdup(path);
    if (!copy) return NULL;
    char *d = strdup(dirname(copy));
    free(copy);
    return d;
}

static void sync_folder_of(const char *path)
{
    char *dir = folder_of(path);
    if (!dir) return; /* best effort, as below */
    int fd = open(dir, O_RDONLY);
    if (fd >= 0) {
        fsync(fd); /* best effort: some file systems refuse fsync on folders */
        close(fd);
    }
    free(dir);
}

static void release(slpi_output *o)
{
    pending_drop(o->pending);
    sigset_t old;
    hold_signals(&old);
    if (o->lock) unlink(o->lock); /* still held: no other writer can have it */
    pending_drop(o->lock_pending);
    if (o->lock_fd >= 0) close(o->lock_fd);
    sigprocmask(SIG_SETMASK, &old, NULL);
    free(o->lock);
    free(o->path);
    free(o->target);
    free(o->tmp);
    free(o);
}

int slpi_output_is_stale(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    if (strncmp(name, prefix, n) != 0) return 0;
    const char *pid = name + n, *e = pid;
    while (*e >= '0' && *e <= '9' && e - pid < 10) e++;
    if (e == pid || *pid == '0' || *e != '-') return 0;
    for (int i = 1; i <= 6; i++) /* mkstemp's and mkdtemp's letters */
        if (!((e[i] >= 'A' && e[i] <= 'Z') || (e[i] >= 'a' && e[i] <= 'z') || (e[i] >= '0' && e[i] <= '9'))) return 0;
    if (e[7]) return 0;
    long id = strtol(pid, NULL, 10);
    return id <= INT_MAX && kill((pid_t)id, 0) != 0 && errno == ESRCH;
}

/* Remove the temporary files of base that writers ended by SIGKILL or a crash left in
 * dir: ".BASE.slpi-PID-XXXXXX", regular files, whose process PID is gone. Called under
 * base's writer lock, so that no live slpi writes base meanwhile (a process of another
 * machine sharing the folder included, whose PID means nothing here); nothing else is
 * touched, not even another output's temporary file. Best effort: out of memory, or a
 * folder that cannot be read, removes nothing. */
static void remove_stale(const char *dir, const char *base)
{
    size_t n = strlen(base) + 8;
    char *prefix = malloc(n);
    DIR *d = prefix ? opendir(dir) : NULL;
    if (prefix) snprintf(prefix, n, ".%s.slpi-", base);
    for (struct dirent *e; d && (e = readdir(d));) {
        if (!slpi_output_is_stale(e->d_name, prefix)) continue;
        size_t m = strlen(dir) + strlen(e->d_name) + 2;
        char *file = malloc(m);
        struct stat st;
        if (file) snprintf(file, m, "%s/%s", dir, e->d_name);
        if (file && lstat(file, &st) == 0 && S_ISREG(st.st_mode)) unlink(file);
        free(file);
    }
    if (d) closedir(d);
    free(prefix);
}

/* A temporary file beside target, with the mode a new (or the replaced) file gets; the
 * ones of target that dead writers left are removed first. */
static int open_temp(slpi_output *o, const struct stat *old, slpi_error *err)
{
    char *dir = folder_of(o->target), *copy = strdup(o->target);
    const char *base = copy ? basename(copy) : NULL;
    size_t n = dir && base ? strlen(dir) + strlen(base) + 48 : 0;
    if (!n || !(o->tmp = malloc(n))) {
        free(dir);
        free(copy);
        return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", o->path);
    }
    remove_stale(dir, base);
    snprintf(o->tmp, n, "%s/.%s.slpi-%ld-XXXXXX", dir, base, (long)getpid());
    free(dir);
    free(copy);
    sigset_t held;
    hold_signals(&held); /* a signal between creating the file and naming it pending would leave it */
    int fd = mkstemp(o->tmp);
    if (fd >= 0) o->pending = pending_add(o->tmp);
    sigprocmask(SIG_SETMASK, &held, NULL);
    if (fd < 0) {
        int rc = fail(err, o->path, "cannot write (a temporary file in its folder)");
        free(o->tmp);
        o->tmp = NULL;
        return rc;
    }
    mode_t mask = umask(0);
    umask(mask);
    fchmod(fd, old ? (old->st_mode & 07777) : (0666 & ~mask));
    if (old) (void)fchown(fd, old->st_uid, old->st_gid); /* best effort: keep the replaced file's owner */
    o->f = fdopen(fd, "w+");
    if (!o->f) {
        int rc = fail(err, o->path, "cannot open");
        close(fd);
        unlink(o->tmp);
        pending_drop(o->pending);
        o->pending = -1;
        return rc;
    }
    o->regular = 1;
    return SLPI_OK;
}

/* The writer's lock (docs/conventions.md#outputs): every process that writes a regular file
 * PATH, fresh (REPLACE) or in place (UPDATE), holds an exclusive flock(2) on ".NAME.slpi-lock"
 * in the folder of its target from slpi_output_open to commit or abort; a second writer
 * of PATH is refused at open ("in use by another process"), before it computes anything.
 * flock, not fcntl: it binds the open file, so two outputs of one process refuse each
 * other too, and closing another descriptor of the file releases nothing. The file is
 * removed at release while still locked (and by the signal handler, as the temporary
 * files); a writer that locked a file unlinked meanwhile (its holder released it)
 * finds the name gone or another inode and tries again. A process's exit releases the
 * lock whatever the path (a crash, SIGKILL: an unlocked empty file may stay, which the
 * next writer takes over). In place (UPDATE), a folder where no lock file can be made
 * admits no fresh writer either (its temporary file): the target's own lock suffices. */
static int take_writer_lock(slpi_output *o, int in_place, slpi_error *err)
{
    char *dir = folder_of(o->target), *copy = strdup(o->target);
    const char *base = copy ? basename(copy) : NULL;
    size_t n = dir && base ? strlen(dir) + strlen(base) + 16 : 0;
    o->lock = n ? malloc(n) : NULL;
    if (o->lock) snprintf(o->lock, n, "%s/.%s.slpi-lock", dir, base);
    free(dir);
    free(copy);
    if (!o->lock) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", o->path);
    for (int attempt = 0; attempt < 64; attempt++) {
        sigset_t old;
        hold_signals(&old);
        int fd = open(o->lock, O_RDWR | O_CREAT | O_CLOEXEC, 0666), e = errno, locked = 0;
        if (fd >= 0) {
            locked = flock(fd, LOCK_EX | LOCK_NB) == 0;
            e = errno;
            struct stat held, named;
            if (locked && fstat(fd, &held) == 0 && stat(o->lock, &named) == 0 && held.st_dev == named.st_dev &&
                held.st_ino == named.st_ino) {
                o->lock_fd = fd;
                o->lock_pending = pending_add(o->lock);
                sigprocmask(SIG_SETMASK, &old, NULL);
                return SLPI_OK;
            }
            close(fd); /* not ours, or unlinked by its last holder after we opened it */
        }
        sigprocmask(SIG_SETMASK, &old, NULL);
        if (fd < 0) {
            free(o->lock);
            o->lock = NULL;
            if (in_place && (e == EACCES || e == EROFS || e == EPERM)) return SLPI_OK;
            errno = e;
            return fail(err, o->path, "cannot write (its lock file in its folder)");
        }
        if (!locked) {
            free(o->lock);
            o->lock = NULL;
            if (e == EWOULDBLOCK)
                return slpi_error_set(err, SLPI_EINPUT, "%s: in use by another process (locked): not written", o->path);
            errno = e;
            return fail(err, o->path, "cannot lock its lock file");
        }
    }
    free(o->lock);
    o->lock = NULL;
    return slpi_error_set(err, SLPI_EINPUT, "%s: in use by another process (locked): not written", o->path);
}

static int lock_whole(int fd)
{
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    return fcntl(fd, F_SETLK, &l);
}

/* 1 if another process holds a lock on the file target (a live --resume, or a
 * checkpointed run that writes it, or a program of the user's): such a file is never
 * replaced, neither when the output is opened nor at the rename (checked again just
 * before it). Only asked (F_GETLK), never taken: two slpi writers of one PATH refuse
 * each other by the writer's lock (take_writer_lock). */
static int locked_by_other(const char *target)
{
    int fd = open(target, O_RDONLY);
    if (fd < 0) return 0;
    struct flock l;
    memset(&l, 0, sizeof l);
    l.l_type = F_WRLCK;
    l.l_whence = SEEK_SET;
    int locked = fcntl(fd, F_GETLK, &l) == 0 && l.l_type != F_UNLCK;
    close(fd);
    return locked;
}

/* rename(tmp, target) unless another process holds target locked. */
static int replace_target(slpi_output *o, slpi_error *err)
{
    if (locked_by_other(o->target))
        return slpi_error_set(err, SLPI_EINPUT, "%s: in use by another process (locked): not replaced", o->path);
    return rename(o->tmp, o->target) != 0 ? fail(err, o->path, "cannot rename the temporary file over it") : SLPI_OK;
}

int slpi_output_open(slpi_output **out, const char *path, slpi_output_mode mode, slpi_error *err)
{
    *out = NULL;
    if (path && !*path)
        return slpi_error_set(err, SLPI_EINPUT, "'': an empty file name (give a file, or - for standard output)");
    slpi_output *o = calloc(1, sizeof *o);
    if (!o) return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", path ? path : "standard output");
    o->pending = o->lock_pending = o->lock_fd = -1;
    o->path = strdup(!path || strcmp(path, "-") == 0 ? "standard output" : path);
    if (!o->path) {
        release(o);
        return slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", path ? path : "standard output");
    }
    if (!path || strcmp(path, "-") == 0) {
        o->f = stdout;
        o->is_stdout = 1;
        *out = o;
        return SLPI_OK;
    }
    struct stat st, lst;
    int exists = stat(path, &st) == 0, stat_errno = errno;
    int rc = SLPI_OK;
    if (!exists && lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: a symbolic link to a missing file: not written", path);
    } else if (!exists && stat_errno != ENOENT) {
        errno = stat_errno;
        rc = fail(err, path, "cannot write");
    } else if (exists && S_ISDIR(st.st_mode)) {
        rc = slpi_error_set(err, SLPI_EINPUT, "%s: is a directory", path);
    } else if (mode == SLPI_OUTPUT_UPDATE) {
        int fd = -1;
        if (!exists || !S_ISREG(st.st_mode))
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: %s", path,
                                exists ? "not a regular file: cannot be updated in place"
                                       : "cannot write: no such file to update");
        else if (!(o->target = realpath(path, NULL)))
            rc = fail(err, path, "cannot resolve");
        else if ((rc = take_writer_lock(o, 1, err)) != SLPI_OK)
            ;
        else if ((fd = open(path, O_RDWR)) < 0)
            rc = fail(err, path, "cannot open for update");
        else if (lock_whole(fd) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: in use by another process (locked): not written", path);
        else if (!(o->f = fdopen(fd, "r+")))
            rc = fail(err, path, "cannot open for update");
        if (rc != SLPI_OK && fd >= 0) close(fd);
        o->regular = 1;
    } else if (exists && !S_ISREG(st.st_mode)) {
        /* a device or a FIFO: written in place, never removed */
        if (!(o->f = fopen(path, "w"))) rc = fail(err, path, "cannot write");
    } else {
        o->target = exists ? realpath(path, NULL) : strdup(path);
        if (!o->target)
            rc = exists ? fail(err, path, "cannot resolve")
                        : slpi_error_set(err, SLPI_EINPUT, "%s: out of memory", path);
        else if (exists && locked_by_other(o->target))
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: in use by another process (locked): not written", path);
        else if ((rc = take_writer_lock(o, 0, err)) == SLPI_OK)
            rc = open_temp(o, exists ? &st : NULL, err);
    }
    if (rc != SLPI_OK) {
        release(o);
        return rc;
    }
    *out = o;
    return SLPI_OK;
}

FILE *slpi_output_file(const slpi_output *o)
{
    return o->f;
}

const char *slpi_output_name(const slpi_output *o)
{
    return o->path;
}

/* Flush, and fsync a regular file. */
static int flush_out(slpi_output *o, slpi_error *err)
{
    if (fflush(o->f) != 0 || ferror(o->f)) {
        if (!errno) errno = EIO;
        return fail(err, o->path, "write error");
    }
    if (o->regular && fsync(fileno(o->f)) != 0) return fail(err, o->path, "write error (fsync)");
    return SLPI_OK;
}

int slpi_output_publish(slpi_output *o, slpi_error *err)
{
    if (!o->tmp) return SLPI_OK;
    int rc = flush_out(o, err);
    /* the published file stays locked until this process closes it: a --resume of its
     * checkpoint (SLPI_OUTPUT_UPDATE) is refused while this writer lives */
    if (rc == SLPI_OK && lock_whole(fileno(o->f)) != 0) rc = fail(err, o->path, "cannot lock the output");
    if (rc == SLPI_OK) rc = replace_target(o, err);
    if (rc != SLPI_OK) return rc;
    pending_drop(o->pending);
    o->pending = -1;
    free(o->tmp);
    o->tmp = NULL;
    sync_folder_of(o->target);
    return SLPI_OK;
}

int slpi_output_commit(slpi_output *o, slpi_error *err)
{
    if (!o) return SLPI_OK;
    int rc = flush_out(o, err);
    if (o->is_stdout) {
        release(o);
        return rc;
    }
    if (fclose(o->f) != 0 && rc == SLPI_OK) rc = fail(err, o->path, "write error (close)");
    o->f = NULL;
    if (rc == SLPI_OK && o->tmp) {
        if ((rc = replace_target(o, err)) == SLPI_OK) sync_folder_of(o->target);
    }
    if (rc == SLPI_OK) {
        free(o->tmp);
        o->tmp = NULL;
    }
    if (o->tmp) unlink(o->tmp);
    release(o);
    return rc;
}

void slpi_output_abort(slpi_output *o)
{
    if (!o) return;
    if (o->is_stdout) {
        fflush(stdout);
    } else {
        if (o->f) fclose(o->f);
        if (o->tmp) unlink(o->tmp); /* only the temporary file this process created */
    }
    release(o);
}

/* ------------------------------------------------------------- same-file checks */

/* path with its folder resolved (malloc'd; NULL when out of memory): "dir/../x" and "./x" name one file. */
static char *normalized(const char *path)
{
    char *dir = folder_of(path), *copy = strdup(path);
    char *rdir = dir ? realpath(dir, NULL) : NULL;
    const char *base = copy ? basename(copy) : NULL;
    size_t n = dir && base ? strlen(rdir ? rdir : dir) + strlen(base) + 2 : 0;
    char *s = n ? malloc(n) : NULL;
    if (s) snprintf(s, n, "%s/%s", rdir ? rdir : dir, base);
    free(rdir);
    free(dir);
    free(copy);
    return s;
}

static int slpi_output_same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    int ea = stat(a, &sa) == 0, eb = stat(b, &sb) == 0;
    if (ea && eb) return sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
    if (ea != eb) return 0;
    char *na = normalized(a), *nb = normalized(b);
    int same = na && nb ? strcmp(na, nb) == 0 : strcmp(a, b) == 0; /* (out of memory: the names as given) */
    free(na);
    free(nb);
    return same;
}

static int named(const char *p)
{
    return p && *p && strcmp(p, "-") != 0;
}

static int non_regular(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && !S_ISREG(st.st_mode);
}

int slpi_output_check_paths(int nout, const char *const *out, const char *const *out_role, int nin,
                            const char *const *in, const char *const *in_role, slpi_error *err)
{
    for (int i = 0; i < nout; i++) {
        if (out[i] && !*out[i])
            return slpi_error_set(err, SLPI_EINPUT,
                                  "%s '': an empty file name (give a file, or - for standard "
                                  "output)",
                                  out_role[i]);
        if (!named(out[i]) || non_regular(out[i])) continue;
        for (int j = i + 1; j < nout; j++)
            if (named(out[j]) && slpi_output_same_file(out[i], out[j]))
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s %s and %s %s name the same file: one output would "
                                      "replace the other",
                                      out_role[i], out[i], out_role[j], out[j]);
        for (int j = 0; j < nin; j++)
            if (named(in[j]) && slpi_output_same_file(out[i], in[j]))
                return slpi_error_set(err, SLPI_EINPUT,
                                      "%s %s is also the input %s %s: refusing to overwrite "
                                      "an input",
                                      out_role[i], out[i], in_role[j], in[j]);
    }
    return SLPI_OK;
}

int slpi_output_close_stdout(slpi_error *err)
{
    if (fflush(stdout) != 0 || ferror(stdout)) {
        if (!errno) errno = EIO;
        return fail(err, "standard output", "write error");
    }
    return SLPI_OK;
}
