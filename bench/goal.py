"""goal.py - a goal's line, the one form bench/goals.py reads (docs/experiments.md#goals):
    goal ID: VALUE (<= GOAL; bound BOUND) WHAT: met|not met
the Python benchmarks' twin of benchutil.h's bench_goal."""


def line(ident, value, le, goal, bound, what):
    """the line of goal `ident`: `le` an upper limit (else a lower one), bound 0 none"""
    met = value <= goal if le else value >= goal
    return "goal %s: %.4g (%s %g%s) %s: %s" % (ident, value, "<=" if le else ">=", goal,
                                              "; bound %g" % bound if bound > 0 else "", what,
                                              "met" if met else "not met")
