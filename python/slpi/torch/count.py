"""slpi.torch.count — what a block of PyTorch code asks of its device, counted below
autograd by a dispatch mode (docs/gpu.md#cost): the device operations (every ATen call
that runs a kernel: a call whose outputs all share an input's memory without writing it,
a view, only relabels memory and is not counted; in-place and ``out=`` calls are) and
the peak of the bytes allocated by the block and still alive (each storage counted once,
freed when its first tensor is). Host reads (``.tolist()``) do not pass the dispatcher.

  with Count() as c:
      ...
  c.ops, c.peak_bytes, c.by_name (a collections.Counter of the ops)

PyTorch is imported when a Count is made (the package imports without it)."""
import collections
import weakref


def Count():
    """a fresh counter (a TorchDispatchMode) for one ``with`` block"""
    from torch.utils._python_dispatch import TorchDispatchMode
    return type("Count", (_Count, TorchDispatchMode), {})()


class _Count:
    def __init__(self):
        super().__init__()
        self.ops, self.live, self.peak_bytes = 0, 0, 0
        self.by_name = collections.Counter()
        self._owned = {}

    def _free(self, ptr):
        self.live -= self._owned.pop(ptr, 0)

    def __torch_dispatch__(self, func, types, args=(), kwargs=None):
        import torch
        from torch.utils._pytree import tree_flatten
        try:
            out = func(*args, **(kwargs or {}))
        except RuntimeError:   # PyTorch 1.13 hands a wrapped number back as a Python scalar
            args = [torch.tensor(a) if i and isinstance(a, (int, float)) and not isinstance(a, bool) else a
                    for i, a in enumerate(args)]
            out = func(*args, **(kwargs or {}))
        name = func.overloadpacket.__name__
        ret = func._schema.returns
        writes = any(r.alias_info is not None and r.alias_info.is_write for r in ret)
        ins = {a.storage().data_ptr() for a in tree_flatten((args, kwargs))[0] if isinstance(a, torch.Tensor)}
        outs = [t for t in tree_flatten(out)[0] if isinstance(t, torch.Tensor)]
        view = not writes and bool(outs) and all(t.storage().data_ptr() in ins for t in outs)
        if not view:
            self.ops += 1
            self.by_name[name] += 1
        for t in outs:
            if not view:
                st = t.storage()
                ptr = st.data_ptr()
                if ptr and ptr not in self._owned:
                    self._owned[ptr] = st.nbytes()
                    self.live += st.nbytes()
                    self.peak_bytes = max(self.peak_bytes, self.live)
                    weakref.finalize(t, self._free, ptr)
        return out
