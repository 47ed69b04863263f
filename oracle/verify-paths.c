/* verify-paths.c — many noise paths in one trajectory file (oracle/README.md#many-paths):
 * a file whose column line names a column `path` holds the rows of several paths of one
 * problem, each row the state of the noise path its `path` column names (the header's
 * path= is replaced by it), in any interleaving (path by path, or step by step as a
 * batched port writes them). Before anything is verified, such a file is split into one
 * file per path in a private temporary folder (header as given, path=K, the header's
 * x0_file=/noise_file=/noise_fields= with `{path}` replaced by K and made absolute
 * against the original's folder; that path's rows in their order), named
 * FILE#path=K (FILE as given) in the report and messages whatever the folder's name,
 * and these are verified as the pooled files they are. The folder
 * ($TMPDIR/slpi-verify-PID-XXXXXX, PID this process's id) and the files in it are this
 * run's and are removed at its end; the ones of verify runs that are gone (SIGKILL, a
 * crash) the next split removes (docs/conventions.md#stale). Memory: the file once. */
#define _XOPEN_SOURCE 700 /* realpath, mkdtemp */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "slpi/errors.h"
#include "slpi/tools.h"
#include "slpi/limits.h"
#include "oracle/oracle.h"
#include "core/command.h"

/* The whole of a regular file in memory, NUL-terminated; NULL when it is not one
 * (a FIFO is read once, by the verifier, and holds one path). */
static char *slurp(const char *path, size_t *len)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return NULL;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *buf = malloc((size_t)st.st_size + 1);
    size_t n = buf ? fread(buf, 1, (size_t)st.st_size, f) : 0;
    fclose(f);
    if (!buf) return NULL;
    buf[n] = 0;
    *len = n;
    return buf;
}

/* Whether the column line of the regular file `path` (the first line after its `#`
 * header) names a column `path`: read a line at a time, so that a file without one is
 * never held in memory (verify streams it, t-verify-stream). */
static int names_path_column(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0 || !S_ISREG(st.st_mode)) return 0;
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int found = 0;
    while ((n = getline(&line, &cap, f)) > 0 && line[0] == '#') {
    }
    for (char *s = n > 0 ? strtok(line, "\t\r\n") : NULL; s && !found; s = strtok(NULL, "\t\r\n"))
        found = strcmp(s, "path") == 0;
    free(line);
    fclose(f);
    return found;
}

/* The field `col` (0-based) of the tab-separated line [s, e): its start and length. */
static int field_of(const char *s, const char *e, int col, const char **f, size_t *n)
{
    for (int c = 0; c < col; c++) {
        const char *t = memchr(s, '\t', (size_t)(e - s));
        if (!t) return -1;
        s = t + 1;
    }
    const char *t = memchr(s, '\t', (size_t)(e - s));
    *f = s;
    *n = (size_t)((t ? t : e) - s);
    return 0;
}

typedef struct {
    uint64_t path;
    size_t seq, off, len; /* the row's order in the file, and its line */
} path_row;

static int cmp_row(const void *a, const void *b)
{
    const path_row *x = a, *y = b;
    if (x->path != y->path) return x->path < y->path ? -1 : 1;
    return (x->seq > y->seq) - (x->seq < y->seq);
}

/* A header value with `{path}` replaced by k, made absolute against dir when relative
 * and non-empty. */
static void header_value(const char *val, size_t n, uint64_t k, const char *dir, char *out, size_t cap)
{
    char v[2 * SLPI_PATH_MAX];
    size_t o = 0;
    for (size_t i = 0; i < n && o + 24 < sizeof v; i++) {
        if (n - i >= 6 && memcmp(val + i, "{path}", 6) == 0) {
            o += (size_t)snprintf(v + o, sizeof v - o, "%llu", (unsigned long long)k);
            i += 5;
        } else
            v[o++] = val[i];
    }
    v[o] = 0;
    if (v[0] && v[0] != '/')
        snprintf(out, cap, "%s/%s", dir, v);
    else
        snprintf(out, cap, "%s", v);
}

/* Write path k's file: the header with path=k (replacing the header's, or added at its
 * end), the file references resolved, the column line, the path's rows. */
static int write_path(const char *out, const char *buf, size_t head_end, size_t colline, size_t colend,
                      const path_row *rows, size_t nrows, uint64_t k, const char *dir)
{
    FILE *f = fopen(out, "w");
    if (!f) return -1;
    int have_path = 0;
    for (size_t p = 0; p < head_end;) {
        const char *s = buf + p, *nl = memchr(s, '\n', head_end - p);
        size_t len = nl ? (size_t)(nl - s) : head_end - p;
        const char *kv = s + 1;
        while (kv < s + len && *kv == ' ') kv++;
        const char *eq = memchr(kv, '=', (size_t)(s + len - kv));
        size_t klen = eq ? (size_t)(eq - kv) : 0;
        if (eq && klen == 4 && !memcmp(kv, "path", 4)) {
            fprintf(f, "# path=%llu\n", (unsigned long long)k);
            have_path = 1;
        } else if (eq &&
                   ((klen == 10 && !memcmp(kv, "noise_file", 10)) || (klen == 7 && !memcmp(kv, "x0_file", 7)) ||
                    (klen == 12 && !memcmp(kv, "noise_fields", 12)))) {
            char v[4 * SLPI_PATH_MAX];
            size_t vlen = (size_t)(s + len - eq - 1);
            while (vlen > 0 && (eq[vlen] == '\r' || eq[vlen] == ' ')) vlen--;
            header_value(eq + 1, vlen, k, dir, v, sizeof v);
            fprintf(f, "# %.*s=%s\n", (int)klen, kv, v);
        } else
            fprintf(f, "%.*s\n", (int)len, s);
        p += len + 1;
    }
    if (!have_path) fprintf(f, "# path=%llu\n", (unsigned long long)k);
    fprintf(f, "%.*s\n", (int)(colend - colline), buf + colline);
    for (size_t i = 0; i < nrows; i++) fprintf(f, "%.*s\n", (int)rows[i].len, buf + rows[i].off);
    int bad = ferror(f);
    return fclose(f) == 0 && !bad ? 0 : -1;
}

/* The folder of path, absolute. */
static void folder_of(const char *path, char *out, size_t cap)
{
    char dir[SLPI_PATH_MAX], abs[PATH_MAX];
    const char *slash = strrchr(path, '/');
    if (slash)
        snprintf(dir, sizeof dir, "%.*s", (int)(slash - path) + (slash == path), path);
    else
        snprintf(dir, sizeof dir, ".");
    snprintf(out, cap, "%s", realpath(dir, abs) ? abs : dir);
}

/* Whether name is one of split_file's: digits, '-', anything, "#path=", digits. */
static int split_name(const char *name)
{
    const char *s = name;
    while (*s >= '0' && *s <= '9') s++;
    const char *k = strrchr(s, '#');
    if (s == name || *s != '-' || !k || strncmp(k, "#path=", 6) != 0 || !k[6]) return 0;
    for (k += 6; *k >= '0' && *k <= '9';) k++;
    return *k == 0;
}

/* Remove the private folders in tmp of verify runs that are gone: a folder named
 * slpi-verify-PID-XXXXXX whose process is gone (slpi_output_is_stale), its split files
 * (split_name, regular files) and then it, if nothing else is in it. Best effort. */
static void remove_stale(const char *tmp)
{
    DIR *d = opendir(tmp);
    for (struct dirent *e; d && (e = readdir(d));) {
        char dir[SLPI_PATH_MAX], file[2 * SLPI_PATH_MAX];
        struct stat st;
        if (!slpi_output_is_stale(e->d_name, "slpi-verify-") ||
            snprintf(dir, sizeof dir, "%s/%s", tmp, e->d_name) >= (int)sizeof dir || lstat(dir, &st) != 0 ||
            !S_ISDIR(st.st_mode))
            continue;
        DIR *f = opendir(dir);
        for (struct dirent *g; f && (g = readdir(f));)
            if (split_name(g->d_name) && snprintf(file, sizeof file, "%s/%s", dir, g->d_name) < (int)sizeof file &&
                lstat(file, &st) == 0 && S_ISREG(st.st_mode))
                unlink(file);
        if (f) closedir(f);
        rmdir(dir);
    }
    if (d) closedir(d);
}

/* The private folder, made at the first file with a `path` column (the dead runs' removed
 * first). */
static int make_dir(slpi_verify_paths *sp, slpi_error *err)
{
    if (sp->made) return SLPI_OK;
    const char *tmp = getenv("TMPDIR");
    tmp = tmp && tmp[0] ? tmp : "/tmp";
    remove_stale(tmp);
    snprintf(sp->dir, sizeof sp->dir, "%s/slpi-verify-%ld-XXXXXX", tmp, (long)getpid());
    if (mkdtemp(sp->dir)) return sp->made = 1, SLPI_OK;
    int rc = slpi_error_set(err, SLPI_EINPUT,
                            "verify: cannot make a temporary folder %s for the paths of a file "
                            "with a 'path' column: %s (set TMPDIR)",
                            sp->dir, strerror(errno));
    sp->dir[0] = 0;
    return rc;
}

/* Split one file with a `path` column, appending its paths' files to sp (*split = 1);
 * a file without one stays as it is (*split = 0). */
static int split_file(const char *path, slpi_verify_paths *sp, int *split, slpi_error *err)
{
    *split = 0;
    if (!names_path_column(path)) return SLPI_OK; /* read as it streams, never held whole */
    size_t len = 0;
    char *buf = slurp(path, &len);
    if (!buf) return SLPI_OK;
    size_t p = 0;
    while (p < len && buf[p] == '#') { /* the header */
        char *nl = memchr(buf + p, '\n', len - p);
        p = nl ? (size_t)(nl - buf) + 1 : len;
    }
    size_t head_end = p, colline = p;
    char *nl = memchr(buf + p, '\n', len - p);
    size_t colend = nl ? (size_t)(nl - buf) : len;
    if (colend > colline && buf[colend - 1] == '\r') colend--;
    int col = -1, c = 0;
    for (const char *s = buf + colline; s <= buf + colend; c++) {
        const char *t = memchr(s, '\t', (size_t)(buf + colend - s));
        const char *e = t ? t : buf + colend;
        if (e - s == 4 && !memcmp(s, "path", 4)) col = c;
        if (!t) break;
        s = t + 1;
    }
    if (col < 0) {
        free(buf);
        return SLPI_OK;
    }
    *split = 1;
    size_t cap = 1024, n = 0, line = 1;
    for (size_t q = 0; q < colline; q++) line += buf[q] == '\n';
    path_row *rows = malloc(cap * sizeof *rows);
    int rc = rows ? make_dir(sp, err) : slpi_error_set(err, SLPI_EINPUT, "%s: out of memory splitting its paths", path);
    for (p = nl ? colend + 1 : len; rc == SLPI_OK && p < len;) {
        char *e = memchr(buf + p, '\n', len - p);
        size_t end = e ? (size_t)(e - buf) : len, l = end - p;
        line++;
        if (l > 0 && buf[end - 1] == '\r') l--;
        if (l > 0 && buf[p] != '#') {
            const char *f;
            size_t fl;
            char digits[32];
            char *stop;
            if (field_of(buf + p, buf + p + l, col, &f, &fl) != 0 || fl == 0 || fl >= sizeof digits)
                rc = slpi_error_set(err, SLPI_EINPUT, "%s:%zu: no value in the column 'path'", path, line);
            else {
                memcpy(digits, f, fl);
                digits[fl] = 0;
                errno = 0;
                unsigned long long k = strtoull(digits, &stop, 10);
                if (*stop || digits[0] < '0' || digits[0] > '9' || errno)
                    rc = slpi_error_set(err, SLPI_EINPUT,
                                        "%s:%zu: path '%s' is not a noise path's number "
                                        "(a non-negative integer, as the header's path= takes)",
                                        path, line, digits);
                if (rc == SLPI_OK && n == cap) {
                    path_row *m = realloc(rows, 2 * cap * sizeof *rows);
                    if (m)
                        rows = m, cap *= 2;
                    else
                        rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory splitting its paths", path);
                }
                if (rc == SLPI_OK) rows[n] = (path_row){ k, n, p, l }, n++;
            }
        }
        p = end + 1;
    }
    qsort(rows, n, sizeof *rows, cmp_row);
    char dir[SLPI_PATH_MAX];
    folder_of(path, dir, sizeof dir);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (rc == SLPI_OK && n == 0) rc = slpi_error_set(err, SLPI_EINPUT, "%s: no rows", path);
    for (size_t i = 0; rc == SLPI_OK && i < n;) {
        size_t j = i;
        while (j < n && rows[j].path == rows[i].path) j++;
        char out[SLPI_PATH_MAX + 300];
        snprintf(out, sizeof out, "%s/%ld-%.200s#path=%llu", sp->dir, sp->n, base, (unsigned long long)rows[i].path);
        if (write_path(out, buf, head_end, colline, colend, rows + i, j - i, rows[i].path, dir) != 0)
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: cannot write its path %llu into %s: %s", path,
                                (unsigned long long)rows[i].path, sp->dir, strerror(errno));
        if (rc == SLPI_OK && sp->n == sp->cap) {
            long nc = sp->cap ? 2 * sp->cap : 64;
            char **m = realloc(sp->file, (size_t)nc * sizeof *m), **s = NULL;
            if (m) sp->file = m;
            if (m && (s = realloc(sp->name, (size_t)nc * sizeof *s))) sp->name = s;
            if (s)
                sp->cap = nc;
            else
                rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory splitting its paths", path);
        }
        size_t nl = strlen(path) + 32;
        char *f = rc == SLPI_OK ? strdup(out) : NULL, *name = f ? malloc(nl) : NULL;
        if (name) snprintf(name, nl, "%s#path=%llu", path, (unsigned long long)rows[i].path);
        if (rc == SLPI_OK && !name) {
            free(f);
            rc = slpi_error_set(err, SLPI_EINPUT, "%s: out of memory splitting its paths", path);
        }
        if (rc == SLPI_OK)
            sp->file[sp->n] = f, sp->name[sp->n++] = name;
        else
            unlink(out);
        i = j;
    }
    free(rows);
    free(buf);
    return rc;
}

int slpi_verify_paths_split(slpi_verify_paths *sp, int n, const char *const *paths, slpi_error *err)
{
    memset(sp, 0, sizeof *sp);
    long *from = malloc(2 * ((size_t)n + 1) * sizeof *from), *to = from ? from + n + 1 : NULL;
    int rc = from ? SLPI_OK : slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    long total = 0;
    for (int i = 0; rc == SLPI_OK && i < n; i++) { /* [from[i], to[i]): file i's paths; -1: not split */
        int split = 0;
        from[i] = sp->n;
        rc = split_file(paths[i], sp, &split, err);
        to[i] = sp->n;
        if (!split) from[i] = -1;
        total += split ? to[i] - from[i] : 1;
    }
    /* the list: each file in order, a split one replaced by its paths */
    if (rc == SLPI_OK &&
        (!(sp->list = malloc(((size_t)total + 1) * sizeof *sp->list)) ||
         !(sp->shown = malloc(((size_t)total + 1) * sizeof *sp->shown))))
        rc = slpi_error_set(err, SLPI_EINPUT, "verify: out of memory");
    for (int i = 0; rc == SLPI_OK && i < n; i++) {
        if (from[i] < 0)
            sp->shown[sp->nlist] = paths[i], sp->list[sp->nlist++] = paths[i];
        else
            for (long k = from[i]; k < to[i]; k++)
                sp->shown[sp->nlist] = sp->name[k], sp->list[sp->nlist++] = sp->file[k];
    }
    free(from);
    return rc;
}

void slpi_verify_paths_clear(slpi_verify_paths *sp)
{
    for (long i = 0; i < sp->n; i++) {
        unlink(sp->file[i]);
        free(sp->file[i]);
        free(sp->name[i]);
    }
    if (sp->made) rmdir(sp->dir);
    free(sp->file);
    free(sp->name);
    free(sp->list);
    free(sp->shown);
    memset(sp, 0, sizeof *sp);
}
