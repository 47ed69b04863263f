"""slpi.torch.noise — the canonical noise of docs/noise.md#contract in PyTorch integer and
binary64 operations, on any device, bit for bit the increments of ``slpi noise``.

Step 1 (Philox4x32-10, Random123's ``philox4x32_R(10, ctr, key)``) runs in int64
tensors: PyTorch 1.13 has no uint32/uint64 arithmetic, so every 32-bit word is held in
the low half of an int64 and masked, and each 32 x 32 -> 64 product is formed from two
products by the 16-bit halves of the constant (each below 2^48: no int64 overflow).
Steps 2-4 (the word -> normal map) are the contract's binary64 operations in its order,
one PyTorch elementwise operation each (eager mode never fuses them into a fused
multiply-add; never run this under ``torch.compile``). The table is core/noise-table.h
(``slpi/_noise_table.py``, generated from it). Levels (docs/noise.md#coupling): the fine
increments sigma Z_j, sigma = sqrt(h 2^-refine) correctly rounded (Python's ``math.sqrt``),
summed pairwise (left child + right child); truncation (docs/noise.md#truncation) by
exact comparison with D(h, 2) = sqrt(4 h |ln h|), which is computed here in decimal
arithmetic at 60 digits and rounded once to binary64 (core/noise-trunc.c does it in Arb
until the rounding is unambiguous; python/tests/test_torch.py compares the two on the
KAT's step sizes). Coloured (Ornstein–Uhlenbeck) components (docs/noise.md#ou) run the
contract's recursion in binary64, one fine step at a time on every path and component
at once, with the coefficients from decimal arithmetic (``ou_coefficients``).
Every index is checked as core/noise-levels.c checks it (``check``).
"""
import math
from decimal import Decimal, getcontext, localcontext

_M0, _M1 = 0xD2511F53, 0xCD9E8D57          # Random123 PHILOX_M4x32_0, _1
_W0, _W1 = 0x9E3779B9, 0xBB67AE85          # PHILOX_W32_0, _1 (the key bump)
_MASK32 = 0xFFFFFFFF
_TABLES = {}


def _torch():
    import torch
    return torch


def _table(device):
    """the normal map's table by column, (17, 424) binary64 on device (cached)"""
    key = str(device)
    if key not in _TABLES:
        from slpi._noise_table import ROWS
        torch = _torch()
        _TABLES[key] = torch.tensor([[float.fromhex(v) for v in r.split()] for r in ROWS],
                                    dtype=torch.float64, device=device).t().contiguous()   # column by column
    return _TABLES[key]


def _mulhilo(a, m_hi, m_lo, hi, t):
    """a * m for a an int64 tensor of 32-bit words and m a constant (its 16-bit halves m_hi,
    m_lo: ints or int64 tensors broadcasting with a), in place: a becomes the low word, hi
    (a buffer) the high one; t is a scratch buffer. Each 32 x 16-bit product stays below
    2^48 (no int64 overflow); x 2^16, not << 16 (PyTorch 1.13's CPU shifts left element by
    element, about 100 times slower)."""
    torch = _torch()
    torch.mul(a, m_hi, out=hi)                # p_hi < 2^48
    a.mul_(m_lo)                              # p_lo < 2^48
    torch.bitwise_and(hi, 0xFFFF, out=t)
    a.add_(t.mul_(65536))                     # s = p_lo + (p_hi mod 2^16) 2^16 < 2^49
    hi.bitwise_right_shift_(16)
    hi.add_(torch.bitwise_right_shift(a, 32, out=t))   # hi = (p_hi >> 16) + (s >> 32)
    a.bitwise_and_(_MASK32)


def philox(seed, path, component, block):
    """Random123's philox4x32_R(10, ctr, key) with key (seed mod 2^32, seed >> 32) and
    counter (b mod 2^32, b >> 32, component, path) for every block index b of the int64
    tensor ``block`` (path and component: ints or int64 tensors broadcasting with it).
    Returns the four output words r0..r3, int64 tensors of values below 2^32. The two
    products of a round are one stacked product (x0, x2) by (M0, M1), the words held as
    A = (x0, x2) and B = (x3, x1): a round is 12 operations, not 22. In place: eight int64
    buffers the size of ``block`` in all."""
    torch = _torch()
    dev, shape = block.device, (2,) + tuple(block.shape)
    one = (2,) + (1,) * block.dim()
    A, B, H, T = (torch.empty(shape, dtype=torch.int64, device=dev) for _ in range(4))
    torch.bitwise_and(block, _MASK32, out=A[0])
    A[1].copy_(torch.as_tensor(component, dtype=torch.int64, device=dev).expand_as(block))
    A[1].bitwise_and_(_MASK32)
    B[0].copy_(torch.as_tensor(path, dtype=torch.int64, device=dev).expand_as(block))
    B[0].bitwise_and_(_MASK32)
    torch.bitwise_right_shift(block, 32, out=B[1])
    keys, k0, k1 = [], seed & _MASK32, (seed >> 32) & _MASK32
    for rnd in range(10):
        keys.append([k0, k1])
        k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
    consts = torch.tensor(keys + [[_M0 >> 16, _M1 >> 16], [_M0 & 0xFFFF, _M1 & 0xFFFF]], dtype=torch.int64,
                          device=dev)
    m_hi, m_lo = consts[10].view(one), consts[11].view(one)
    for rnd in range(10):
        _mulhilo(A, m_hi, m_lo, H, T)             # A <- (lo0, lo1), H <- (hi0, hi1)
        torch.bitwise_xor(H[1], B[1], out=T[0])   # hi1 ^ x1
        torch.bitwise_xor(H[0], B[0], out=T[1])   # hi0 ^ x3
        T.bitwise_xor_(consts[rnd].view(one))     # ^ (k0, k1): the new (x0, x2)
        A, B, T = T, A, B                         # the new (x3, x1) = (lo0, lo1)
    return A[0], B[1], A[1], B[0]


def word_normals(lo, hi):
    """Steps 2-4 of the contract on the 64-bit words w = hi 2^32 + lo (int64 tensors of
    32-bit values): the standard normals, binary64."""
    torch = _torch()
    t = _table(lo.device)
    neg = (hi >> 31) == 1
    m = (hi & 0x7FFFFFFF) * 2097152 + (lo >> 11)           # (w >> 11) mod 2^52 (x 2^21: as above)
    p = (m.to(torch.float64) * 2.0 + 1.0) * 2.0 ** -54       # exact: 2m + 1 < 2^53
    row = (p.view(torch.int64) >> 49) - 8 * (1023 - 54)
    flat = row.reshape(-1)

    def c(j):   # entry j of each number's row (a contiguous gather per column)
        return torch.index_select(t[j], 0, flat).reshape(row.shape)
    tau = (p - c(0)) * c(1)
    q = c(16)
    for k in range(9, -1, -1):
        q = c(6 + k) + tau * q
    v = p - 0.5
    cv = 134217729.0 * v
    vh = cv - (cv - v)
    vl = v - vh
    gh, gl = c(4), c(5)
    ph = v * c(3)
    pl = (((vh * gh - ph) + vh * gl) + vl * gh) + vl * gl
    x = (c(2) + ph) + (pl + q)
    return torch.where(neg, -x, x)


def normals(seed, path, component, index, device=None):
    """Normal number ``index`` of the stream (seed, path, component): every argument but
    seed may be an int64 tensor (or int), broadcast together; binary64 tensor."""
    torch = _torch()
    j = torch.as_tensor(index, dtype=torch.int64, device=device)
    shape = torch.broadcast_shapes(j.shape, torch.as_tensor(path).shape, torch.as_tensor(component).shape)
    j = j.expand(shape).contiguous()   # contiguous: PyTorch's CPU kernels are far slower on
    dev = j.device                      # broadcast (stride-0) operands
    pth = torch.as_tensor(path, dtype=torch.int64, device=dev).expand(shape).contiguous()
    cmp = torch.as_tensor(component, dtype=torch.int64, device=dev).expand(shape).contiguous()
    r0, r1, r2, r3 = philox(seed, pth, cmp, j >> 1)
    odd = (j & 1) == 1
    return word_normals(torch.where(odd, r2, r0), torch.where(odd, r3, r1))


SLICE_MIN = 1 << 14   # normals made at once: an eighth of a request above this minimum (no cap: eight slices)


def stream(seed, paths, comps, first, count, device=None):
    """Normals first .. first + count - 1 of the streams (seed, path, component) for every
    path and component (int64 tensors): a binary64 tensor (P, count, M). One Philox call
    gives normals 2b and 2b + 1 (both used), and the normals are made in slices of the
    index (of the components too, where one block of every component is more than a slice)
    so that the scratch stays below an eighth of the result (docs/gpu.md#noise: bytes a
    normal) and a request above the minimum is about eight slices, whatever its shape and
    size (each slice is some 200 device operations)."""
    torch = _torch()
    P, M = paths.shape[0], comps.shape[0]
    out = torch.empty(P, count, M, dtype=torch.float64, device=device)
    if count == 0 or P * M == 0:
        return out
    b_first, b_end = first >> 1, (first + count + 1) >> 1
    size = max(SLICE_MIN, P * count * M // 8)
    per = max(1, size // (2 * P * M))                       # blocks a slice
    cper = M if per > 1 or 2 * P * M <= size else max(1, size // (2 * P))   # components a slice
    for s0 in range(b_first, b_end, per):
        s1 = min(b_end, s0 + per)
        a, b = max(first, 2 * s0), min(first + count, 2 * s1)
        for c0 in range(0, M, cper):
            c1 = min(M, c0 + cper)
            blk = torch.arange(s0, s1, dtype=torch.int64, device=device)[None, :, None].expand(P, s1 - s0, c1 - c0)
            r0, r1, r2, r3 = philox(seed, paths[:, None, None], comps[None, None, c0:c1], blk)
            z = word_normals(torch.stack([r0, r2], 2), torch.stack([r1, r3], 2)).view(P, 2 * (s1 - s0), c1 - c0)
            out[:, a - first:b - first, c0:c1].copy_(z[:, a - 2 * s0:b - 2 * s0])
    return out


def threshold(h, ell=2.0):
    """D(h, ell) = sqrt(2 ell h |ln h|) rounded to binary64 (docs/noise.md#truncation), from
    60-digit decimal arithmetic (correctly rounded ln and sqrt) on the exact binary64 h"""
    if not (0 < h < 1) or not (ell > 0) or not math.isfinite(ell):
        raise ValueError("threshold: h=%r, ell=%r: the rule needs 0 < h < 1 and ell > 0" % (h, ell))
    with localcontext() as ctx:
        ctx.prec = 60
        dh = Decimal(h)
        d = (2 * Decimal(ell) * dh * (-dh.ln())).sqrt()
        return float(d)


MAX_REFINE, MAX_DRAWS = 40, 1 << 38      # include/slpi/noise.h: SLPI_NOISE_MAX_REFINE, _MAX_DRAWS
OU_STREAM = 1 << 31                        # core/noise.h: SLPI_NOISE_OU_STREAM


def check(seed, paths, components, h, refine, first, steps):
    """the arguments of increments, refused (slpi.SlpiError, naming the value) as
    core/noise-levels.c's noise_args_check and slpi.noise refuse them: seed 0..2^64-1,
    paths and components 0..2^32-1, h in (0, 1e6], refine 0..40, (first + steps) 2^refine
    below 2^62, steps 2^refine at most 2^38 fine draws a component"""
    from slpi import _bad
    if not 0 <= seed < 1 << 64:
        raise _bad("seed", seed, "out of range 0..2^64-1")
    for name, vals in (("path", paths), ("component", components)):
        bad = [v for v in vals if not 0 <= v < 1 << 32]
        if bad:
            raise _bad(name, bad[0], "%ss are numbered 0..2^32-1" % name)
    if not (0 < h <= 1e6):
        raise _bad("h", h, "the step size must be finite and in (0, 1e6]")
    if not 0 <= refine <= MAX_REFINE:
        raise _bad("refine", refine, "out of range [0, %d]" % MAX_REFINE)
    lim = 1 << (62 - refine)
    if first < 0 or steps < 0 or first >= lim or steps >= lim - first:
        raise _bad("first", first, "count=%d, refine=%d: (first + count) 2^refine must be below 2^62" % (steps, refine))
    if steps > MAX_DRAWS >> refine:
        raise _bad("refine", refine, "%d increments of 2^%d fine draws each are more than the 2^38 one generation "
                   "may take (docs/noise.md#refine)" % (steps, refine))


def ou_coefficients(tau, delta):
    """docs/noise.md#ou's (a, c, s, g, q, r, s0) for correlation time tau on the fine step
    delta (binary64 both): each exact real rounded once to binary64, from decimal
    arithmetic (correctly rounded exp and sqrt) at 60 digits plus twice the digits that
    1 - e and its neighbours cancel (x = delta/tau small); a = 0 when RN(delta/tau) > 708"""
    x_bin = delta / tau
    lost = max(0, -math.floor(math.log10(x_bin))) if x_bin > 0 else 0
    with localcontext() as ctx:
        ctx.prec = 60 + 2 * lost
        ctx.Emin, ctx.Emax = -10 ** 9, 10 ** 9
        t, d = Decimal(tau), Decimal(delta)
        x = d / t
        e = (-x).exp()
        om = 1 - e
        s = ((1 - e * e) / (2 * t) - om * om / d).sqrt()
        return (0.0 if x_bin > 708 else float(e), float(om / d), float(s), float(1 - om / x), float(t * om),
                float(t * s), float((1 / (2 * t)).sqrt()))


def ou_start(seed, path, taus, device=None):
    """eta at step 0 of every path and component, (P, M) binary64: s0 times normal 0 of
    the OU stream (seed, path, 2^31 + k); 0 for a white component (tau 0)"""
    torch = _torch()
    paths = torch.as_tensor(list(path), dtype=torch.int64, device=device)
    s0 = torch.tensor([ou_coefficients(t, 1.0)[6] if t > 0 else 0.0 for t in taus], dtype=torch.float64,
                      device=device)
    comps = torch.arange(len(taus), dtype=torch.int64, device=device) + OU_STREAM
    return s0 * normals(seed, paths[:, None], comps[None, :], 0, device=device)


def increments(seed, path, components, h, steps, refine=0, first=0, truncate=None, device=None, taus=None,
               eta=None):
    """The increments dW[path, step, component] of the canonical noise, as ``slpi noise``
    and ``slpi run`` consume them: path an int or a sequence of paths, components an int
    M (components 0..M-1) or a sequence; steps first .. first+steps-1 at step size h, each
    the dyadic sum of 2^refine fine increments; ``truncate``: None, or the threshold D
    applied after the summation (``threshold(h)`` for the ISO/SVI rule). ``taus`` (one
    per component, 0 white) and ``eta`` ((P, M), the OU state at step ``first``, from
    ou_start or the previous call) make the coloured components the OU increments of
    docs/noise.md#ou; eta is then advanced in place. Returns a binary64 tensor (P, steps,
    M) on device. Arguments out of range raise ValueError (``check``)."""
    torch = _torch()
    plist = [path] if isinstance(path, int) else list(path)
    clist = list(range(components)) if isinstance(components, int) else list(components)
    check(seed, plist, clist, h, refine, first, steps)
    paths = torch.as_tensor(plist, dtype=torch.int64, device=device)
    comps = torch.as_tensor(clist, dtype=torch.int64, device=device)
    fine = 1 << refine
    z = stream(seed, paths, comps, first * fine, steps * fine, device)
    z.mul_(math.sqrt(math.ldexp(h, -refine)))             # (P, steps 2^r, M)
    if taus is not None and any(t > 0 for t in taus):
        z = _ou(seed, paths, comps, taus, math.ldexp(h, -refine), first * fine, z, eta)
    z = z.view(len(paths), steps, fine, len(comps))
    while z.shape[2] > 1:                                  # left child + right child
        z = z[:, :, 0::2, :] + z[:, :, 1::2, :]
    z = z[:, :, 0, :]
    if truncate is not None:
        D = float(truncate)
        z.clamp_(-D, D)                                    # exact: min and max of binary64 numbers
    return z


def _ou(seed, paths, comps, taus, delta, j0, w, eta):
    """docs/noise.md#ou's step 3 on the fine white increments w (P, n, M), fine indices j0 ..:
    Y_j = (g w_j + q eta_j) - r z_j, eta_{j+1} = (a eta_j + c w_j) + s z_j, z_j normal j + 1
    of the OU stream; white components keep w_j. eta (P, M) is advanced in place."""
    torch = _torch()
    dev = w.device
    co = torch.tensor([ou_coefficients(t, delta) if t > 0 else (0.0,) * 7 for t in taus], dtype=torch.float64,
                      device=dev).t()
    a, c, s, g, q, r = co[0], co[1], co[2], co[3], co[4], co[5]
    coloured = torch.tensor([t > 0 for t in taus], device=dev)
    z = stream(seed, paths, comps + OU_STREAM, j0 + 1, w.shape[1], dev)
    y = w.clone()
    for i in range(w.shape[1]):
        wi, zi = w[:, i, :], z[:, i, :]
        y[:, i, :] = torch.where(coloured, (g * wi + q * eta) - r * zi, wi)
        eta.copy_((a * eta + c * wi) + s * zi)
    return y


getcontext()   # decimal's context is per thread: threshold() uses a local one
