"""The same float32 arithmetic on every x86-64 machine, for pictures compared byte for byte.

OpenBLAS, numpy and torch each pick their kernels for the CPU they find, and kernels for wider
vectors add in another order. MiniLM's float32 maps then differ in the last digit shown: the
model screen's exp of 'sat'·'cat' read 468657.6 where AVX-512 was used and 468659.8 on an AVX2
machine. Tests and `make screenshots` ask every library for its AVX2 kernels, which every
machine they have run on has. This must run before numpy or torch is first imported.
"""

from __future__ import annotations

import os
from collections.abc import MutableMapping

KERNELS = {
    "OPENBLAS_CORETYPE": "Haswell",  # OpenBLAS's AVX2 kernels
    "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",  # numpy's AVX-512 loops
    "ATEN_CPU_CAPABILITY": "avx2",  # torch's own vectorised loops
    "MKL_CBWR": "AVX2",  # MKL, where torch uses it: on Intel CPUs (others get MKL's own choice)
    "ONEDNN_MAX_CPU_ISA": "AVX2",
}


def same_kernels(environ: MutableMapping[str, str] = os.environ,
                 cpuinfo: str = "/proc/cpuinfo") -> bool:
    """Ask for the AVX2 kernels, unless the one running the suite chose otherwise; True if
    asked. Only where the CPU has AVX2 and FMA: OpenBLAS told to use kernels the CPU lacks
    stops at its first product (an illegal instruction)."""
    if not _has_avx2(cpuinfo):
        return False
    for name, value in KERNELS.items():
        if name == "NPY_DISABLE_CPU_FEATURES" and "NPY_ENABLE_CPU_FEATURES" in environ:
            continue  # numpy refuses to start with both set
        environ.setdefault(name, value)
    return True


def _has_avx2(cpuinfo: str) -> bool:
    try:
        with open(cpuinfo, encoding="utf-8", errors="replace") as f:
            flags = next((line.split(":", 1)[1].split() for line in f
                          if line.startswith("flags")), [])
    except OSError:  # not Linux: the libraries choose, and the pictures may differ
        return False
    return {"avx2", "fma"} <= set(flags)
