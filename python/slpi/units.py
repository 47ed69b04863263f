"""slpi.units — the physical time unit of the Euler–Zeitlin family (docs/systems.md#time-unit).

slpi integrates the matrix equation Ẋ = [ψ, X] in its own time t. On the unit sphere this
is Euler's (or, with the family's keys, the quasi-geostrophic) equation ω̇ = {ψ, ω} run
at c_N times its rate, so one unit of t is c_N units of the sphere's dimensionless time τ,

    τ = c_N t,   c_N = √(4π/3) / ‖J_z‖_F = √(16π / (N (N² − 1))),

and τ is counted in the period 1/ω₀ of the physical vorticity ω₀ (s⁻¹) that one unit of
the model's vorticity stands for. State ω₀ directly (``vorticity_unit``), or through the
rotation: the key ``rotation=Ω`` is the sphere's Ω in the same unit, so a planet turning
at Ω_phys (s⁻¹; the Earth's sidereal rate is 7.2921e-5) fixes ω₀ = Ω_phys / Ω
(``rotation_rate``). One unit of t then lasts

    seconds = c_N / ω₀ = c_N Ω / Ω_phys.

The radius a of the sphere does not enter the time unit: lengths are in units of a, and
velocities in units of a ω₀."""
import math
from dataclasses import dataclass

import slpi as _slpi


@dataclass(frozen=True)
class TimeUnit:
    """The time unit of one Euler–Zeitlin problem (``slpi.time_unit``).

    Attributes
    ----------
    N : int
        The matrix size.
    sphere : float
        c_N: units of the sphere's dimensionless time τ per unit of slpi's time t.
    seconds : float or None
        Seconds per unit of t (None when no physical scale was stated).
    units : str
        The CF ``units`` of slpi's time: ``"<seconds> s"`` (a scaled UDUNITS unit: the
        values stay slpi's t), or ``"1"`` without a physical scale.
    """
    N: int
    sphere: float
    seconds: float = None
    units: str = "1"

    def to_seconds(self, t):
        """slpi's times t (a number or an array) in seconds."""
        if self.seconds is None:
            raise _slpi.SlpiError(2, "time_unit: no physical scale stated: give rotation_rate= or vorticity_unit=",
                                  "seconds", None)
        return t * self.seconds

    def from_seconds(self, s):
        """The slpi time t of s seconds (for ``h=`` or ``T=``: ``T=tu.from_seconds(86400)``)."""
        if self.seconds is None:
            raise _slpi.SlpiError(2, "time_unit: no physical scale stated: give rotation_rate= or vorticity_unit=",
                                  "seconds", None)
        return s / self.seconds


def _positive(argument, value):
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise _slpi._bad(argument, value, "must be a positive number (s^-1)") from None
    if not (math.isfinite(v) and v > 0):
        raise _slpi._bad(argument, value, "must be a positive finite number (s^-1)")
    return v


def time_unit(problem=None, *, rotation_rate=None, vorticity_unit=None, **keys):
    """The time unit of an Euler–Zeitlin problem: c_N and, given a physical scale, seconds.

    Parameters
    ----------
    problem : str, Problem or None
        As for ``slpi.run``; with ``keys``, an Euler–Zeitlin problem (``system=euler-zeitlin``).
    rotation_rate : float, optional
        The planet's rotation rate Ω_phys in s⁻¹ (the Earth: 7.2921e-5), for a problem with
        ``rotation`` ≠ 0: one unit of vorticity is Ω_phys / rotation.
    vorticity_unit : float, optional
        The physical vorticity ω₀ (s⁻¹) of one unit of the model's vorticity, instead.

    Returns
    -------
    TimeUnit

    Examples
    --------
    >>> tu = slpi.time_unit(system="euler-zeitlin", N=128, rotation=50, rotation_rate=7.2921e-5)
    >>> round(tu.sphere, 6), round(tu.seconds / 3600, 3), tu.units
    (0.004896, 0.932, '3356.9943928471976 s')
    >>> r = slpi.run(system="euler-zeitlin", N=64, rotation=50, h=tu.from_seconds(300), steps=2, noise="none")
    >>> float(tu.to_seconds(r.t[-1]))   # ten minutes
    600.0
    """
    if rotation_rate is not None and vorticity_unit is not None:
        raise _slpi._bad("vorticity_unit", vorticity_unit, "give rotation_rate or vorticity_unit, not both")
    pr = _slpi._problem(problem, keys)
    k = _slpi._keys_of(pr)
    if k.get("system") != "euler-zeitlin":
        raise _slpi._bad("problem", k.get("system"), "a physical time unit is stated for the Euler-Zeitlin family "
                         "only (system=euler-zeitlin): other systems' time is their equations' own")
    N = int(k["N"])
    c = math.sqrt(4 * math.pi / 3) / math.sqrt(N * (N * N - 1) / 12)
    if vorticity_unit is not None:
        w0 = _positive("vorticity_unit", vorticity_unit)
    elif rotation_rate is not None:
        omega = float(k.get("rotation", "0"))
        if omega == 0:
            raise _slpi._bad("rotation_rate", rotation_rate, "the problem has rotation=0: give the key rotation "
                             "(its Omega in the model's units) or vorticity_unit= instead")
        w0 = _positive("rotation_rate", rotation_rate) / abs(omega)
    else:
        return TimeUnit(N=N, sphere=c)
    s = c / w0
    return TimeUnit(N=N, sphere=c, seconds=s, units="%.17g s" % s)
