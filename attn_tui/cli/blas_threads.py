"""One BLAS thread for attn-tui's own processes, unless the user has chosen a number.

attn-tui's matrices are small (at most 256 × 1024). OpenBLAS starts a worker thread per core when
numpy loads, and a worker spins for a while after every call. On a 2-core machine a T = 256 edit
took 21 ms with the worker and 15 ms without. The run of edits also kept a second core busy from
start to end, which matters when a class shares one server over SSH. OpenBLAS and MKL read these
variables when they load, so this must run before numpy is first imported.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

VARIABLES = ("OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS")


def one_blas_thread(environ: MutableMapping[str, str] = os.environ) -> None:
    """Set each variable to 1 where it is unset; a value the user set is left alone."""
    for name in VARIABLES:
        environ.setdefault(name, "1")
