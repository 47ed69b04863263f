/* audit-words.c — the audit's results in words beside the numbers: the archived FULL=1 run (reports/full: its verdicts, numbers and revisions), for the
 * report (reports/audit-report.c) and the audit's summary. */
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <stddef.h>

#include "slpi/limits.h"
#include "core/blas.h"
#include "core/digest.h"
#include "reports/audit-checks.h"

/* The archived FULL=1 run (reports/full/claims.json), if any. */
json_t *slpi_audit_archive_claim(json_t *arch, const char *id)
{
    json_t *arr = json_object_get(arch, "claims");
    for (size_t i = 0; i < json_array_size(arr); i++) {
        json_t *o = json_array_get(arr, i);
        const char *cid = json_string_value(json_object_get(o, "id"));
        if (cid && !strcmp(cid, id)) return o;
    }
    return NULL;
}

/* The revision (git_rev=) in the provenance of an archive or of one of its runs, into
 * buf; "?" when it names none. */
const char *slpi_audit_archive_rev(json_t *o, char *buf, size_t n)
{
    const char *prov = json_string_value(json_object_get(o, "provenance"));
    const char *rev = prov ? strstr(prov, "git_rev=") : NULL;
    snprintf(buf, n, "%.*s", rev ? (int)strcspn(rev + 8, "\n") : 1, rev ? rev + 8 : "?");
    return buf;
}

/* A claim added to the archive by a run of its own (reports/archive-full.sh --add): that
 * run's date and revision after the words, since the archive's header names another run. */
static void run_words(json_t *o, char *out, size_t n)
{
    json_t *run = json_object_get(o, "run");
    if (!run) return;
    const char *date = json_string_value(json_object_get(run, "date"));
    char rev[64];
    size_t len = strlen(out);
    if (len < n)
        snprintf(out + len, n - len, " (its own run: %s, revision %s)", date ? date : "undated",
                 slpi_audit_archive_rev(run, rev, sizeof rev));
}

/* The archived verdict of claim cl differs from the registry's expectation at the papers'
 * sizes (a decided verdict only: a claim the archive has not run is not compared). */
static int archive_differs(json_t *o, const slpi_audit_claim *cl)
{
    const char *v = json_string_value(json_object_get(o, "verdict"));
    json_t *checks = json_object_get(o, "checks");
    for (size_t i = 0; i < json_array_size(checks); i++) {
        json_t *k = json_array_get(checks, i);
        const char *role = json_string_value(json_object_get(k, "role"));
        const char *outc = json_string_value(json_object_get(k, "outcome"));
        if (role && !strcmp(role, "claim") && outc && !strcmp(outc, "not run")) return 0;
    }
    return v && strcmp(v, cl->expected_full) != 0;
}

/* The archived claim's verdict and first decisive number, in words; then its own run, and
 * the registry's expectation at the papers' sizes when the archived verdict differs. */
void slpi_audit_archive_words(json_t *o, const slpi_audit_claim *cl, char *out, size_t n)
{
    if (!o) {
        snprintf(out, n, "not in the archive");
        return;
    }
    const char *v = json_string_value(json_object_get(o, "verdict"));
    json_t *checks = json_object_get(o, "checks");
    snprintf(out, n, "%s", v ? v : "?");
    for (size_t i = 0; i < json_array_size(checks); i++) {
        json_t *k = json_array_get(checks, i);
        const char *role = json_string_value(json_object_get(k, "role"));
        const char *outc = json_string_value(json_object_get(k, "outcome"));
        if (!role || strcmp(role, "claim")) continue;
        if (outc && !strcmp(outc, "not run")) {
            snprintf(out, n, "not finished (not run at the papers' size)");
            return;
        }
        json_t *nums = json_object_get(k, "numbers"), *val = json_object_get(k, "value");
        char w[160];
        slpi_audit_measured_words(json_string_value(json_object_get(k, "check")),
                                  json_is_number(val) ? json_number_value(val) : NAN,
                                  json_number_value(json_object_get(nums, "lo")),
                                  json_number_value(json_object_get(nums, "hi")), w, sizeof w);
        snprintf(out, n, "%s: %s", v ? v : "?", w);
        break;
    }
    run_words(o, out, n);
    size_t len = strlen(out);
    if (archive_differs(o, cl) && len < n)
        snprintf(out + len, n - len, "; the registry expects %s at the papers' size", cl->expected_full);
}

json_t *slpi_audit_archive_load(const slpi_audit *a)
{
    char path[SLPI_PATH_MAX + 32];
    if (a->full || !a->archive) return NULL;
    snprintf(path, sizeof path, "%s/claims.json", a->archive);
    return json_load_file(path, 0, NULL);
}

/* The claims whose archived FULL=1 verdict differs from the registry's expectation at the
 * papers' sizes, one line each to out; their number (0 without an archive). */
int slpi_audit_archive_differences(const slpi_audit *a, FILE *out)
{
    json_t *arch = slpi_audit_archive_load(a);
    int nd = 0;
    for (int j = 0; arch && j < a->nclaims; j++) {
        const slpi_audit_claim *cl = &a->claims[j];
        json_t *o = slpi_audit_archive_claim(arch, cl->id);
        if (!o || !archive_differs(o, cl)) continue;
        fprintf(out, "  %-4s archived %-12s expected %s\n", cl->id, json_string_value(json_object_get(o, "verdict")),
                cl->expected_full);
        nd++;
    }
    json_decref(arch);
    return nd;
}

/* The archived verdict over claim cl's multiverse (docs/claims.md#multiverse), from the
 * first line of ARCHIVE/multiverse/ID/multiverse.txt (ARCHIVE/multiverse-full/ for a FULL
 * run; reports/multiverse/multiverse.sh writes it) without the claim's id: "VERDICT over N members:
 * each verdict's share"; empty without an archive or a run. */
void slpi_audit_multiverse_archived(const slpi_audit *a, const slpi_audit_claim *cl, char *out, size_t n)
{
    slpi_audit_multiverse_at(a, cl, a->full, out, n);
}

/* The same at the size full names (1: ARCHIVE/multiverse-full/, the papers' sizes), whatever
 * size this run has: a reduced run's report shows both. */
void slpi_audit_multiverse_at(const slpi_audit *a, const slpi_audit_claim *cl, int full, char *out, size_t n)
{
    char line[512] = "", path[SLPI_PATH_MAX + 64];
    if (a->archive) {
        snprintf(path, sizeof path, "%s/multiverse%s/%s/multiverse.txt", a->archive, full ? "-full" : "", cl->id);
        FILE *f = fopen(path, "r");
        if (f && fgets(line, sizeof line, f)) line[strcspn(line, "\n")] = 0;
        if (f) fclose(f);
    }
    size_t idl = strlen(cl->id);
    snprintf(out, n, "%s", !strncmp(line, cl->id, idl) && line[idl] == ' ' ? line + idl + 1 : "");
}

/* The count of claim cl's multiverse members (the product of its declared dimensions'
 * value counts; 1 without one), and the dimensions' names, comma-separated, into dims. */
int slpi_audit_multiverse_members(const slpi_audit_claim *cl, char *dims, size_t nd)
{
    char mv[sizeof cl->multiverse];
    int members = 1;
    dims[0] = 0;
    snprintf(mv, sizeof mv, "%s", cl->multiverse);
    for (char *save = NULL, *d = strtok_r(mv, ";", &save); d; d = strtok_r(NULL, ";", &save)) {
        int nv = -1; /* the dimension's name is the first word */
        char *s2 = NULL, *w = strtok_r(d, " ", &s2);
        slpi_audit_append(dims, nd, ", ", w ? w : "?");
        for (; w; w = strtok_r(NULL, " ", &s2)) nv++;
        members *= nv > 0 ? nv : 1;
    }
    return members;
}

/* The kernel and libm screen's row for claim cl (docs/claims.md#screen), from
 * ARCHIVE/screen/screen.tsv or known.tsv (reports/multiverse/screen.sh): "; the kernel and libm
 * screen (8 members): DECISION, spread/margin R: REASON"; empty without an archive or a
 * row. */
static void screen_archived(const slpi_audit *a, const slpi_audit_claim *cl, char *out, size_t n)
{
    static const char *tables[] = { "screen.tsv", "known.tsv" };
    out[0] = 0;
    for (int t = 0; a->archive && t < 2 && !out[0]; t++) {
        char path[SLPI_PATH_MAX + 64], line[1024];
        snprintf(path, sizeof path, "%s/screen/%s", a->archive, tables[t]);
        FILE *f = fopen(path, "r");
        while (f && !out[0] && fgets(line, sizeof line, f)) {
            char *fld[6], *save = NULL;
            int nf = 0;
            line[strcspn(line, "\n")] = 0;
            for (char *w = strtok_r(line, "\t", &save); w && nf < 6; w = strtok_r(NULL, "\t", &save)) fld[nf++] = w;
            if (nf == 6 && !strcmp(fld[0], cl->id))
                snprintf(out, n, "; the kernel and libm screen (%s members): %s, spread/margin %s: %s", fld[1], fld[3],
                         fld[4], fld[5]);
        }
        if (f) fclose(f);
    }
}

/* Claim cl's multiverse in words (docs/claims.md#multiverse): how many members its declared
 * choices make ("% ID | DIMENSION | VALUES" lines), the member this run is (its seed offset,
 * fit, levels, OpenBLAS kernel and libm: the label of the libm that ran, from the object
 * that served exp, reports/audit-loaded.c), and, with an archive, the archived verdict over the members
 * (slpi_audit_multiverse_archived), and the kernel and libm screen's finding where it
 * screened the claim. A claim that declares no choice rests on this one member, and the
 * words say so; *members is the count of members (1 then). */
void slpi_audit_multiverse_words(const slpi_audit *a, const slpi_audit_claim *cl, int *members, char *out, size_t n)
{
    char member[256], dims[256];
    snprintf(member, sizeof member, "seed offset %lld, fit %s, levels %s, OpenBLAS %s, libm %s",
             (long long)a->seed_offset, a->fit_ols ? "ols" : "wls", a->drop_coarse ? "drop-coarsest" : "all",
             slpi_blas_core() ? slpi_blas_core() : "not loaded", slpi_audit_loaded_once()->libm_label);
    *members = slpi_audit_multiverse_members(cl, dims, sizeof dims);
    char screen[640];
    screen_archived(a, cl, screen, sizeof screen);
    if (!cl->multiverse[0]) {
        snprintf(out, n,
                 "one member (no open choice declared): this verdict rests on one seed set, one BLAS "
                 "kernel, one libm and one fit: %s%s",
                 member, screen);
        return;
    }
    char verdict[512];
    slpi_audit_multiverse_archived(a, cl, verdict, sizeof verdict);
    snprintf(out, n, "%d members declared (%s); this run is one: %s; %s%s%s", *members, dims, member,
             verdict[0] ? "the archived verdict over the members (reports/multiverse/multiverse.sh): "
                        : "no multiverse run archived, so this verdict is one member's",
             verdict, screen);
}

/* The verdict that decides a claim in the report (docs/claims.md#multiverse): the archived
 * verdict over its multiverse into word, the members and their shares into dist; without
 * an archived multiverse this run's verdict, and dist says whose. */
void slpi_audit_multiverse_decided(const slpi_audit *a, const slpi_audit_claim *cl, char *word, size_t nw, char *dist,
                                   size_t nd)
{
    char mv[512], dims[256];
    int nm = slpi_audit_multiverse_members(cl, dims, sizeof dims);
    slpi_audit_multiverse_archived(a, cl, mv, sizeof mv);
    const char *v = slpi_claim_verdict_name(cl->verdict);
    size_t w = strcspn(mv, " ");
    if (mv[0]) {
        snprintf(word, nw, "%.*s", (int)w, mv);
        snprintf(dist, nd, "%s; this run, one member: %s", mv + w + (mv[w] == ' '), v);
    } else {
        snprintf(word, nw, "%s", v);
        if (nm == 1)
            snprintf(dist, nd, "this run, the one member");
        else
            snprintf(dist, nd, "this run, one member of %d: no multiverse run archived", nm);
    }
}

/* The report's count of the verdicts that decide the claims (slpi_audit_multiverse_decided:
 * over the archived multiverse where one is, else this run's), "CONFIRMED 40, ..." in the
 * order of the verdict words, into out. */
void slpi_audit_decided_counts(const slpi_audit *a, char *out, size_t n)
{
    static const char *words[] = { "CONFIRMED",      "CONDITIONAL",
                                   "DISCREPANCY",    "CRITERION-DEPENDENT",
                                   "SEED-DEPENDENT", "SEED-AND-CRITERION-DEPENDENT",
                                   "UNABLE",         "INCOMPLETE" };
    int count[8] = { 0 };
    for (int j = 0; j < a->nclaims; j++) {
        char word[64], dist[512];
        slpi_audit_multiverse_decided(a, &a->claims[j], word, sizeof word, dist, sizeof dist);
        for (int w = 0; w < 8; w++)
            if (!strcmp(word, words[w])) count[w]++;
    }
    out[0] = 0;
    for (int w = 0; w < 8; w++) {
        char item[64];
        snprintf(item, sizeof item, "%s %d", words[w], count[w]);
        slpi_audit_append(out, n, ", ", item);
    }
}

/* What the run is checkable against (docs/claims.md#confirmatory): its seed offset and
 * multiverse member (fit, levels), the digests (16 hex digits of FNV-1a) of the registry
 * file and of the running executable, and the decision digest the run computed over its
 * decision path's sources and registry, beside the one docs/claims.md freezes
 * (reports/audit-freeze.c). */
void slpi_audit_digests(const slpi_audit *a, json_t *root)
{
    char hex[17];
    json_object_set_new(root, "seed_offset", json_integer((json_int_t)a->seed_offset));
    json_object_set_new(root, "fit", json_string(a->fit_ols ? "ols" : "wls"));
    json_object_set_new(root, "levels", json_string(a->drop_coarse ? "drop-coarsest" : "all"));
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)slpi_fnv1a_file(SLPI_FNV_INIT, a->registry));
    json_object_set_new(root, "registry_digest", json_string(hex));
    snprintf(hex, sizeof hex, "%016llx", (unsigned long long)slpi_fnv1a_file(SLPI_FNV_INIT, "/proc/self/exe"));
    json_object_set_new(root, "build_digest", json_string(hex));
    slpi_audit_loaded_record(root);
    slpi_audit_freeze_record(a, root);
}

/* When and where: UTC date, host name, processors and load average at the time of writing. */
void slpi_audit_run_stamp(char *date, size_t nd, char *machine, size_t nm)
{
    time_t t = time(NULL);
    struct tm tm;
    gmtime_r(&t, &tm);
    strftime(date, nd, "%Y-%m-%d %H:%M UTC", &tm);
    char host[128] = "?", load[64] = "?";
    gethostname(host, sizeof host - 1);
    FILE *f = fopen("/proc/loadavg", "r");
    if (f) {
        if (!fgets(load, sizeof load, f)) snprintf(load, sizeof load, "?");
        load[strcspn(load, "\n")] = 0;
        fclose(f);
    }
    snprintf(machine, nm, "%s, %ld processors, load average %s", host, sysconf(_SC_NPROCESSORS_ONLN), load);
}
