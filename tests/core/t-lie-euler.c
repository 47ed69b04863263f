/* t-lie-euler.c — when stochastic Lie–Euler (RKMK-LE) is Stratonovich-consistent on a
 * model (core/lie-euler.c, slpi_model_le_consistent; docs/models.md#schemes), over a table
 * of noise Hamiltonians whose degree and dependence are known by hand: quotients with the
 * coordinates on either side of the bar, compositions, products with constants on either
 * side, on so(3) (no two coordinates commute) and se(3) (pi_i with gamma_i, and the
 * translations gamma1..gamma3, commute). For each, computed two ways:
 *  - the rule: slpi_expr_degree of the parsed noise Hamiltonian is the table's, and a
 *    model with scheme=rkmk-le is accepted or refused (exit-code behaviour of every
 *    front end: slpi_problem_finish) as the table says;
 *  - the mathematics: the missed drift 1/2 sum_k ad*_{D xi_k[V_k]} mu (gaps/consistency.c,
 *    from the double path's generators) vanishes or not as the table says, and wherever
 *    the rule accepts it vanishes (the rule is sufficient: it may refuse a consistent
 *    noise, e.g. a function of the single functional x1 + x2, never accept an
 *    inconsistent one). */
#include "core/problem-struct.h"
#include "core/expr.h"
#include "gaps/gaps.h"
#include "testutil.h"

typedef struct {
    const char *algebra, *noise;
    int degree;     /* slpi_expr_degree: -1 not visibly a polynomial */
    int rule;       /* 1: rkmk-le accepted */
    int consistent; /* 1: the missed drift vanishes */
} le_case;

#define SO3 "so3"
#define SE3 "se3"
static const le_case cases[] = {
    /* quotients: the coordinates in the denominator, in the numerator, on both sides */
    { SO3, "0.1/(1+x1*x2)", -1, 0, 0 },
    { SO3, "0.1/(x1+x2)", -1, 0, 1 }, /* a function of x1 + x2 alone: consistent */
    { SO3, "3/x2", -1, 1, 1 },
    { SO3, "(x1+x2)/2", 1, 1, 1 },
    { SO3, "(x1 - 2*x3)/(1+2)", 1, 1, 1 },
    { SO3, "x1*x2/4", 2, 0, 0 },
    { SO3, "x1/(2+x2)", -1, 0, 0 },
    { SO3, "x2^2/(1/3)", 2, 1, 1 },
    /* compositions */
    { SO3, "sin(x1)", -1, 1, 1 },
    { SO3, "exp(x1*x2)", -1, 0, 0 },
    { SO3, "sin(x1+x2)", -1, 0, 1 },
    { SO3, "(x1+1)^2", 2, 1, 1 },
    { SO3, "(x1+x3)^3", 3, 0, 1 },
    { SO3, "sqrt(1+x3^2)", -1, 1, 1 },
    /* products with constants, each side */
    { SO3, "2*x3", 1, 1, 1 },
    { SO3, "x3*2 - x1*0.5", 1, 1, 1 },
    { SO3, "-(x1-x2)*0.5", 1, 1, 1 },
    { SO3, "0.5*x1*x2", 2, 0, 0 },
    { SO3, "x1*(x2*0.5)", 2, 0, 0 },
    /* se(3) (pi1..pi3, gamma1..gamma3): commuting pairs */
    { SE3, "pi1*gamma1", 2, 1, 1 },
    { SE3, "pi1*gamma2", 2, 0, 0 },
    { SE3, "0.3/(1+gamma1*gamma2)", -1, 1, 1 },
    { SE3, "gamma1/(1+pi1)", -1, 1, 1 },
    { SE3, "gamma2/(1+pi1)", -1, 0, 0 },
    { SE3, "(gamma1+gamma3)/3", 1, 1, 1 },
};

static int build(slpi_problem *p, const le_case *c, const char *scheme, slpi_error *err)
{
    int three = !strcmp(c->algebra, SO3);
    slpi_problem_init(p, SLPI_SYS_MODEL, SLPI_SCHEME_TMK);
    int rc = slpi_problem_set(p, "algebra", c->algebra, err);
    if (!rc)
        rc = slpi_problem_set(p, "H",
                              three ? "x1^2/2 + x2^2 + 1.5*x3^2"
                                    : "pi1^2/2 + pi2^2 + 1.5*pi3^2 + gamma1*pi1 + gamma2^2/2 + gamma3^2/2",
                              err);
    if (!rc) rc = slpi_problem_set(p, "noise_H1", c->noise, err);
    if (!rc) rc = slpi_problem_set(p, "x0", three ? "1,0.5,0.2" : "1,0.5,0.2,0.3,-0.4,0.6", err);
    if (!rc) rc = slpi_problem_set(p, "scheme", scheme, err);
    if (!rc) rc = slpi_problem_finish(p, err);
    return rc;
}

int main(void)
{
    test_start("t-lie-euler", 42);
    uint64_t seed = test_rand_u64();
    slpi_error err = { 0, "" };
    int n = (int)(sizeof cases / sizeof cases[0]), refused = 0, rule_only = 0;
    for (int i = 0; i < n; i++) {
        const le_case *c = &cases[i];
        slpi_problem p;
        /* the rule as a user meets it: rkmk-le accepted or refused, with the reason */
        int rc = build(&p, c, "rkmk-le", &err);
        TEST_CHECKF(rc == (c->rule ? SLPI_OK : SLPI_EINPUT) &&
                        (c->rule || strstr(err.msg, "rkmk-le is not applicable")),
                    "%s noise_H1=%s: rkmk-le %s (want %s): %s", c->algebra, c->noise, rc ? "refused" : "accepted",
                    c->rule ? "accepted" : "refused", rc ? err.msg : "");
        refused += rc != SLPI_OK;
        /* the degree of the parsed noise Hamiltonian, and the missed drift */
        rc = build(&p, c, "tmk", &err);
        TEST_CHECKF(rc == SLPI_OK, "%s noise_H1=%s: %s", c->algebra, c->noise, err.msg);
        if (rc) continue;
        slpi_model m;
        rc = slpi_model_parse(&m, &p, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s: %s", c->noise, err.msg);
        if (!rc) {
            int deg = slpi_expr_degree(&m.H[1]);
            TEST_CHECKF(deg == c->degree, "noise_H1=%s: degree %d, want %d", c->noise, deg, c->degree);
            slpi_model_free(&m);
        }
        double d = -1;
        rc = slpi_gaps_missed_drift(&p, 0, test_iters(6), seed + (uint64_t)i, &d, &err);
        TEST_CHECKF(rc == SLPI_OK, "%s: %s", c->noise, err.msg);
        /* zero: central differences of a generator along V, exact up to rounding for
         * polynomial generators and ~1e-7 relative (eps = 1e-3 |mu|, its square) for the
         * others; a missed drift is O(1) relative here */
        int vanishes = rc == SLPI_OK && d <= 1e-5;
        TEST_CHECKF(rc || vanishes == c->consistent, "%s noise_H1=%s: missed drift %.3g (want %s)", c->algebra,
                    c->noise, d, c->consistent ? "0" : "> 1e-5");
        TEST_CHECKF(rc || !slpi_problem_le_consistent(&p, NULL) || vanishes,
                    "UNSOUND: %s noise_H1=%s: the rule accepts a missed drift of %.3g", c->algebra, c->noise, d);
        rule_only += vanishes && !slpi_problem_le_consistent(&p, NULL);
        printf("  %-4s noise_H1=%-24s degree %2d  rkmk-le %-8s  missed drift %.2e\n", c->algebra, c->noise, c->degree,
               c->rule ? "accepted" : "refused", d);
    }
    printf("  %d noise Hamiltonians, %d refused (%d of them consistent: the rule is sufficient only)\n", n, refused,
           rule_only);
    TEST_END();
}
