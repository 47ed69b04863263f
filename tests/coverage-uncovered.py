#!/usr/bin/python3
"""tests/coverage-uncovered.py INFO... — the branches no test takes, from lcov
tracefiles (`make coverage` writes build/coverage/uncovered.md with ref/ and oracle/).

One line per source line holding an untaken branch: file:line, how many of its branch
outcomes were never taken, the line itself, and a class of reason found from the line's
text (first match of CLASSES). The class is a guess from the text, not a review: it says
which kind of branch it is (an allocation check, an internal invariant, an input refused
earlier by the problem's validation, a certified solve failing inside a scheme, ...).
Read it as where to look, then keep or replace the reason by hand in docs.

A reviewed reason replaces the guess: tests/coverage-reasons.txt holds lines
`FILE<TAB>LINE TEXT<TAB>REASON` (the source line's text, stripped, so that a reason
survives edits elsewhere in the file; `#` starts a comment); such rows say
"reviewed: REASON". The closing line counts the rows reviewed and guessed."""
import collections
import os
import re
import sys

CLASSES = [
    (r"SLPI_NEVER", "internal invariant (SLPI_NEVER): false by construction"),
    (r"out of memory|alloc\(|\w+ == NULL\)", "allocation failure: no test injects one"),
    (r"slpi_problem_validate|check_finished|slpi_problem_callbacks",
     "refused before: core/problem-validate.c checks it first (t-bad-inputs)"),
    (r"isfinite|is_finite|> 0\) \|\|", "non-finite or non-positive parameter or ball: refused earlier by validation, "
                                        "or a ball that no test drives to infinity"),
    (r"\bp->\w+\.\w+ [<>]|\bN [<>] \d|N % 2", "parameter range: refused earlier by the problem's validation"),
    (r"_MAX|_NMAX|DENSE|SPLIT", "a size branch (large N, dense fallback) no test reaches: minutes per case"),
    (r"switch", "a case no test takes (a noise form or algebra kind run only in the audit)"),
    (r"\bok\b|UNABLE|!precond|jac\(|inv\(|eig_", "a certified solve or enclosure failing (UNABLE) at this point: "
                                                  "the tests reach UNABLE through other operators"),
    (r"\bfor \(|\bwhile \(", "a loop condition's second operand that never decides"),
    (r"\?", "one arm of ?: never taken"),
]


def load_reviewed():
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "coverage-reasons.txt")
    reviewed = {}
    try:
        lines = open(path).read().splitlines()
    except OSError:
        return reviewed
    for line in lines:
        if not line.strip() or line.startswith("#"):
            continue
        f, text, why = line.split("\t")
        reviewed[(f, text.strip())] = why
    return reviewed


def classify(text):
    for pat, why in CLASSES:
        if re.search(pat, text):
            return why
    return "an error or corner path no test reaches"


def main(paths):
    top = os.getcwd()
    miss = collections.OrderedDict()
    for path in paths:
        f = None
        for line in open(path):
            if line.startswith("SF:"):
                f = os.path.relpath(line[3:].strip(), top)
            elif line.startswith("BRDA:"):
                ln, _, _, taken = line[5:].strip().split(",")
                if taken in ("-", "0"):
                    miss[(f, int(ln))] = miss.get((f, int(ln)), 0) + 1
    reviewed = load_reviewed()
    counts = collections.Counter()
    files = collections.Counter()
    for (f, _), n in miss.items():
        files[f] += n
    print("# Untaken branches\n")
    print("%d untaken branch outcomes on %d lines of %d files (class: a guess from the line's text, "
          "tests/coverage-uncovered.py).\n" % (sum(miss.values()), len(miss), len(files)))
    print("| place | untaken | line | class |\n|---|---|---|---|")
    for (f, ln), n in sorted(miss.items()):
        try:
            text = open(os.path.join(top, f)).read().splitlines()[ln - 1].strip()
        except (OSError, IndexError):
            text = ""
        why = reviewed.get((f, text))
        counts["reviewed" if why else "guessed"] += 1
        print("| %s:%d | %d | `%s` | %s |" % (f, ln, n, text[:90].replace("|", "\\|").replace("`", "'"),
                                           "reviewed: " + why if why else classify(text)))
    print("\n%d lines with a reviewed reason (tests/coverage-reasons.txt), %d with a guessed class."
          % (counts["reviewed"], counts["guessed"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]) if sys.argv[1:] else 2)
