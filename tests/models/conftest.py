"""The reference the model is checked against: transformers' BertModel on the same files,
loaded once per test process, offline (it is given a folder, and the hub is switched off)."""

from __future__ import annotations

import os
from typing import Any

import pytest


@pytest.fixture(scope="session")
def reference(minilm: Any) -> Any:
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] = "1"
    transformers = pytest.importorskip("transformers")
    transformers.logging.set_verbosity_error()
    model = transformers.BertModel.from_pretrained(
        str(minilm.files.folder), attn_implementation="eager", local_files_only=True,
    )
    return model.eval()


@pytest.fixture(scope="session")
def reference_tokenizer(minilm: Any) -> Any:
    transformers = pytest.importorskip("transformers")
    return transformers.BertTokenizer(str(minilm.files.folder / "vocab.txt"))
