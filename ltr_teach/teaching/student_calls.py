"""Calling a student's function with a time limit per call and for the whole run, in the student's own kernel.

``signal.alarm`` does not exist on Windows and works only in the main thread, so each call runs in a worker
thread while the caller waits for it with a timeout. A call that overruns is stopped by raising
:class:`StudentCallStopped` inside the worker (CPython's ``PyThreadState_SetAsyncExc``; where that API is
missing, a trace function in the worker raises it at the next line). Python code stops at once; a call stuck
in C code (``time.sleep(1e9)``) cannot be interrupted: the worker is abandoned, as a daemon thread, and the
caller is told so. Where threads cannot be started (Pyodide), the call runs in the caller's thread under a
trace function that raises past the deadline: a loop in Python stops; C code is waited for.
"""

from __future__ import annotations

import sys
import threading
import time
from dataclasses import dataclass

#: After a stop is asked, how long a worker gets to unwind before it is abandoned (seconds).
GRACE = 0.5


class StudentCallStopped(BaseException):
    """Raised inside the student's function to stop it (a BaseException, so ``except Exception`` lets it pass)."""


@dataclass
class Outcome:
    """One call: what it returned or raised, or why it was stopped (``"call"``: its own limit; ``"all"``: the run's)."""

    value: object = None
    error: BaseException | None = None
    stopped: str = ""
    abandoned: bool = False   # stuck (in C code): left running in a daemon thread
    seconds: float = 0.0


def _async_raise_available() -> bool:
    try:
        import ctypes
        return hasattr(ctypes, "pythonapi") and hasattr(ctypes.pythonapi, "PyThreadState_SetAsyncExc")
    except ImportError:  # a Python built without ctypes
        return False


def _async_raise(thread: threading.Thread) -> None:
    import ctypes

    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(StudentCallStopped))


def _threads_available() -> bool:
    return sys.platform not in ("emscripten", "wasi")


def _deadline_tracer(past_deadline):
    """A trace function raising :class:`StudentCallStopped` on the first line or call once ``past_deadline()``."""
    def trace(frame, event, arg):
        if past_deadline():
            raise StudentCallStopped
        return trace
    return trace


class BoundedCaller:
    """Calls ``func`` at most ``seconds_per_call`` a call and ``seconds_in_all`` over every call together.

    Once a call is stopped or abandoned, or the run's time is used up, :attr:`spent` is true and the caller should
    call no more (an abandoned worker may still hold the function's state).
    """

    def __init__(self, func, seconds_per_call: float, seconds_in_all: float):
        self.func, self.per_call, self.left = func, seconds_per_call, seconds_in_all
        self.used, self.calls, self.spent = 0.0, 0, False
        self.threads = _threads_available()
        self.async_raise = _async_raise_available()

    def call(self, args: tuple) -> Outcome:
        limit = min(self.per_call, self.left)
        reason = "call" if self.per_call <= self.left else "all"
        outcome = self._in_thread(args, limit) if self.threads else None
        if outcome is None:  # no threads here (Pyodide), or none could be started
            self.threads = False
            outcome = self._in_this_thread(args, limit)
        if outcome.stopped:
            outcome.stopped = reason
            self.spent = True
        self.used += outcome.seconds
        self.left -= outcome.seconds
        self.calls += 1
        if self.left <= 0:
            self.spent = True
        return outcome

    def _in_thread(self, args, limit) -> Outcome | None:
        box = Outcome()
        stop_asked = threading.Event()

        def run():
            if not self.async_raise:  # no way to raise into this thread from outside: it watches for the stop
                sys.settrace(_deadline_tracer(stop_asked.is_set))
            try:
                box.value = self.func(*args)
            except StudentCallStopped:
                box.stopped = "yes"
            except BaseException as exc:  # noqa: BLE001 - the student's code: any error is a finding
                box.error = exc
            finally:
                sys.settrace(None)

        worker = threading.Thread(target=run, name="ltr_teach.verify: your function", daemon=True)
        start = time.perf_counter()
        try:
            worker.start()
        except RuntimeError:  # "can't start new thread"
            return None
        try:
            worker.join(limit)
        except KeyboardInterrupt:  # the student pressed Stop: stop their function too, then stop verify
            self._stop(worker, stop_asked)
            raise
        box.seconds = time.perf_counter() - start
        if worker.is_alive():
            box.value, box.error, box.stopped = None, None, "yes"
            box.abandoned = not self._stop(worker, stop_asked)
        return box

    def _stop(self, worker: threading.Thread, stop_asked: threading.Event) -> bool:
        """Ask ``worker`` to stop (again, should its code catch the first request); True once it has ended."""
        stop_asked.set()
        for _ in range(5):
            if self.async_raise:
                _async_raise(worker)
            worker.join(GRACE / 5)
            if not worker.is_alive():
                return True
        return False

    def _in_this_thread(self, args, limit) -> Outcome:
        box = Outcome()
        start = time.perf_counter()
        previous = sys.gettrace()
        sys.settrace(_deadline_tracer(lambda: time.perf_counter() - start > limit))
        try:
            box.value = self.func(*args)
        except StudentCallStopped:
            box.stopped = "yes"
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # noqa: BLE001 - the student's code: any error is a finding
            box.error = exc
        finally:
            sys.settrace(previous)
        box.seconds = time.perf_counter() - start
        if not box.stopped and box.seconds > limit:  # over time in C code, which no trace sees: it counts as stopped
            box.value, box.error, box.stopped = None, None, "yes"
        return box


__all__ = ["BoundedCaller", "Outcome", "StudentCallStopped", "GRACE"]
