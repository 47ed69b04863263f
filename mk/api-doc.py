#!/usr/bin/env python3
"""api-doc.py — the reference part of docs/api.md, generated from the public headers' comments
(slpi.h: the headers by module it includes, include/slpi/*.h; slpi-tools.h).

    python3 mk/api-doc.py [--check] [--null-cases FILE] slpi.h docs/api.md

Every function slpi.h declares gets one entry: its section, its prototype, the comment
above it (one comment may serve the declarations that follow it without a blank line;
a comment on the declaration's own line is added), and three lines computed from the
header's conventions (the block "Conventions of every function" at its top) and the
tags of its comment:
    NULL:    the parameters that may be NULL ("NULL: a, b" in the comment; default none)
    Owns:    who owns what it returns ("Owns: ..." in the comment; default from the
             return type: an object made by _new/_create/_open/_begin is the caller's,
             freed by the matching _free/_close/_end; a const char * is not freed)
    Thread:  whether calls may run concurrently ("Thread: ..." in the comment; default:
             one thread at a time per object the call changes; calls on distinct
             objects and on const objects only may run concurrently)
Each header has its part of docs/api.md between its markers (markers(): slpi.h, slpi-tools.h),
which is replaced; a part not there yet is appended.
--check: write nothing; exit 1 naming what differs (a function without its entry, a
stale entry), a NULL tag naming no parameter, or (with --null-cases FILE, the test
program) a (function, parameter) NULL rule without its case NULL_CASE(function, parameter)
in FILE or a case without its rule.
"""
import re
import sys

# the markers of a header's part of docs/api.md, and its anchor (slpi.h: "reference")
def markers(header):
    base = header.rsplit("/", 1)[-1]
    if base == "slpi.h":
        return ("<!-- api-reference: generated from slpi.h by mk/api-doc.py; do not edit -->",
                "<!-- end of api-reference -->", "reference")
    stem = base[:-2].replace("slpi-", "")
    return ("<!-- api-reference: generated from %s by mk/api-doc.py; do not edit -->" % base,
            "<!-- end of api-reference (%s) -->" % base, "reference-" + stem)
# the objects a call may change (a const one, or an output struct it fills, is not shared)
OBJECTS = r"(slpi_problem|slpi_fast|slpi_ref|slpi_stepper|slpi_output|slpi_traj_reader|slpi_traj|slpi_noise_source|slpi_progress|slpi_ref_diag|slpi_golden|slpi_golden_result|slpi_verify_result|slpi_score|FILE)"


def strip_comment(text):
    """The text of a /* */ comment, its leading stars and blanks removed per line."""
    body = text.strip()[2:-2]
    lines = [re.sub(r"^\s*\* ?", "", l) for l in body.split("\n")]
    return "\n".join(l.rstrip() for l in lines).strip()


def params(proto):
    """(type, name) of each parameter of a prototype (function pointers named too)."""
    inner = proto[proto.index("(") + 1:proto.rindex(")")]
    out, depth, cur = [], 0, ""
    for ch in inner:
        if ch == "," and depth == 0:
            out.append(cur)
            cur = ""
            continue
        depth += ch == "("
        depth -= ch == ")"
        cur += ch
    out.append(cur)
    res = []
    for p in out:
        p = " ".join(p.split())
        if not p or p == "void" or p == "...":
            continue
        m = re.search(r"\(\s*\*\s*(\w+)\s*\)", p)
        name = m.group(1) if m else re.sub(r"\[.*\]", "", p).split()[-1].lstrip("*")
        res.append((p, name))
    return res


def parse(header):
    """[(section, name, prototype, comment)] of the header's functions; an umbrella (slpi.h,
    slpi-tools.h) stands for the public headers by module it includes (include/slpi/NAME.h),
    in its order, each section named with its header."""
    text = open(header).read()
    subs = re.findall(r'^#include "(slpi/[\w-]+\.h)"', text, re.M) if header.rsplit("/", 1)[-1] in ("slpi.h", "slpi-tools.h") else []
    if subs:
        root = header.rsplit("/", 1)[0] + "/" if "/" in header else ""
        return [("%s (`%s`)" % (s or "general", h), nm, pr, cm)
                for h in subs for s, nm, pr, cm in parse(root + "include/" + h)]
    # the tokens: comments, preprocessor lines, blank lines, and code up to ';' or a
    # brace block at depth 0
    funcs, section, comment, pending_blank = [], "", None, False
    i, n = 0, len(text)
    while i < n:
        if text.startswith("/*", i):
            j = text.index("*/", i) + 2
            c = text[i:j]
            body = strip_comment(c)
            if re.match(r"-{6,}", body):
                first, _, rest = body.partition("\n")
                section = first.strip("- ").strip()
                comment = rest.strip() or None
            else:
                # a comment on the same line as the declaration before it belongs to it
                line_start = text.rfind("\n", 0, i) + 1
                if funcs and text[line_start:i].strip().endswith(";") and funcs[-1][4] == line_start:
                    s, nm, pr, cm, ls = funcs[-1]
                    funcs[-1] = (s, nm, pr, (cm + "\n" if cm else "") + body, ls)
                else:
                    comment = body
            i = j
            continue
        if text.startswith("\n\n", i) or text.startswith("\n#", i):
            comment = None if text.startswith("\n\n", i) else comment
            i += 1
            if text.startswith("#", i):
                i = text.index("\n", i)
            continue
        if text[i] in " \t\n":
            i += 1
            continue
        if text[i] == "#" or text.startswith('extern "C"', i) or text.startswith("}", i):
            i = text.index("\n", i)   # a preprocessor line, C++'s extern "C" { and its }
            continue
        # a statement: up to ';' at depth 0 (struct bodies and inline functions skipped)
        j, depth = i, 0
        while j < n:
            ch = text[j]
            if text.startswith("/*", j):
                j = text.index("*/", j) + 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0 and text[i:j].lstrip().startswith("static inline"):
                    j += 1
                    break
            elif ch == ";" and depth == 0:
                j += 1
                break
            j += 1
        stmt = " ".join(text[i:j].split())
        line_start = text.rfind("\n", 0, i) + 1
        m = re.match(r"(?:static inline )?([\w\s\*]+?)\b(slpi_\w+)\s*\(", stmt)
        if m and not stmt.startswith("typedef") and "{" not in stmt.split("(")[0]:
            proto = stmt if stmt.endswith(";") else stmt[:stmt.index("{")].strip() + ";"
            proto = re.sub(r"\s*__attribute__\(\(.*\)\)\s*;$", ";", proto)
            funcs.append((section, m.group(2), proto, comment, text.rfind("\n", 0, j) + 1))
        else:
            comment = None
        i = j
    return [(s, nm, pr, cm or "") for s, nm, pr, cm, _ in funcs]


def tags(comment, key):
    """The texts of the tags 'key:' in a comment (each up to the end of its sentence)."""
    return [t.strip() for t in re.findall(r"(?:^|(?<=\s))" + key + r": (.+?)(?:\.(?:\s|$)|$)",
                                          comment.replace("\n", " "))]


def tag(comment, key):
    t = tags(comment, key)
    return t[-1] if t else None


def tag_words(t):
    """The names a NULL tag lists (its parenthesized remarks left out)."""
    return re.findall(r"\b\w+\b", re.sub(r"\([^)]*\)", "", t))


def null_params(name, proto, comment):
    """The parameters of this function that its comment's NULL tags name."""
    mine = [p for _, p in params(proto)]
    named = {w for t in tags(comment, "NULL") for w in tag_words(t)}
    return [p for p in mine if p in named]


def owns(name, proto, comment, names):
    t = tag(comment, "Owns")
    if t:
        return t
    ret = proto[:proto.index(name)].strip()
    ps = params(proto)
    made = [p for t_, p in ps if re.match(r"slpi_\w+\s*\*\*", t_)]
    obj = re.match(r"slpi_(\w+?)_(new|create|open|begin)$", name)
    if obj or made:
        kind = obj.group(1) if obj else name.split("_")[1]
        for verb in ("free", "close", "end"):
            if "slpi_%s_%s" % (kind, verb) in names:
                what = ("*%s" % made[0]) if made else "the object returned"
                return "%s is the caller's, freed by slpi_%s_%s" % (what, kind, verb)
    if ret.startswith("const char"):
        return "the string returned is static (or lives as long as the object passed); never freed"
    if ret.startswith("const slpi_") or ret.startswith("FILE"):
        return "the pointer returned belongs to the library (or to the object passed); never freed"
    if re.search(r"\b(free|close|end|abort|commit)$", name):
        return "frees its object (even on error)"
    return "nothing to free"


def thread(name, proto, comment):
    t = tag(comment, "Thread")
    if t:
        return t
    objs = [p for t_, p in params(proto) if re.match(OBJECTS + r"\s*\*\s*\w+$", t_)]
    if objs:
        return "one thread at a time per %s; calls on distinct objects may run concurrently" % ", ".join(objs)
    return "safe: calls may run concurrently"


def render(header):
    funcs = parse(header)
    names = {f[1] for f in funcs}
    begin, end, anchor = markers(header)
    base = header.rsplit("/", 1)[-1]
    test = "tests/api/t-api-null.c" if base == "slpi.h" else "tests/api/t-api-null-%s.c" % base[:-2].replace("slpi-", "")
    out = [begin, "", "<a id=\"%s\"></a>" % anchor, "## Reference (%s)" % base, "",
           "Generated from the comments of `%s` by `mk/api-doc.py` (`make check` runs "
           "`tests/api/t-api-doc.sh`, which fails on a function without its entry). The rules "
           "each entry applies unless it says otherwise are at the top of `slpi.h`: a "
           "pointer argument may be NULL only where its entry says so, an object made by "
           "a `_new`/`_create`/`_open`/`_begin` function is the caller's, and an object is "
           "used by one thread at a time. `%s` calls every function "
           "with each pointer its entry allows to be NULL." % (base, test), ""]
    section, groups = None, []
    for f in funcs:   # declarations that share one comment form one entry
        if groups and f[3] and f[3] == groups[-1][-1][3] and f[0] == groups[-1][-1][0]:
            groups[-1].append(f)
        else:
            groups.append([f])
    for g in groups:
        s, comment = g[0][0], g[0][3]
        if s != section:
            section = s
            out += ["### %s" % (s or "general"), ""]
        out += ["<a id=\"%s\"></a>" % f[1] for f in g]
        out += ["#### %s" % ", ".join("`%s`" % f[1] for f in g), "", "```c"] + [f[2] for f in g] + ["```", ""]
        if comment:
            out += [" ".join(comment.split()), ""]
        for s_, nm, proto, comment in g:
            nulls = null_params(nm, proto, comment)
            lines = ["NULL: %s" % (", ".join("`%s`" % p for p in nulls) if nulls else "none"),
                     "Owns: %s" % owns(nm, proto, comment, names), "Thread: %s" % thread(nm, proto, comment)]
            if len(g) == 1:
                out += ["- " + l for l in lines]
            else:
                out += ["- `%s`: %s" % (nm, "; ".join(lines))]
        out.append("")
    out.append(end)
    return "\n".join(out) + "\n", funcs


def main(argv):
    check = "--check" in argv
    argv = [a for a in argv if a != "--check"]
    cases = None
    if "--null-cases" in argv:
        k = argv.index("--null-cases")
        cases = argv[k + 1]
        del argv[k:k + 2]
    header, doc = argv
    ref, funcs = render(header)
    begin, end, _ = markers(header)
    text = open(doc).read()
    if begin in text:
        a, rest = text.split(begin, 1)
        b = rest.split(end, 1)[1]
        new = a + ref.rstrip("\n") + b
    else:
        new = text.rstrip("\n") + "\n\n" + ref
    bad = []
    for s, nm, proto, comment in funcs:   # a NULL tag names a parameter of a function it documents
        for t in tags(comment, "NULL"):
            if not any(set(tag_words(t)) & {p for _, p in params(p2)} for _, _, p2, c2 in funcs if t in " ".join(c2.split())):
                bad.append("%s: its NULL tag '%s' names none of its parameters" % (nm, t))
    if cases:
        rules = {(nm, p) for s, nm, proto, comment in funcs for p in null_params(nm, proto, comment)}
        have = set(re.findall(r"NULL_CASE\(\s*(slpi_\w+)\s*,\s*(\w+)\s*\)", open(cases).read()))
        bad += ["%s: %s may be NULL (%s) but %s has no NULL_CASE(%s, %s)" % (f, p, header, cases, f, p)
                for f, p in sorted(rules - have)]
        bad += ["%s: NULL_CASE(%s, %s) but %s does not say %s may be NULL" % (cases, f, p, header, p)
                for f, p in sorted(have - rules)]
    if check:
        if new != text:
            old_names = set(re.findall(r'^<a id="(slpi_\w+)"></a>$', text, re.M))
            missing = sorted({f[1] for f in funcs} - old_names)
            extra = sorted(old_names - {f[1] for f in funcs})
            bad.append("%s is not what mk/api-doc.py makes from %s%s%s (regenerate: python3 mk/api-doc.py %s %s)"
                       % (doc, header, "; no entry for " + ", ".join(missing) if missing else "",
                          "; entries of no function: " + ", ".join(extra) if extra else "", header, doc))
        for b_ in bad:
            print("api-doc: " + b_, file=sys.stderr)
        print("api-doc: %d functions of %s%s" % (len(funcs), header, ", %d problems" % len(bad) if bad else ""))
        return 1 if bad else 0
    for b_ in bad:
        print("api-doc: " + b_, file=sys.stderr)
    open(doc, "w").write(new)
    print("api-doc: %d functions of %s into %s" % (len(funcs), header, doc))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
