"""slpi._overrides — the keys of a problem that another input of the call overrides, so that
no file slpi writes claims what a run did not do.

- ``dW`` given to ``run`` or ``ensemble`` replaces the problem's canonical noise: a
  ``noise_tau`` (Ornstein-Uhlenbeck colouring of that noise, docs/noise.md#ou) or a
  ``noise_file`` would be ignored, so the call is refused (``slpi run`` refuses noise_tau
  with noise_file the same way). The noise's ``seed``, ``path`` and ``refine``, which
  every problem has, are recorded as overridden.
- ``x0`` given replaces the problem's initial state: its ``x0`` or ``x0_file`` and the
  keys that make one (Euler-Zeitlin's ``ic_lmax`` and ``scale``, the heavy top's
  ``theta0`` and ``pi0``, sine-Euler's ``ic`` and ``ic_seed``) are recorded as overridden.
- Euler-Zeitlin's ``amp`` scales the built-in noise (``noise=Q`` or ``L``) only; with
  ``noise=modes``, ``fields`` or ``none`` it is recorded as overridden.

``Result.overridden`` and ``Ensemble.overridden`` hold the keys with the reason; every
writer (``slpi.save``, ``to_xarray``, ``run(stream=)``) records them as the attribute
``overridden``, ``"key, key: reason; ..."``, and leaves the keys themselves out of the
file's attributes: a file's attributes are the keys that acted (slpi/store.py)."""
import slpi as _slpi


# the keys that make a problem's initial state (slpi list --keys), which x0= replaces
_INITIAL = ("x0", "x0_file", "ic_lmax", "scale", "theta0", "pi0", "ic", "ic_seed")


def _colours(tau):
    """Whether a noise_tau value colours some component (not absent, not all zeros)."""
    try:
        return any(float(t) != 0 for t in tau.replace(",", " ").split())
    except ValueError:
        return bool(tau.strip())


def refuse_with_dW(keys):
    """SlpiError when dW is given to a problem (its keys) whose noise_tau or noise_file
    dW would silently replace."""
    if _colours(keys.get("noise_tau", "")):
        raise _slpi._bad("noise_tau", keys["noise_tau"], "dW gives the increments, white as given: noise_tau colours "
                         "the canonical noise, which dW replaces (drop one of the two; slpi.increments draws OU "
                         "increments to pass as dW)")
    if keys.get("noise_file"):
        raise _slpi._bad("noise_file", keys["noise_file"], "dW gives the increments: the noise file would be "
                         "ignored (drop one of the two)")


def overridden(keys, dW=False, x0=False):
    """{key: reason} for the keys of the problem (dict) that do not act in a call given
    dW and x0 (booleans: whether the call gave them)."""
    out = {}
    for given, names, why in ((dW, ("seed", "path", "refine"), "dW gave the increments"),
                              (x0, _INITIAL, "x0 gave the initial state")):
        out.update({k: why for k in names if given and k in keys})
    if keys.get("system") == "euler-zeitlin" and keys.get("noise") in ("modes", "fields", "none") and "amp" in keys:
        out["amp"] = "noise=%s: amp scales the built-in noise Q and L only" % keys["noise"]
    return out


def attribute(over):
    """The attribute ``overridden`` of a writer: the keys grouped by reason, or None."""
    by = {}
    for k, why in (over or {}).items():
        by.setdefault(why, []).append(k)
    return "; ".join("%s: %s" % (", ".join(ks), why) for why, ks in by.items()) or None
