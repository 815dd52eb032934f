"""Pick an array namespace by name and move arrays in and out of it.

torch and array-api-strict are imported only when asked for, so the numpy path never loads them.
"""

from __future__ import annotations

import sys
from typing import Any

import numpy as np

BACKENDS = ("numpy", "torch", "array_api_strict")
DTYPES = ("float64", "float32", "float16", "bfloat16")
# dtypes every backend offers; float16/bfloat16 are a torch-only extra for the precision lab
STANDARD_DTYPES = ("float64", "float32")
# what each backend computes in (numpy has float16 but no bfloat16)
DTYPES_BY_BACKEND = {
    "numpy": ("float64", "float32", "float16"),
    "torch": ("float64", "float32", "float16", "bfloat16"),
    "array_api_strict": ("float64", "float32"),
}

INSTALL_TORCH = "torch is not installed; install it with: pip install 'attn-tui[torch]'"


class BackendUnavailable(RuntimeError):
    """The backend was asked for but its library is not installed."""


# numpy 2 implements the standard itself; array-api-compat's wrapper is needed only for 1.x.
# Skipping it matters: importing the wrapper touches every numpy submodule (~150 ms, ~9 MB).
NUMPY_IS_STANDARD = int(np.__version__.split(".")[0]) >= 2


def namespace(backend: str = "numpy") -> Any:
    """The Array API namespace for ``backend`` (wrapped by array-api-compat where needed)."""
    if backend == "numpy":
        if NUMPY_IS_STANDARD:
            return np
        import array_api_compat.numpy as xp

        return xp
    if backend == "torch":
        try:
            import torch  # noqa: F401
        except (ImportError, OSError) as exc:  # a missing shared library raises OSError
            raise BackendUnavailable(_torch_failed(exc)) from exc
        import array_api_compat.torch as xp

        return xp
    if backend == "array_api_strict":
        try:
            import array_api_strict as xp
        except ImportError as exc:
            raise BackendUnavailable(
                "array-api-strict is not installed; install it with: pip install array-api-strict"
            ) from exc
        return xp
    raise ValueError(f"unknown backend {backend!r}; choose one of: {', '.join(BACKENDS)}")


_torch_failure: str | None = None  # why an installed torch would not import, once tried


def torch_available() -> bool:
    """True when torch is installed and not known to fail its import (checked without
    importing it: cheap enough for lists that say what needs torch)."""
    import importlib.util

    if "torch" in sys.modules:  # imported already, or blocked (None)
        return sys.modules["torch"] is not None
    return _torch_failure is None and importlib.util.find_spec("torch") is not None


def torch_usable() -> bool:
    """True when torch imports. Tries the import (seconds, once): for code about to use it."""
    if not torch_available():
        return False
    try:
        namespace("torch")
    except BackendUnavailable:
        return False
    return True


def torch_problem() -> str | None:
    """Why torch cannot be used here (not installed, or installed but broken), or None."""
    if torch_available() and torch_usable():
        return None
    return _torch_failure or INSTALL_TORCH


def _torch_failed(exc: BaseException) -> str:
    global _torch_failure
    import importlib.util

    if importlib.util.find_spec("torch") is None:  # not installed (or blocked): nothing to fix
        return INSTALL_TORCH
    _torch_failure = (f"torch is installed but does not import ({type(exc).__name__}: {exc}); "
                      "reinstall it with: pip install --force-reinstall 'attn-tui[torch]'")
    return _torch_failure


def resolve_dtype(xp: Any, dtype: str) -> Any:
    if dtype not in DTYPES:
        raise ValueError(f"unknown dtype {dtype!r}; choose one of: {', '.join(DTYPES)}")
    found = getattr(xp, dtype, None)
    if found is None:
        # float16 exists in numpy/torch but is not in the standard; bfloat16 only in torch
        raise ValueError(f"dtype {dtype} is not available on this backend")
    return found


def xp_of(x: Any) -> Any:
    """The namespace an array belongs to; plain numpy on numpy 2 (see NUMPY_IS_STANDARD)."""
    if NUMPY_IS_STANDARD and isinstance(x, np.ndarray | np.generic):
        return np
    import array_api_compat

    return array_api_compat.array_namespace(x)


def to_backend(xp: Any, x: Any, dtype: Any, device: Any = None) -> Any:
    """Convert nested lists, numpy arrays or another library's arrays into ``xp``."""
    if xp is np:
        a = np.asarray(to_numpy(x))
        if a.dtype.kind not in "fiub":
            raise ValueError(f"expected numbers, got an array of {a.dtype}")
        with np.errstate(over="ignore"):  # a number too large for float16: attend says so
            return a.astype(dtype, copy=False)
    import array_api_compat

    if array_api_compat.is_array_api_obj(x) and array_api_compat.array_namespace(x) is xp:
        return xp.asarray(x, dtype=dtype, device=device)
    x = to_numpy(x)
    if x.dtype.kind not in "fiub":
        raise ValueError(f"expected numbers, got an array of {x.dtype}")
    return xp.asarray(x, dtype=dtype, device=device)


def to_numpy(x: Any) -> np.ndarray:
    """A numpy copy of any array (torch tensors are detached and moved to the CPU first)."""
    if isinstance(x, np.ndarray):
        return x
    mod = type(x).__module__
    if mod.startswith("torch"):
        x = x.detach().cpu()
        if str(x.dtype) == "torch.bfloat16":  # numpy has no bfloat16
            x = x.float()
        return x.numpy()
    if mod.startswith("array_api_strict"):
        return np.from_dlpack(x)  # the standard's exchange protocol: no private attribute
    return np.asarray(x)
