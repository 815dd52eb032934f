"""A loaded machine, for Textual's one-shot timers only: each time a one-shot timer's task reads
the clock, it is 10 ms later than the last time, as if the process had been preempted in
between. Repeating timers (the screen's updates) read the true time: under a clock that ran
ahead at every read they would never catch up."""

from __future__ import annotations

import sys
import types

import textual.timer


def make_one_shot_timers_late(monkeypatch) -> list[str]:
    """Install the late clock; returns the names of the callbacks whose timers were read late
    (the function a ``set_timer`` callback was defined in: ``_schedule`` for the key line)."""
    real, reads, late = textual.timer._time, {}, []

    def get_time() -> float:
        caller = sys._getframe(1)
        timer = caller.f_locals.get("self")
        if caller.f_code.co_name != "_run" or getattr(timer, "_repeat", None) != 0:
            return real.get_time()
        reads[id(timer)] = reads.get(id(timer), -1) + 1
        if reads[id(timer)] == 1:
            callback = timer._callback  # set_timer's partial(call_next, callback)
            inner = callback.args[0] if callback is not None and callback.args else callback
            late.append(getattr(inner, "__qualname__", repr(inner)))
        return real.get_time() + 0.010 * reads[id(timer)]

    monkeypatch.setattr(textual.timer, "_time",
                        types.SimpleNamespace(sleep=real.sleep, get_time=get_time))
    return late
