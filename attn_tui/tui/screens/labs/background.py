"""A lab's background runs: the newest request is the only one whose result lands on screen.

Each ``start`` numbers its request; a run that finishes after a newer request was made (or after
``supersede``, when the screen answered one itself) is thrown away, counted in ``dropped``. The
runs of one lab go one at a time: a cancelled run stops at its next ``job.stopped()`` poll, and a
key held down never piles up threads that each draw a large block of random numbers.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from textual.screen import Screen
from textual.worker import Worker, get_current_worker

# what a run may fail with and the lab still stand: a refused setting, a backend that will not load
RUN_ERRORS = (ValueError, RuntimeError, ImportError, OSError)


class Job:
    """What a run's own code sees: whether to stop, and a way to report progress."""

    def __init__(self, runs: LatestRun, generation: int, worker: Worker) -> None:
        self._runs, self._generation, self._worker = runs, generation, worker

    def stopped(self) -> bool:
        return self._worker.is_cancelled

    def tell(self, then: Callable[..., None], *args: Any) -> None:
        """Call ``then(*args)`` on the screen's thread, unless this run is stale by then."""
        if not self.stopped():
            self._runs.screen.app.call_from_thread(self._runs.land, self._generation, then,
                                                   *args)


class LatestRun:
    def __init__(self, screen: Screen, group: str) -> None:
        self.screen, self.group = screen, group
        self.generation = 0
        self.dropped = 0  # results and progress reports thrown away: a newer request was made
        self._one_at_a_time = threading.Lock()

    def supersede(self) -> int:
        """Make every run still going stale, and ask it to stop (the screen has moved on)."""
        self.generation += 1
        self.screen.workers.cancel_group(self.screen, self.group)
        return self.generation

    def start(self, compute: Callable[[Job], Any], land: Callable[[Any], None],
              failed: Callable[[Exception], None] | None = None) -> None:
        """Run ``compute(job)`` in a thread; ``land(result)`` on the screen's thread if no newer
        request was made meanwhile, or ``failed(error)`` if it raised one of RUN_ERRORS."""
        generation = self.supersede()

        def run() -> None:
            job = Job(self, generation, get_current_worker())
            while not self._one_at_a_time.acquire(timeout=0.05):
                if job.stopped():
                    return
            try:
                outcome: Any = compute(job)
                then = land
            except RUN_ERRORS as exc:
                if failed is None:
                    raise
                outcome, then = exc, failed
            finally:
                self._one_at_a_time.release()
            job.tell(then, outcome)

        self.screen.run_worker(run, thread=True, exclusive=True, group=self.group)

    def land(self, generation: int, then: Callable[..., None], *args: Any) -> None:
        if generation != self.generation:
            self.dropped += 1
            return
        if self.screen not in self.screen.app.screen_stack:  # closed while it ran
            return
        then(*args)
