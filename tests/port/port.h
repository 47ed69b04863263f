/* port.h — the driver that the precision-generic C ports of tests/port/ share: they
 * measure the power of `slpi verify` at a port's own precision on planted defects
 * (docs/power.md). Each port is one system's step, written once over `real` and built
 * with -DREAL=float or -DREAL=double (and, for float, with and without FMA contraction:
 * tests/power/power.sh). The ports are written from docs/schemes.md and docs/systems.md,
 * never from fast/ or ref/.
 *
 * usage: PORT NOISE_FILE STEPS [DEFECT MAG]          an 'slpi-trajectory 1' file on stdout
 *        PORT NOISE_FILE STEPS DEFECT MAG effect     (double build) the defect's effect
 *        PORT --batch LIST STEPS [DEFECT MAG]        each line "NOISE_FILE TRAJ_FILE" of LIST
 *                                                    in one process (the set-up once), the
 *                                                    same bytes as one run a file
 * NOISE_FILE is `slpi noise --preset ... steps=STEPS` output (its seed and path go into the
 * trajectory's header, so `slpi verify` regenerates the same increments). DEFECT is one
 * of the planted defects below, MAG its magnitude; "none" is the correct port.
 * "effect" integrates in double along the defective trajectory and prints, over the
 * steps, the mean and the largest |step_defect(x) - step_correct(x)|_max / (2^-24 |x|_max):
 * the defect's effect per step in units of binary32's u |x|. With PORT_WINDOW=A:B in the
 * environment the defect acts on the steps A <= n < B only (the diagnosis's window,
 * tests/oracle/t-verify-diagnosis.sh); with PORT_X0=X1,X2,... the port starts there (the
 * header says x0=; tests/port/shapes.py); with PORT_ITERS set it prints "iterations MIN MAX"
 * on stderr, the fewest and most iterations of the implicit solve over the steps
 * (tests/port/diagnosis3.py judges a `tol` stop by them). */
#ifndef PORT_H
#define PORT_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <tgmath.h>

#ifndef REAL
#define REAL double
#endif
typedef REAL real;

/* The planted defects (docs/power.md#defects; MAG scales each):
 *   drop   a term of the step scaled by 1 - MAG (MAG = 1 drops it)
 *   coef   the midpoint weight 1/2 of the scheme times 1 + MAG
 *   amp    every noise amplitude times 1 + MAG
 *   sign   the first noise mode's coefficient times 1 - 2 MAG (MAG = 1 flips its sign)
 *   lap    one eigenvalue of the drift operator times 1 + MAG (Euler-Zeitlin: the
 *          Laplacian's -l(l+1) at l = 2; the rigid body and the heavy top: I^-1_2)
 *   bad    one bad step: after step STEPS/2 the first coordinate moves by MAG 2^-24 |x|
 *   early  the implicit solve stopped after MAG iterations (fixed-iteration mode)
 *   tol    the implicit solve stopped when an iteration moved the unknown by at most MAG
 *          of its size (max norms; MAG = 2^-26: the sqrt(eps) stop of binary64 codes)
 *   tolmax the same stop against MAG max(1, its size) (max norms; the scaled tolerance of
 *          codes that guard a small unknown, as slpi's own rule: docs/schemes.md#solver)
 *   pred   (Euler-Zeitlin) the implicit solve started from the Euler predictor
 *          X + [Psi(X), X]/2 and stopped MAG iterations later (the GPU form: a fixed
 *          count of sweeps, no data-dependent exit)
 *   upd    (ISOMP) the update's commutator [Psi, Y] times 1 + MAG
 *   trans  (ISOMP) the product Psi Y Psi formed as (1 - MAG) Psi Y Psi + MAG (Psi Y) Psi^T: a
 *          transposed factor (MAG = 1); on so(3)'s vector form Psi^T = -Psi
 *   stage  (a port whose Hamiltonians read t) every stage read MAG steps later:
 *          t0 + (n + c + MAG) h (MAG = -1/2 reads the midpoint's t at t_n)
 *   swap   (two noises or more) the increments of noises 1 and 2 mixed: dW_1 + MAG (dW_2 -
 *          dW_1) drives H_1 and dW_2 + MAG (dW_1 - dW_2) H_2 (MAG = 1 swaps them)
 *   reord  (ISOMP) Psi Y Psi/4 formed as (1 - MAG) Psi Y Psi/4 + MAG P/4, P the product with
 *          its factors reordered as Psi Psi Y, in the algebra (Psi Psi Y + Y Psi Psi)/2 */
enum {
    D_NONE,
    D_DROP,
    D_COEF,
    D_AMP,
    D_SIGN,
    D_LAP,
    D_BAD,
    D_EARLY,
    D_UPD,
    D_TRANS,
    D_STAGE,
    D_TOL,
    D_PRED,
    D_SWAP,
    D_REORD,
    D_TOLMAX,
    D_COUNT
};
static const char *const defect_names[D_COUNT] = { "none", "drop",  "coef",  "amp", "sign", "lap",  "bad",   "early",
                                                   "upd",  "trans", "stage", "tol", "pred", "swap", "reord", "tolmax" };
/* The index n of the step being taken (a port whose Hamiltonians read t reads it). */
static long port_n;
typedef struct {
    int kind;
    double mag;
} defect;

/* a defect's factor on a coefficient: (1 + MAG) when the defect is `kind`, else 1 */
static double dfac(const defect *d, int kind, double sign)
{
    return d->kind == kind ? 1 + sign * d->mag : 1;
}
/* the solve's iteration cap: MAG under `early` and `pred`, else 100 */
static int dcap(const defect *d)
{
    return d->kind == D_EARLY || d->kind == D_PRED ? (int)d->mag : 100;
}
/* the solve stops when an iteration moved the unknown by at most 4 eps of its size (the
 * contraction is about |psi| ~ 0.01, so the rest is far below eps); never under `early` */
#define EPS ((real)(sizeof(real) == sizeof(float) ? 0x1p-23 : 0x1p-52))
/* the iterations of the implicit solve in the step being taken: one call of done() each */
static long port_iters;
static int done(const defect *d, real change, real size)
{
    port_iters++;
    if (d->kind == D_TOLMAX) return change <= (real)d->mag * (size > 1 ? size : 1);
    return d->kind == D_TOL ? change <= (real)d->mag * size : dcap(d) == 100 && change <= 4 * EPS * size;
}

/* What each port defines. */
typedef struct {
    const char *name;    /* for the comment line */
    const char *problem; /* '#' key lines of the problem, after "# slpi-trajectory 1" */
    int dim, noises;     /* state doubles, increments per step */
    double h;
    void (*x0)(double *x);                                    /* the problem's x0, binary64 */
    void (*step)(real *x, const double *dw, const defect *d); /* one step in place */
    void (*columns)(FILE *f);                                 /* the state's column names */
} port;

static double maxabs(const double *x, int n)
{
    double m = 0;
    for (int i = 0; i < n; i++) m = fabs(x[i]) > m ? fabs(x[i]) : m;
    return m;
}

/* One data row of a noise file into dw: 1, or 0 at its end, or -1 when the row is longer
 * than the n - 1 bytes of line (it would be read as two rows) or holds fewer than m
 * numbers. The caller sizes line from m (NOISE_ROW_BYTES): a row carries each increment
 * twice, %a and %.17g, about 43 bytes, and su(64)'s rows pass 128 KiB. */
#define NOISE_ROW_BYTES(m) (64 * (size_t)(m) + 256)
static int read_row(FILE *f, double *dw, int m, char *line, size_t n)
{
    do {
        if (!fgets(line, (int)n, f)) return 0;
    } while (line[0] == '#');
    if (!strchr(line, '\n') && !feof(f)) return -1;
    char *s = line;
    for (int k = 0; k < m; k++) {
        char *end;
        dw[k] = strtod(s, &end);
        if (end == s) return -1;
        s = end;
    }
    return 1;
}

/* One trajectory: the noise file `noise` integrated `steps` steps under defect d, the
 * trajectory (or the effect) written to out. 0, 1 on a write error, 2 on bad input. */
static int port_run(const port *p, const char *prog, const char *noise, long steps, defect d, int effect, FILE *out)
{
    FILE *f = fopen(noise, "r");
    if (!f) {
        perror(noise);
        return 2;
    }
    char line[1 << 16], seed[64] = "", path[64] = "";
    int m = 0;
    while (fgets(line, sizeof line, f) && line[0] == '#') {
        sscanf(line, "# seed %63s", seed);
        sscanf(line, "# path %63s", path);
        sscanf(line, "# components %d", &m);
        if (strncmp(line, "# columns", 9) == 0) break;
    }
    if (m != p->noises || !seed[0] || !path[0] || (d.kind == D_SWAP && m < 2)) {
        fprintf(stderr, "%s: %s: not a noise file of %d components with seed and path\n", prog, noise, p->noises);
        fclose(f);
        return 2;
    }
    double *xd = malloc(sizeof(double) * 3 * (size_t)p->dim), *dw = malloc(sizeof(double) * 2 * (size_t)p->noises);
    real *x = malloc(sizeof(real) * 2 * (size_t)p->dim);
    size_t rowbytes = NOISE_ROW_BYTES(p->noises);
    char *row = malloc(rowbytes);
    int rc = 0;
    if (!xd || !dw || !x || !row) {
        fprintf(stderr, "%s: out of memory\n", prog);
        rc = 2;
        goto done;
    }
    real *y = x + p->dim;
    p->x0(xd);
    const char *x0s = getenv("PORT_X0"); /* another initial state: dim comma-separated doubles */
    for (int i = 0; x0s && i < p->dim; i++) {
        char *end;
        xd[i] = strtod(x0s, &end);
        if (end == x0s || (*end != ',' && *end != 0) || (*end == 0 && i < p->dim - 1)) {
            fprintf(stderr, "%s: PORT_X0 needs %d comma-separated numbers\n", prog, p->dim);
            rc = 2;
            goto done;
        }
        x0s = *end ? end + 1 : end;
    }
    for (int i = 0; i < p->dim; i++) x[i] = (real)xd[i];
    if (!effect) {
        fprintf(out, "# slpi-trajectory 1\n%s# steps=%ld\n# seed=%s\n# path=%s\n# port %s in %s, defect %s %g\n",
                p->problem, steps, seed, path, p->name, sizeof(real) == sizeof(float) ? "float" : "double",
                defect_names[d.kind], d.mag);
        if (getenv("PORT_X0")) {
            fprintf(out, "# x0=");
            for (int i = 0; i < p->dim; i++) fprintf(out, "%s%a", i ? "," : "", xd[i]);
            fprintf(out, "\n");
        }
        fprintf(out, "step\tt");
        p->columns(out);
        fprintf(out, "\n");
    }
    defect none = { D_NONE, 0 };
    long wa = 0, wb = steps;
    const char *win = getenv("PORT_WINDOW");
    if (win && sscanf(win, "%ld:%ld", &wa, &wb) != 2) {
        fprintf(stderr, "%s: PORT_WINDOW=%s is not A:B\n", prog, win);
        rc = 2;
        goto done;
    }
    double sum = 0, worst = 0;
    long it_min = -1, it_max = 0;
    for (long n = 0;; n++) {
        if (!effect) {
            fprintf(out, "%ld\t%.17g", n, (double)n * p->h);
            for (int i = 0; i < p->dim; i++) fprintf(out, "\t%a", (double)x[i]);
            fprintf(out, "\n");
        }
        if (n == steps) break;
        int got = read_row(f, dw, p->noises, row, rowbytes);
        if (got <= 0) {
            fprintf(stderr, "%s: %s: %s\n", prog, noise,
                    got ? "a row of increments not whole (longer than the port reads, or short)"
                        : "too few increments");
            rc = 2;
            goto done;
        }
        if (effect) memcpy(y, x, sizeof(real) * (size_t)p->dim);
        port_n = n;
        port_iters = 0;
        /* the swap's increments, dws: dW_1 and dW_2 mixed by MAG, the rest as read */
        double *dws = dw + p->noises;
        memcpy(dws, dw, sizeof(double) * (size_t)p->noises);
        if (d.kind == D_SWAP && n >= wa && n < wb) {
            dws[0] = dw[0] + d.mag * (dw[1] - dw[0]);
            dws[1] = dw[1] + d.mag * (dw[0] - dw[1]);
        }
        p->step(x, dws, n >= wa && n < wb ? &d : &none);
        it_min = it_min < 0 || port_iters < it_min ? port_iters : it_min;
        it_max = port_iters > it_max ? port_iters : it_max;
        if (d.kind == D_BAD && n == steps / 2) {
            for (int i = 0; i < p->dim; i++) xd[i] = (double)x[i];
            x[0] += (real)(d.mag * 0x1p-24 * maxabs(xd, p->dim));
        }
        if (effect) {
            double *a = xd + p->dim, *b = a + p->dim;
            for (int i = 0; i < p->dim; i++) a[i] = (double)y[i];
            p->step(y, dw, &none);
            for (int i = 0; i < p->dim; i++) b[i] = (double)x[i] - (double)y[i];
            double e = maxabs(b, p->dim) / (0x1p-24 * maxabs(a, p->dim));
            sum += e;
            worst = e > worst ? e : worst;
        }
    }
    if (effect) fprintf(out, "effect_mean\t%.6g\teffect_max\t%.6g\n", sum / (double)steps, worst);
    if (getenv("PORT_ITERS")) fprintf(stderr, "iterations %ld %ld\n", it_min < 0 ? 0 : it_min, it_max);
done:
    free(xd);
    free(dw);
    free(x);
    free(row);
    if (fclose(f) && !rc) rc = 1;
    return rc;
}

/* --batch LIST: each line "NOISE_FILE TRAJ_FILE" run as port_run into TRAJ_FILE (written
 * whole or removed: a file this call created); stops at the first failure */
static int port_batch(const port *p, const char *prog, const char *list, long steps, defect d)
{
    FILE *l = fopen(list, "r");
    if (!l) {
        perror(list);
        return 2;
    }
    char line[8300], noise[4096], traj[4096], more;
    int rc = 0;
    while (!rc && fgets(line, sizeof line, l)) {
        if (sscanf(line, "%4095s %4095s %c", noise, traj, &more) != 2) {
            fprintf(stderr, "%s: %s: a line is not \"NOISE_FILE TRAJ_FILE\"\n", prog, list);
            rc = 2;
            break;
        }
        FILE *out = fopen(traj, "wx");
        if (!out) {
            perror(traj);
            rc = 2;
            break;
        }
        rc = port_run(p, prog, noise, steps, d, 0, out);
        if (ferror(out) && !rc) rc = 1;
        if (fclose(out) && !rc) rc = 1;
        if (rc) remove(traj);
    }
    fclose(l);
    return rc;
}

static int port_main(const port *p, int argc, char **argv)
{
    int batch = argc > 1 && strcmp(argv[1], "--batch") == 0, a = 1 + batch;
    if (argc < a + 2) {
        fprintf(stderr, "usage: %s NOISE_FILE STEPS [DEFECT MAG [effect]]  |  --batch LIST STEPS [DEFECT MAG]\n",
                argv[0]);
        return 2;
    }
    defect d = { D_NONE, 0 };
    if (argc > a + 2) {
        while (d.kind < D_COUNT && strcmp(argv[a + 2], defect_names[d.kind]) != 0) d.kind++;
        if (d.kind == D_COUNT || argc < a + 4) {
            fprintf(stderr, "%s: unknown defect '%s' or no magnitude\n", argv[0], argv[a + 2]);
            return 2;
        }
        d.mag = strtod(argv[a + 3], NULL);
    }
    int effect = argc > a + 4 && strcmp(argv[a + 4], "effect") == 0;
    if (effect && (batch || sizeof(real) != sizeof(double))) {
        fprintf(stderr, "%s: effect needs the double build, one file\n", argv[0]);
        return 2;
    }
    long steps = strtol(argv[a + 1], NULL, 10);
    if (batch) return port_batch(p, argv[0], argv[a], steps, d);
    int rc = port_run(p, argv[0], argv[a], steps, d, effect, stdout);
    return rc ? rc : ferror(stdout) ? 1 : 0;
}
#endif
