/* rigid-body-float.c — an independent binary32 port of ISOMP on the rigid body, written
 * the way a port author would from docs/schemes.md#isomp and docs/systems.md#rigid-body-iso
 * (vector form on so(3): hat(a) hat(b) hat(a) = -(a.b) hat(a), [hat a, hat b] = hat(a x b)):
 *   psi(y) = -h I^{-1} y - 0.1 (y_1 dW_1, y_2 dW_2, y_3 dW_3),
 *   y = x_n + 1/2 psi(y) x y - 1/4 (psi(y).y) psi(y)   (fixed point from y = x_n),
 *   x_{n+1} = x_n + psi(y) x y                          (update=comm).
 * Every operation is in float. Reads the increments of a `slpi noise` file (its first three
 * columns, %a), writes an 'slpi-trajectory 1' file for `slpi verify`.
 * usage: rigid-body-float NOISE_FILE STEPS [round] > OUT.tsv
 *   round: instead, integrate in double and round each output row to float (the
 *   "float-rounded trajectory"). Used by tests/oracle/t-verify-port.sh. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <math.h>

#define STEP(T)                                                                                                        \
    static void step_##T(T *x, const double *dw, double hd)                                                            \
    {                                                                                                                  \
        const T h = (T)hd, Iinv[3] = { (T)0.5, (T)1, (T)1.5 }, a = (T)0.1;                                             \
        T y[3] = { x[0], x[1], x[2] }, p[3], c[3];                                                                     \
        for (int it = 0; it < 100; it++) {                                                                             \
            for (int i = 0; i < 3; i++) p[i] = -h * Iinv[i] * y[i] - a * y[i] * (T)dw[i];                              \
            c[0] = p[1] * y[2] - p[2] * y[1];                                                                          \
            c[1] = p[2] * y[0] - p[0] * y[2];                                                                          \
            c[2] = p[0] * y[1] - p[1] * y[0];                                                                          \
            T d = p[0] * y[0] + p[1] * y[1] + p[2] * y[2], z[3];                                                       \
            int same = 1;                                                                                              \
            for (int i = 0; i < 3; i++) {                                                                              \
                z[i] = x[i] + c[i] / 2 - d * p[i] / 4;                                                                 \
                same &= z[i] == y[i];                                                                                  \
                y[i] = z[i];                                                                                           \
            }                                                                                                          \
            if (same) break;                                                                                           \
        }                                                                                                              \
        for (int i = 0; i < 3; i++) p[i] = -h * Iinv[i] * y[i] - a * y[i] * (T)dw[i];                                  \
        c[0] = p[1] * y[2] - p[2] * y[1];                                                                              \
        c[1] = p[2] * y[0] - p[0] * y[2];                                                                              \
        c[2] = p[0] * y[1] - p[1] * y[0];                                                                              \
        for (int i = 0; i < 3; i++) x[i] += c[i];                                                                      \
    }
STEP(float)
STEP(double)

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s NOISE STEPS [round]\n", argv[0]);
        return 2;
    }
    FILE *f = fopen(argv[1], "r");
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    long steps = strtol(argv[2], NULL, 10);
    int round = argc > 3 && strcmp(argv[3], "round") == 0;
    const double h = 0.00390625;
    float xf[3] = { sinf(1.1f), 0, cosf(1.1f) };
    double xd[3] = { sin(1.1), 0, cos(1.1) };
    /* x0 is the problem's (binary64) initial value: both ports start from it rounded */
    xf[0] = (float)xd[0];
    xf[2] = (float)xd[2];
    printf("# slpi-trajectory 1\n# preset=iso/rigid-body/trajectories\n# steps=%ld\n"
           "# noise_file=%s\nstep\tt\tx1\tx2\tx3\n",
           steps, strrchr(argv[1], '/') ? strrchr(argv[1], '/') + 1 : argv[1]);
    char line[4096];
    long n = 0;
    for (;;) {
        if (round)
            printf("%ld\t%.17g\t%a\t%a\t%a\n", n, n * h, (double)(float)xd[0], (double)(float)xd[1],
                   (double)(float)xd[2]);
        else
            printf("%ld\t%.17g\t%a\t%a\t%a\n", n, n * h, (double)xf[0], (double)xf[1], (double)xf[2]);
        if (n == steps) break;
        double dw[3];
        do {
            if (!fgets(line, sizeof line, f)) {
                fprintf(stderr, "%s: too few increments\n", argv[1]);
                return 2;
            }
        } while (line[0] == '#');
        char *s = line;
        for (int i = 0; i < 3; i++) dw[i] = strtod(s, &s);
        if (round)
            step_double(xd, dw, h);
        else
            step_float(xf, dw, h);
        n++;
    }
    return fclose(f) || ferror(stdout) ? 1 : 0;
}
