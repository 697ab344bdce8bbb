"""Independent searches beside the one the caller runs: `start(fn, ...)` forks a process that runs
`fn(...)` and hands back its pickled answer (or its exception) when `.result()` asks for it.

`foldplan plan` prices every other engine's best plan (planner.solve.targets.price) beside its own
search: each is a search of its own problem, sharing nothing with the others, so on a machine with
more than one core they run at once instead of one after the other. A process is forked, not spawned:
the child starts with the parent's modules already imported (OR-Tools, numpy, the compiled cost model),
so it costs milliseconds, not the second an import takes. Where `fork` is not a start method (macOS,
Windows), on one core, or with FOLDPLAN_JOBS=1, `.result()` runs `fn` there and then, as before.
"""
from __future__ import annotations

import atexit
import multiprocessing as mp
import os
import pickle
import sys
from typing import Any, Callable

_ALIVE: list = []      # processes started and not yet collected (ended at exit: a run that returns early)


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:           # not Linux
        return os.cpu_count() or 1


def forking() -> bool:
    """Whether `start` runs its function in a forked process."""
    if os.environ.get("FOLDPLAN_JOBS", "").strip() == "1":
        return False
    return "fork" in mp.get_all_start_methods() and cores() > 1


def _child(conn, fn, args, kwargs) -> None:
    try:
        out = (True, fn(*args, **kwargs))
    except BaseException as e:       # noqa: BLE001 -- handed to the parent, which raises it
        out = (False, e)
    try:
        conn.send(out)
    except (pickle.PicklingError, TypeError, AttributeError) as e:   # an answer that does not pickle
        conn.send((False, RuntimeError(f"{getattr(fn, '__name__', fn)}: its answer did not pickle: {e}")))
    conn.close()


class Job:
    """One call of `fn`, forked (see the module) or deferred to `result()`."""

    def __init__(self, fn: Callable, *args, **kwargs):
        self._call = (fn, args, kwargs)
        self._proc = self._conn = None
        self._done, self._value = False, None
        if forking():
            ctx = mp.get_context("fork")
            self._conn, child = ctx.Pipe(duplex=False)
            for stream in (sys.stdout, sys.stderr):      # the child must not write the parent's buffered text again
                stream.flush()
            self._proc = ctx.Process(target=_child, args=(child, fn, args, kwargs), daemon=True)
            self._proc.start()
            child.close()
            _ALIVE.append(self._proc)

    def result(self) -> Any:
        """`fn`'s answer; its exception raised here."""
        if not self._done:
            if self._proc is None:
                fn, args, kwargs = self._call
                self._value = (True, fn(*args, **kwargs))
            else:
                try:
                    self._value = self._conn.recv()
                except EOFError:         # the child died without answering (killed, out of memory)
                    self._value = (False, RuntimeError(
                        f"{getattr(self._call[0], '__name__', 'a search')}: its process ended with code "
                        f"{self._proc.exitcode} before answering"))
                self._proc.join()
                self._conn.close()
                _ALIVE.remove(self._proc)
            self._done = True
        ok, value = self._value
        if not ok:
            raise value
        return value

    def cancel(self) -> None:
        """Stop the call where it runs beside the caller (an answer no longer wanted)."""
        if self._proc is not None and not self._done:
            self._proc.terminate()
            self._proc.join()
            self._conn.close()
            _ALIVE.remove(self._proc)
        self._done, self._value = True, (False, RuntimeError("cancelled"))


def start(fn: Callable, *args, **kwargs) -> Job:
    """`fn(*args, **kwargs)`, running beside the caller where it can (see the module)."""
    return Job(fn, *args, **kwargs)


@atexit.register
def _end_uncollected() -> None:
    for p in list(_ALIVE):
        if p.is_alive():
            p.terminate()
        p.join(1)
