"""tests/ckpt-reseal.py FILE... — renew the digests of edited checkpoints in place, as a
forger would (tests/ckptutil.h does the same for the C tests): each "section NAME ..."
line gets the count and FNV-1a 64 of the lines up to the next section line, and the end
line over the first line and the section lines (a last "end ..." line is dropped first), so
that a shell test reaches what the format's parser does with the edit
(core/container.c)."""
import sys


def fnv(data, h=0xcbf29ce484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


def reseal(text):
    lines = text.split(b"\n")[:-1] if text.endswith(b"\n") else text.split(b"\n")
    if lines and lines[-1].startswith(b"end "):
        lines.pop()
    out, i, index = [lines[0]], 1, fnv(lines[0] + b"\n")
    while i < len(lines):
        j = i + 1 if lines[i].startswith(b"section ") else i
        k = j
        while k < len(lines) and not lines[k].startswith(b"section "):
            k += 1
        body = b"".join(ln + b"\n" for ln in lines[j:k])
        if j > i:
            out.append(b"section %s %d %016x" % (lines[i].split(b" ")[1], k - j, fnv(body)))
            index = fnv(out[-1] + b"\n", index)
        out.extend(lines[j:k])
        i = k
    return b"".join(ln + b"\n" for ln in out) + b"end %016x\n" % index


for f in sys.argv[1:]:
    data = open(f, "rb").read()
    open(f, "wb").write(reseal(data))
