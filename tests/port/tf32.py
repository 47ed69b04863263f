#!/usr/bin/env python3
"""tf32.py - slpi.torch's float32 port with its matrix products done as a TF32 unit does
them, emulated on the CPU: every float32 operand of a product (`@`, torch.bmm,
Tensor.baddbmm_) converted to TF32 (10 stored mantissa bits) before an exact product and
a binary32 accumulation; every other operation binary32. The conversion is one of

  rn  round to nearest, ties to even (what `slpi verify --precision tf32` presumes)
  rz  round toward zero: the low 13 mantissa bits dropped (a unit fed float32 registers
      that reads only the first 10 mantissa bits; `--precision tf32-rz`)

and with `ftz` the products' operands below binary32's smallest normal 2^-126 are
flushed to zero first (`--precision tf32+ftz`, `tf32-rz+ftz`). A port for the oracle's
tests of those declarations (tests/oracle/t-verify-tf32.sh; docs/power.md#tf32-rule).

usage: tf32.py rn|rz[+ftz] PRESET PATHS FIRST STEPS FOLDER [KEY=VALUE ...]
Writes one file a path, FOLDER/path-K.tsv (slpi.torch.write). Exit 77 without PyTorch."""
import os
import sys


def convert(torch, mode, ftz):
    """the TF32 conversion of a float32 tensor (others unchanged), as a function"""
    def conv(a):
        if not isinstance(a, torch.Tensor) or a.dtype != torch.float32:
            return a
        if ftz:
            a = torch.where(a.abs() < 2.0 ** -126, torch.zeros_like(a), a)
        b = a.contiguous().view(torch.int32)
        if mode == "rn":   # add half the dropped unit, less one on an even kept bit: ties to even
            b = b + (0x0FFF + ((b >> 13) & 1))
        return (b & ~0x1FFF).view(torch.float32).view(a.shape)
    return conv


def emulate(torch, mode, ftz):
    """products of TF32 operands from here on (the process's torch)"""
    conv = convert(torch, mode, ftz)
    mm, bmm, badd = torch.Tensor.__matmul__, torch.bmm, torch.Tensor.baddbmm_
    torch.Tensor.__matmul__ = lambda a, b: mm(conv(a), conv(b))
    torch.bmm = lambda a, b, **kw: bmm(conv(a), conv(b), **kw)
    torch.Tensor.baddbmm_ = lambda s, a, b, **kw: badd(s, conv(a), conv(b), **kw)


def main(argv):
    if len(argv) < 6 or argv[0].split("+")[0] not in ("rn", "rz") or argv[0].split("+")[1:] not in ([], ["ftz"]):
        raise SystemExit(__doc__)
    try:
        import torch
    except ImportError:
        sys.exit(77)
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "python"))
    import slpi.torch
    mode, ftz = argv[0].split("+")[0], argv[0].endswith("+ftz")
    keys = dict(kv.split("=", 1) for kv in argv[6:])
    emulate(torch, mode, ftz)
    e = slpi.torch.run(argv[1], paths=int(argv[2]), first_path=int(argv[3]), precision="tf32",
                       steps=int(argv[4]), **keys)
    slpi.torch.write(e, argv[5])


if __name__ == "__main__":
    main(sys.argv[1:])
