"""binomial.py - exact binomial tails and the Clopper-Pearson bounds of a rate, for the
false-FAIL counts of tests/port/power.py (docs/power.md#false-fail-rule)."""
import math


def binom_pmf(i, n, p):
    """P(X = i) for X ~ Binomial(n, p), 0 < p < 1"""
    return math.exp(math.lgamma(n + 1) - math.lgamma(i + 1) - math.lgamma(n - i + 1) + i * math.log(p)
                    + (n - i) * math.log1p(-p))


def binom_cdf(k, n, p):
    """P(X <= k) for X ~ Binomial(n, p), summed by math.fsum (correctly rounded, so the
    same digits on every Python: sum() became compensated in 3.12)"""
    if p <= 0:
        return 1.0
    if p >= 1:
        return 1.0 if k >= n else 0.0
    return math.fsum(binom_pmf(i, n, p) for i in range(0, k + 1))


def binom_sf(k, n, p):
    """P(X >= k) for X ~ Binomial(n, p), summed from its own terms (1 - binom_cdf cancels
    in the far tail)"""
    if k <= 0:
        return 1.0
    if p <= 0:
        return 0.0
    if p >= 1:
        return 1.0 if k <= n else 0.0
    return math.fsum(binom_pmf(i, n, p) for i in range(k, n + 1))


def clopper_pearson(k, n, level):
    """the exact one-sided bounds (lower, upper) at confidence `level` of a binomial rate"""
    def solve(f):
        lo, hi = 0.0, 1.0
        for _ in range(60):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if f(mid) else (lo, mid)
        return (lo + hi) / 2
    upper = 1.0 if k >= n else solve(lambda p: binom_cdf(k, n, p) > 1 - level)
    lower = 0.0 if k == 0 else solve(lambda p: binom_sf(k, n, p) < 1 - level)
    return lower, upper
