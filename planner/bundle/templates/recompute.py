"""Activation recompute (torch.utils.checkpoint) with routed-token counting off
during the recompute, so the router-bias statistics count each token once."""
import contextlib

from torch.utils.checkpoint import checkpoint

_COUNTING = [True]


@contextlib.contextmanager
def counting(on: bool):
    """Count routed tokens (for the bias update) only in the first forward."""
    old, _COUNTING[0] = _COUNTING[0], on
    try:
        yield
    finally:
        _COUNTING[0] = old


def counting_now() -> bool:
    return _COUNTING[0]


def recomputed(fn, *args):
    """fn(*args), its activations dropped and recomputed in backward."""
    calls = [0]

    def run(*a):
        calls[0] += 1
        with counting(calls[0] == 1 and counting_now()):
            return fn(*a)
    return checkpoint(run, *args, use_reentrant=False)


def maybe(on: bool, fn, *args):
    return recomputed(fn, *args) if on else fn(*args)
