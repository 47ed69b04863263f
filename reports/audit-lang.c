/* audit-lang.c — the claims audit's check language (docs/claims.md; the syntax in the header
 * of reports/claims.txt) as one table: each row a check word, its typed arguments
 * (enumerations spelled out) and its evaluator. The registry's checks go through it once,
 * at load (slpi_audit_parse): a misspelt word or argument is an input error that names the
 * nearest valid word, never an UNABLE after the run. The evaluators receive the typed
 * values (slpi_audit_eval). Above the evaluators (reports/audit-runs.c ...), below the
 * runner (reports/audit.c). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>

#include "slpi/registry.h"
#include "slpi/problem.h"
#include "reports/audit-checks.h"

/* An argument's type. T_NAME: any word (a program, a mutant: the evaluator looks it up);
 * T_DIAG: a diagnostic of the case's run (checked at load, slpi_audit_decidable); T_KV:
 * KEY=VALUE with a problem key; T_NAMES: one or more words to the end;
 * T_TEXT: the rest of the check string. */
typedef enum { T_END, T_REAL, T_INT, T_ENUM, T_NAME, T_DIAG, T_SCHEME, T_SYSTEM, T_KV, T_NAMES, T_TEXT } arg_type;

typedef struct {
    arg_type t;
    const char *name;  /* in the usage (an enumeration shows its words) */
    const char *words; /* T_ENUM: the words, space-separated; T_REAL: words allowed besides numbers */
    const char *key;   /* optional, written key=VALUE (NULL: positional and required) */
    long lo, hi;       /* T_INT: the range */
} arg_spec;

/* the table's shorthands, one a line */
/* clang-format off */
#define OP          {T_ENUM, "OP", "<= >=", NULL, 0, 0}
#define REAL(n)     {T_REAL, n, NULL, NULL, 0, 0}
#define INT(n, l, h) {T_INT, n, NULL, NULL, l, h}
#define ENUM(n, w)  {T_ENUM, n, w, NULL, 0, 0}
#define NAME(n)     {T_NAME, n, NULL, NULL, 0, 0}
#define DIAG        {T_DIAG, "DIAG", NULL, NULL, 0, 0}
#define SCHEME      {T_SCHEME, "SCHEME", NULL, NULL, 0, 0}
#define OPT(t, n, w, key) {t, n, w, key, 0, 0}   /* key=VALUE, may be left out */
#define ARG(t, n, w) {t, n, w, NULL, 0, 0}
#define NONE        {T_END, NULL, NULL, NULL, 0, 0}
/* clang-format on */
#define BIG 1000000000L

typedef void (*evaluator)(const slpi_audit *a, slpi_audit_check *c, const slpi_audit_args *x);

/* What a form's number is, for the refusals at load (slpi_audit_decidable): MAG, a
 * magnitude (>= 0: ">= X" with X <= 0 is always met, "<= X" with X < 0 never); WIN, a
 * window LO HI (and critical's sweep H0 < H1 by DH > 0) that must be non-empty and bounded
 * on one side at least. */
#define MAG SLPI_AUDIT_MAG
#define WIN SLPI_AUDIT_WIN

typedef struct {
    const char *word;
    evaluator eval;
    int kind;                            /* MAG, WIN or 0 */
    const char *says;                    /* the result in words (slpi_audit_measured_words):
                                              {1} the first argument as written, {v%FMT},
                                              {lo%FMT}, {hi%FMT} the value and CI in printf's FMT */
    arg_spec arg[SLPI_AUDIT_MAXARG - 1]; /* up to the first T_END */
} check_form;

/* The language. A word with two rows has two forms (the first that reads the string wins).
 * Every argument has a name, unique in its row: evaluators read it by that name
 * (slpi_audit_get), an optional key=VALUE by its key. */
/* one form a row */
/* clang-format off */
static const check_form forms[] = {
    {"max", slpi_audit_check_run, MAG, "largest change of {1}: {v%.2g}", {DIAG, OP, REAL("X")}},
    {"fails", slpi_audit_check_run, 0, NULL, {NONE}},
    {"versus", slpi_audit_check_versus, MAG, "{1} departure {v%.3g} times the other run's",
        {DIAG, ARG(T_KV, "KEY=VALUE", NULL), OP, REAL("X")}},
    {"sphere", slpi_audit_check_sphere, 0, "off its sphere by {v%.2g}", {INT("A", 0, BIG)}},
    {"snapshots", slpi_audit_check_snapshots, MAG, "field change {v%.2f}", {INT("STEPS", 1, BIG), OP, REAL("X")}},
    {"ref", slpi_audit_check_ref, 0, NULL, {DIAG, INT("STEPS", 1, BIG)}},
    {"poisson", slpi_audit_check_poisson, MAG, "Poisson defect {v%.2g}", {OPT(T_REAL, "V", NULL, "dW"), OP, REAL("X")}},
    {"refpoisson", slpi_audit_check_poisson, MAG, "Poisson defect {v%.2g}", {OPT(T_REAL, "V", NULL, "dW"), OP, REAL("X")}},
    {"slope", slpi_audit_check_slope, WIN, "slope {v%.2f}, CI [{lo%.2f}, {hi%.2f}]",
        {ENUM("KIND", "strong weak sup"), INT("A", 0, 60), INT("B", 0, 60),
        INT("L", 0, 60), INT("R", 1, BIG), REAL("LO"), REAL("HI"), OPT(T_SCHEME, "SCHEME", NULL, "indep"),
        OPT(T_ENUM, NULL, "x1", "phi")}},
    {"gap", slpi_audit_check_gap, MAG, NULL, {SCHEME, INT("L", 0, 60), INT("R", 1, BIG), OP, REAL("X")}},
    {"resolvable", slpi_audit_check_resolvable, MAG, NULL, {INT("A", 0, 60), INT("B", 0, 60), INT("L", 0, 60),
        INT("R", 1, BIG), REAL("RPAPER"), OP, INT("N", 0, 60), OPT(T_ENUM, NULL, "x1", "phi")}},
    {"weakexact", slpi_audit_check_weakexact, WIN, NULL, {SCHEME, REAL("LO"), REAL("HI")}},
    {"moments", slpi_audit_check_moments, 0, NULL, {NONE}},
    {"thresholds", slpi_audit_check_thresholds, 0, NULL, {REAL("ELL")}},
    {"cayleypi", slpi_audit_check_cayleypi, 0, NULL, {ARG(T_REAL, "ANGLE", "pi")}},
    {"mutant", slpi_audit_check_mutant, 0, NULL, {NAME("NAME")}},
    {"drift", slpi_audit_check_drift, MAG, NULL, {ENUM("CONTROL", "case x1x2 x1sq"), OP, REAL("X")}},
    {"legap", slpi_audit_check_legap, WIN, NULL, {ENUM("CONTROL", "x1x2 x1sq"), INT("KMIN", 0, 60),
        INT("KMAX", 0, 60), INT("PATHS", 1, BIG), REAL("LO"), REAL("HI")}},
    {"growth", slpi_audit_check_growth, WIN, "{1} grows with log-log slope {v%.2f}", {DIAG, REAL("LO"), REAL("HI")}},
    {"critical", slpi_audit_check_critical, WIN, "critical h = {v%g}", {REAL("H0"), REAL("H1"), REAL("DH"),
        INT("SEEDS", 1, BIG), REAL("LO"), REAL("HI")}},
    {"ensemble", slpi_audit_check_ensemble, 0, NULL, {INT("PATHS", 2, 200), ENUM("MODE", "away"), REAL("LO"),
        REAL("HI")}},
    {"ensemble", slpi_audit_check_ensemble, MAG, NULL, {INT("PATHS", 2, 200), ENUM("MODE", "spread"), REAL("X")}},
    {"dexpinv", slpi_audit_check_dexpinv, MAG, NULL, {ARG(T_SYSTEM, "SYSTEM", NULL), ENUM("FORM", "sigma printed"),
        OP, REAL("X")}},
    {"adstar", slpi_audit_check_adstar, MAG, NULL, {ENUM("ALGEBRA", "so3"), OP, REAL("X")}},
    {"adstar", slpi_audit_check_adstar, MAG, NULL, {ENUM("ALGEBRA", "son"), INT("N", 2, 64), ENUM("SIGN", "+ -"), OP,
        REAL("X")}},
    {"sviident", slpi_audit_check_sviident, MAG, NULL, {INT("STEPS", 1, BIG), ENUM("QTY", "xi ident mid"), OP,
        REAL("X")}},
    {"sviorbit", slpi_audit_check_sviorbit, MAG, NULL, {INT("GRID", 2, 512), ENUM("QTY", "ratio band"), OP, REAL("X")}},
    {"svivs", slpi_audit_check_svivs, MAG, NULL, {ENUM("QTY", "det quad"), OP, REAL("X")}},
    {"lifted", slpi_audit_check_lifted, MAG, NULL, {REAL("A"), INT("STEPS", 1, BIG),
        ENUM("QTY", "group proj half equiv"), OP, REAL("X")}},
    {"test", slpi_audit_check_tests, 0, NULL, {ARG(T_NAMES, "PROGRAM", NULL)}},
    {"unable", slpi_audit_check_unable, 0, NULL, {ARG(T_TEXT, "REASON", NULL)}},
};
/* clang-format on */
#define NFORMS ((int)(sizeof forms / sizeof forms[0]))

/* ---- the nearest valid word (Levenshtein distance; the first of equals).
 * Words kept by offset into buf, so that a list can be copied. */
typedef struct {
    int n;
    size_t off[160], used;
    char buf[1024];
} word_list;

#define WORD_AT(l, k) ((l)->buf + (l)->off[k])

static void words_add(word_list *l, const char *w, size_t len, const char *suffix)
{
    size_t need = len + strlen(suffix) + 1;
    if (l->n == (int)(sizeof l->off / sizeof l->off[0]) || l->used + need > sizeof l->buf) return;
    char *d = l->buf + l->used;
    memcpy(d, w, len);
    strcpy(d + len, suffix);
    l->off[l->n++] = l->used;
    l->used += need;
}

static void words_split(word_list *l, const char *ws)
{
    for (const char *s = ws; *s; s += strspn(s, " ")) {
        size_t len = strcspn(s, " ");
        words_add(l, s, len, "");
        s += len;
    }
}

/* The words an argument of type sp accepts (an optional one: its "key="). */
static void words_of(word_list *l, const arg_spec *sp, int with_key)
{
    if (with_key && sp->key) {
        words_add(l, sp->key, strlen(sp->key), "=");
        return;
    }
    if (sp->t == T_ENUM) words_split(l, sp->words);
    for (int k = 0; sp->t == T_SCHEME && k < SLPI_SCHEME_COUNT; k++) {
        const char *w = slpi_scheme_name((slpi_scheme_id)k);
        words_add(l, w, strlen(w), "");
    }
    for (int k = 0; sp->t == T_SYSTEM && k < SLPI_SYS_COUNT; k++) {
        const char *w = slpi_system_name((slpi_system_id)k);
        words_add(l, w, strlen(w), "");
    }
    const char *name, *sys, *help;
    for (int k = 0; sp->t == T_KV && slpi_problem_key(k, &name, &sys, &help); k++) words_add(l, name, strlen(name), "");
}

/* The edit distance of a and b (b's first 63 characters), for the nearest valid word. */
static int distance(const char *a, const char *b)
{
    size_t n = strlen(b);
    int row[64];
    if (n >= 64) n = 63;
    for (size_t j = 0; j <= n; j++) row[j] = (int)j;
    for (size_t i = 1; a[i - 1]; i++) {
        int diag = row[0];
        row[0] = (int)i;
        for (size_t j = 1; j <= n; j++) {
            int up = row[j], best = diag + (a[i - 1] != b[j - 1]);
            if (up + 1 < best) best = up + 1;
            if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
            diag = up;
            row[j] = best;
        }
    }
    return row[n];
}

const char *slpi_audit_nearest(const char *const *words, int n, const char *w)
{
    const char *best = NULL;
    int bd = 1 << 30;
    for (int i = 0; i < n; i++) {
        int d = distance(w, words[i]);
        if (d < bd) bd = d, best = words[i];
    }
    return best ? best : "?";
}

static const char *nearest(const word_list *l, const char *w)
{
    const char *words[sizeof l->off / sizeof l->off[0]];
    for (int i = 0; i < l->n; i++) words[i] = WORD_AT(l, i);
    return slpi_audit_nearest(words, l->n, w);
}

/* ---- reading one form */

/* Where a form stopped reading: the word's index (the count when words ran out), the
 * problem, and for a word that is not one of a list, the list (for the nearest). */
typedef struct {
    int at;
    char msg[200];
    word_list near;
} stop;

static int usage(const check_form *f, char *out, size_t n)
{
    int l = snprintf(out, n, "%s", f->word);
    for (const arg_spec *sp = f->arg; sp->t != T_END && l < (int)n; sp++) {
        char w[80];
        if (sp->t == T_ENUM) {
            snprintf(w, sizeof w, "%s", sp->words);
            for (char *s = w; *s; s++)
                if (*s == ' ') *s = '|';
        } else {
            snprintf(w, sizeof w, "%s%s%s", sp->name, sp->words ? "|" : "", sp->words ? sp->words : "");
        }
        l += snprintf(out + l, n - (size_t)l,
                      sp->key                ? " [%s=%s]"
                          : sp->t == T_NAMES ? " %s..."
                                             : " %s",
                      sp->key ? sp->key : w, w);
    }
    return l;
}

/* Read word s as an argument of type sp into v; 0, or -1 with st's message and list. */
static int read_arg(const arg_spec *sp, const char *s, int at, slpi_audit_arg *v, stop *st)
{
    memset(v, 0, sizeof *v);
    v->present = 1;
    v->at = at;
    v->e = -1;
    snprintf(v->s, sizeof v->s, "%s", s);
    if (strlen(s) >= sizeof v->s) {
        snprintf(st->msg, sizeof st->msg, "'%s' is longer than %zu characters", s, sizeof v->s - 1);
        return -1;
    }
    char *end;
    switch (sp->t) {
    case T_REAL:
        if (sp->words) {
            word_list l = { 0 };
            words_split(&l, sp->words);
            for (int k = 0; k < l.n; k++)
                if (!strcmp(s, WORD_AT(&l, k))) v->e = k;
            if (v->e >= 0) return 0;
        }
        errno = 0;
        v->r = strtod(s, &end);
        if (end == s || *end || (errno == ERANGE && isinf(v->r)) || isnan(v->r)) {
            snprintf(st->msg, sizeof st->msg, "'%s' is not a number%s%s", s, sp->words ? " or " : "",
                     sp->words ? sp->words : "");
            return -1;
        }
        return 0;
    case T_INT:
        errno = 0;
        v->i = strtol(s, &end, 10);
        if (end == s || *end || errno || v->i < sp->lo || v->i > sp->hi) {
            snprintf(st->msg, sizeof st->msg, "'%s' is not an integer in %ld..%ld (%s)", s, sp->lo, sp->hi, sp->name);
            return -1;
        }
        v->r = (double)v->i;
        return 0;
    case T_KV: {
        const char *eq = strchr(s, '=');
        char key[48];
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - s) : (int)strlen(s), s);
        const char *name, *sys, *help;
        int known = 0;
        for (int k = 0; eq && !known && slpi_problem_key(k, &name, &sys, &help); k++) known = !strcmp(name, key);
        if (!eq || !eq[1] || !known) {
            snprintf(st->msg, sizeof st->msg, "'%s' is not KEY=VALUE with a problem key", s);
            words_of(&st->near, sp, 0);
            snprintf(v->s, sizeof v->s, "%s", key); /* the nearest is sought for the key */
            return -1;
        }
        return 0;
    }
    case T_ENUM:
    case T_SCHEME:
    case T_SYSTEM: {
        word_list l = { 0 };
        words_of(&l, sp, 0);
        for (int k = 0; k < l.n; k++)
            if (!strcmp(s, WORD_AT(&l, k))) v->e = k;
        if (v->e >= 0) return 0;
        snprintf(st->msg, sizeof st->msg, "'%s' is not %s", s,
                 sp->t == T_SCHEME       ? "a scheme"
                     : sp->t == T_SYSTEM ? "a system"
                                         : "one of");
        if (sp->t == T_ENUM) {
            size_t m = strlen(st->msg);
            snprintf(st->msg + m, sizeof st->msg - m, " %s", sp->words);
        }
        st->near = l;
        return -1;
    }
    default: /* T_NAME, T_DIAG (checked against the case: slpi_audit_decidable), T_NAMES */
        return 0;
    }
}

/* Read tok[1..n) by form f into x; 0, or -1 with where and why it stopped in st. */
static int read_form(const check_form *f, char **tok, const int *at, int n, slpi_audit_args *x, stop *st)
{
    int i = 1, k = 1;
    const arg_spec *opt0 = NULL; /* the optional arguments just skipped start here */
    memset(x, 0, sizeof *x);
    x->arg[0].present = 1;
    snprintf(x->arg[0].s, sizeof x->arg[0].s, "%s", tok[0]);
    for (const arg_spec *sp = f->arg; sp->t != T_END; sp++, k++) {
        st->at = i;
        if (sp->key) {
            size_t kl = strlen(sp->key);
            if (i < n && !strncmp(tok[i], sp->key, kl) && tok[i][kl] == '=') {
                if (read_arg(sp, tok[i] + kl + 1, at[i] + (int)kl + 1, &x->arg[k], st)) return -1;
                i++;
                opt0 = NULL;
            } else if (!opt0) {
                opt0 = sp;
            }
            continue;
        }
        if (i >= n) {
            snprintf(st->msg, sizeof st->msg, "too few words");
            return -1;
        }
        if (sp->t == T_TEXT) {
            x->arg[k].present = 1;
            x->arg[k].at = at[i];
            snprintf(x->arg[k].s, sizeof x->arg[k].s, "%s", tok[i]);
            i = n;
            continue;
        }
        if (sp->t == T_NAMES) {
            for (; i < n && k < SLPI_AUDIT_MAXARG; i++, k++)
                if (read_arg(sp, tok[i], at[i], &x->arg[k], st)) return -1;
            k--;
            continue;
        }
        if (read_arg(sp, tok[i], at[i], &x->arg[k], st)) {
            if (opt0 && strchr(tok[i], '=')) { /* a misspelt optional key=VALUE */
                snprintf(st->msg, sizeof st->msg, "'%s' is not an optional key=VALUE here", tok[i]);
                memset(&st->near, 0, sizeof st->near);
                for (const arg_spec *o = opt0; o < sp; o++) words_of(&st->near, o, 1);
            }
            return -1;
        }
        i++;
        opt0 = NULL;
    }
    x->n = k;
    if (i < n) {
        st->at = i;
        snprintf(st->msg, sizeof st->msg, "'%s' is one word too many", tok[i]);
        for (const arg_spec *sp = f->arg; sp->t != T_END; sp++)
            if (sp->key) words_of(&st->near, sp, 1);
        return -1;
    }
    return 0;
}

/* Name x's arguments from form f's row for slpi_audit_get (reports/audit-args.c): "WORD"
 * the check word, then each argument's name, or an optional argument's key. */
static void name_args(const check_form *f, slpi_audit_args *x)
{
    memset(x->name, 0, sizeof x->name);
    x->name[0] = "WORD";
    for (int k = 0; f->arg[k].t != T_END && k + 1 < SLPI_AUDIT_MAXARG; k++)
        x->name[k + 1] = f->arg[k].key ? f->arg[k].key : f->arg[k].name;
}

int slpi_audit_parse(const char *check, slpi_audit_args *x, char *why, size_t nwhy)
{
    char buf[256], *tok[24];
    int at[24], n = 0;
    snprintf(buf, sizeof buf, "%s", check);
    for (char *s = buf; n < 24;) {
        s += strspn(s, " \t");
        if (!*s) break;
        at[n] = (int)(s - buf);
        tok[n++] = s;
        s += strcspn(s, " \t");
        if (*s) *s++ = 0;
    }
    if (n == 0) {
        snprintf(why, nwhy, "empty check");
        return -1;
    }
    stop best = { -1, "", { 0 } }, st;
    int nf = 0;
    char use[512] = "";
    for (int f = 0; f < NFORMS; f++) {
        if (strcmp(forms[f].word, tok[0])) continue;
        nf++;
        memset(&st, 0, sizeof st);
        if (!read_form(&forms[f], tok, at, n, x, &st)) {
            x->form = f;
            name_args(&forms[f], x);
            return 0;
        }
        size_t l = strlen(use);
        if (l) l += (size_t)snprintf(use + l, sizeof use - l, " | ");
        usage(&forms[f], use + l, sizeof use - l);
        if (st.at > best.at) {
            best = st;
        } else if (st.at == best.at && st.near.n && best.near.n) { /* two forms stop at one word */
            for (int k = 0; k < st.near.n; k++)
                words_add(&best.near, WORD_AT(&st.near, k), strlen(WORD_AT(&st.near, k)), "");
            int m = snprintf(best.msg, sizeof best.msg, "'%s' is not one of", tok[st.at]);
            for (int k = 0; k < best.near.n && m < (int)sizeof best.msg; k++)
                m += snprintf(best.msg + m, sizeof best.msg - (size_t)m, " %s", WORD_AT(&best.near, k));
        }
    }
    if (!nf) {
        word_list l = { 0 };
        for (int f = 0; f < NFORMS; f++)
            if (!f || strcmp(forms[f].word, forms[f - 1].word)) words_add(&l, forms[f].word, strlen(forms[f].word), "");
        snprintf(why, nwhy, "unknown check word '%s' (nearest: %s)", tok[0], nearest(&l, tok[0]));
        return -1;
    }
    int l = snprintf(why, nwhy, "word %d: %s", best.at + 1, best.msg);
    if (best.near.n && l < (int)nwhy) {
        const char *w = best.at < n ? tok[best.at] : "";
        char key[48];
        if (strchr(w, '=')) { /* a key=value: the nearest of the key */
            snprintf(key, sizeof key, "%.*s", (int)(strchr(w, '=') - w), w);
            w = key;
        }
        l += snprintf(why + l, nwhy - (size_t)l, " (nearest: %s)", nearest(&best.near, w));
    }
    if (l < (int)nwhy) snprintf(why + l, nwhy - (size_t)l, "; usage: %s", use);
    return -1;
}

void slpi_audit_eval(const slpi_audit *a, slpi_audit_check *c)
{
    const slpi_audit_args *x = slpi_audit_args_in_force(a, c);
    if (x != &c->args) snprintf(c->check, sizeof c->check, "%s", c->full_check); /* FULL=1 */
    c->figure[0] = 0;
    c->command[0] = 0;
    c->nnum = 0;
    if (slpi_audit_problems_alloc(c)) forms[x->form].eval(a, c, x);
    slpi_audit_problems_free(c);
}

int slpi_audit_form_kind(int form)
{
    return forms[form].kind;
}

const char *slpi_audit_form_says(int form)
{
    return forms[form].says;
}
