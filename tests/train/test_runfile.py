"""A run saved to .npz comes back the same; a damaged file is one sentence."""

from __future__ import annotations

import contextlib
import os
import re

import numpy as np
import pytest

from attn_tui.core.files import FileError, atomic_write
from attn_tui.train import default_config
from attn_tui.train.runfile import encode, load, save
from attn_tui.train.trainer import Run


@pytest.fixture(scope="module")
def record():
    run = Run(default_config("previous", steps=6, d_model=8))
    run.advance()
    return run.record()


def test_a_saved_run_loads_back_the_same(record, tmp_path) -> None:
    path = str(tmp_path / "run.npz")
    save(record, path)
    back = load(path)
    assert back.config == record.config
    assert back.tokens == record.tokens
    for name in ("losses", "eval_steps", "accuracy", "frame_steps", "frames", "example"):
        assert np.array_equal(getattr(back, name), getattr(record, name)), name
    assert back.weights.keys() == record.weights.keys()
    assert all(np.array_equal(back.weights[k], record.weights[k]) for k in record.weights)


def test_train_save_into_a_pipe_writes_the_run_there_and_a_file_save_refuses_it(
        record, tmp_path) -> None:
    # train --save >(…) names /dev/fd/N: the command line writes into it; the lab's own save
    # keeps refusing what is not a file
    read, write = os.pipe()
    try:
        atomic_write(f"/dev/fd/{write}", encode(record), "save", streams=True)
        os.close(write)
        with os.fdopen(read, "rb") as f:
            (tmp_path / "copy.npz").write_bytes(f.read())
    finally:
        for fd in (read, write):
            with contextlib.suppress(OSError):
                os.close(fd)
    assert np.array_equal(load(str(tmp_path / "copy.npz")).losses, record.losses)
    os.mkfifo(tmp_path / "pipe.npz")
    with pytest.raises(FileError, match="it is not a regular file"):
        save(record, str(tmp_path / "pipe.npz"))


def test_a_diverged_run_saves_and_loads(tmp_path) -> None:
    run = Run(default_config("previous", steps=20, lr=1e3))
    run.advance()
    path = str(tmp_path / "nan.npz")
    save(run.record(), path)
    assert load(path).diverged


@pytest.mark.parametrize(("content", "words"), [
    (b"not a zip at all", "it is not a saved training run (not a readable .npz)"),
    (b"", "it is not a saved training run (not a readable .npz)"),
])
def test_a_damaged_file_is_one_sentence(tmp_path, content, words) -> None:
    path = tmp_path / "bad.npz"
    path.write_bytes(content)
    with pytest.raises(FileError) as err:
        load(str(path))
    assert str(err.value) == f"Cannot open {path}: {words}."


def test_a_whole_zip_of_other_files_is_not_called_damaged(tmp_path) -> None:
    import zipfile

    path = tmp_path / "notes.npz"
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("a.txt", "hello")
        z.writestr("b.csv", "1,2")
    with pytest.raises(FileError) as err:
        load(str(path))
    assert str(err.value) == (f"Cannot open {path}: it is a zip of other files (a.txt, b.csv), "
                              "not a saved training run.")


def test_a_truncated_or_altered_run_is_one_sentence(record, tmp_path) -> None:
    path = tmp_path / "run.npz"
    save(record, str(path))
    data = path.read_bytes()
    (tmp_path / "cut.npz").write_bytes(data[: len(data) // 2])
    with pytest.raises(FileError, match="a zip that is damaged or cut short") as err:
        load(str(tmp_path / "cut.npz"))
    assert "\n" not in str(err.value)
    arrays = dict(np.load(path))
    arrays["frames"] = arrays["frames"][..., :3]
    np.savez(tmp_path / "shape.npz", **arrays)
    with pytest.raises(FileError, match=r"frames have shape \(7, 1, 1, 12, 3\)"):
        load(str(tmp_path / "shape.npz"))
    del arrays["meta"]
    np.savez(tmp_path / "meta.npz", **arrays)
    with pytest.raises(FileError, match="it is some other .npz, not a saved training run; e in "
                       "the train lab or attn-tui train --save writes one"):
        load(str(tmp_path / "meta.npz"))


def test_a_run_with_damaged_bytes_anywhere_opens_or_is_one_sentence(record, tmp_path) -> None:
    """Bytes overwritten inside the compressed data break zlib, or the compression method
    numpy is told: each is a FileError, never a traceback."""
    path = tmp_path / "run.npz"
    save(record, str(path))
    data = path.read_bytes()
    seen = set()
    for at in range(0, len(data) - 8, 37):
        bad = tmp_path / "bad.npz"
        bad.write_bytes(data[:at] + b"\xff" * 8 + data[at + 8:])
        try:
            load(str(bad))
        except FileError as exc:
            assert "\n" not in str(exc)
            seen.add(type(exc.__cause__).__name__)
    method = bytearray(data)
    at = data.index(b"PK\x01\x02")  # the first member in the zip's central directory
    method[at + 10:at + 12] = (99).to_bytes(2, "little")  # its compression method
    (tmp_path / "method.npz").write_bytes(bytes(method))
    with pytest.raises(FileError, match=r"not a readable \.npz"):
        load(str(tmp_path / "method.npz"))
    assert "error" in seen  # zlib.error: the damage this test is for was met


@pytest.mark.parametrize("header", [
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), } , } , }",  # unmatched braces
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1,",  # cut short
    "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), []: 1}",  # unhashable key
    "{'descr': '<f4', 'fortran_order': False, 'shape': (" + "-" * 3000 + "1,)}",  # too deep
], ids=["unmatched", "cut-short", "unhashable", "too-deep"])
def test_a_run_whose_array_header_is_damaged_is_one_sentence(record, tmp_path, header) -> None:
    """numpy parses an array's header as Python: damage there raised SyntaxError or
    tokenize.TokenError, neither of them a ValueError, as a traceback."""
    import zipfile

    text = (header + " ").ljust(118) + "\n"
    member = b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text.encode("latin1")
    good = tmp_path / "run.npz"
    save(record, str(good))
    bad = tmp_path / "bad.npz"
    with zipfile.ZipFile(good) as src, zipfile.ZipFile(bad, "w") as dst:
        for name in src.namelist():
            dst.writestr(name, member + b"\0" * 4 if name == "losses.npy" else src.read(name))
    with pytest.raises(FileError) as err:
        load(str(bad))
    assert str(err.value) == (f"Cannot open {bad}: it is a zip that is damaged or cut short "
                              "(not a readable .npz).")


def test_the_workbenchs_export_of_its_stages_is_named_as_such(tmp_path) -> None:
    """--load of `attn-tui export --format npz` said "not a saved training run (no 'meta')"."""
    from attn_tui.core import state
    from attn_tui.report.export import export_npz_bytes

    path = tmp_path / "stages.npz"
    path.write_bytes(export_npz_bytes(state.from_preset("mask")))
    with pytest.raises(FileError) as err:
        load(str(path))
    assert str(err.value) == (f"Cannot open {path}: it is an export of the workbench's stages "
                              "(Q, K, V, α), not a saved training run; e in the train lab or "
                              "attn-tui train --save writes one.")


def test_a_missing_file_is_one_sentence(tmp_path) -> None:
    with pytest.raises(FileError, match="no such file"):
        load(str(tmp_path / "none.npz"))


@pytest.mark.parametrize(("change", "words"), [
    (lambda a: a.update(meta=np.asarray('{"format": ')), "its description is not readable"),
    # said as sessions say it, not "written by something else"
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace("train run 1", "train run 2"))),
     "a newer attn-tui wrote it, in format 2; this one reads format 1"),
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace("attn-tui train run 1", "x"))),
     "it was written by something else"),
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace(
        str(a["meta"])[str(a["meta"]).index('"config"'):str(a["meta"]).index(', "diverged"')],
        '"config": "sort"'))), "its settings are not readable"),
    (lambda a: a.update(losses=np.stack([a["losses"], a["losses"]])),
     "its losses are not a list of numbers"),
    (lambda a: a.update(losses=a["losses"].astype(str)), "its losses are not a list of numbers"),
    (lambda a: a.update(example=a["example"][None]), "its example is not a list of numbers"),
    (lambda a: a.update(frames=a["frames"] + 0j), "its frames or weights are not real numbers"),
    # negated, they opened and drew every cell as · ; doubled, every row as two rows' weight
    (lambda a: a.update(frames=-a["frames"]),
     "a frame's weights are not α (each row 0 or more, summing to 1)"),
    (lambda a: a.update(frames=2 * a["frames"]),
     "a frame's weights are not α (each row 0 or more, summing to 1)"),
    # frames 0 or evals 0 opened, and Enter then divided by zero in the lab
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace('"frames": ', '"frames": 0, "x": '))),
     "frames must be a whole number from 1 to 10000, not 0"),
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace('"evals": ', '"evals": "2", "x": '))),
     "evals must be a whole number from 1 to 10000, not '2'"),
    # an accuracy of 4.99 and a run of nan losses opened as if trained ("loaded")
    (lambda a: a.update(accuracy=a["accuracy"] + 4), "a held-out accuracy is not between 0 and 1"),
    (lambda a: a.update(losses=a["losses"] * np.nan),
     "a loss is not a number of 0 or more, in a run not marked as diverged"),
    # a diverged run's last loss may be nan, not -5; an empty list of losses opened beside
    # frames at step 3; "false" as a string read as diverged
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace('"diverged": false',
                                                               '"diverged": true')),
                        losses=np.append(a["losses"][:-1], -5.0)), "its last loss is below 0"),
    (lambda a: a.update(losses=a["losses"][:0]), "its frame steps are not steps of its 0 losses"),
    (lambda a: a.update(meta=np.asarray(str(a["meta"]).replace('"diverged": false',
                                                               '"diverged": "false"'))),
     "its description is not readable"),
    # opened as "100% 12/6 · loaded"
    (lambda a: a.update(losses=np.concatenate([a["losses"], a["losses"]])),
     "it has 12 losses, more than its 6 steps"),
    # "a zip that is damaged or cut short", of a good zip holding a pickled array
    (lambda a: a.update(accuracy=np.array([1, "x"], dtype=object)),
     "the array accuracy holds Python objects, which attn-tui does not read"),
])
def test_a_hand_edited_run_is_one_sentence_not_a_crash_later(record, tmp_path, change,
                                                             words) -> None:
    # a config saved as a string raised AttributeError; 2-D losses loaded, and the lab crashed
    save(record, str(tmp_path / "run.npz"))
    arrays = dict(np.load(tmp_path / "run.npz"))
    change(arrays)
    np.savez(tmp_path / "edited.npz", allow_pickle=True, **arrays)
    with pytest.raises(FileError) as err:
        load(str(tmp_path / "edited.npz"))
    assert str(err.value) == (f"Cannot open {tmp_path / 'edited.npz'}: it is not a saved "
                              f"training run ({words}).")


@pytest.mark.parametrize(("task", "changes", "stop"), [
    ("previous", {"d_model": 8, "steps": 40}, 13),  # between two checks (every 2 and 4 steps)
    ("sort", {"d_model": 16, "steps": 30}, 17),  # two layers, two heads
])
def test_a_run_saved_part_way_trains_on_to_the_losses_of_a_run_never_stopped(
        tmp_path, task, changes, stop) -> None:
    config = default_config(task, **changes)
    whole = Run(config)
    whole.advance()
    part = Run(config)
    part.advance(stop)
    part.check_now()  # as a save from the lab does: it evaluates, and must not disturb
    path = str(tmp_path / "part.npz")
    save(part.record(), path)
    back = load(path)
    assert back.resumable and back.steps_done == stop
    resumed = Run.from_record(back)
    resumed.advance()
    assert resumed.losses == whole.losses  # to the bit
    end = resumed.record()
    assert all(np.array_equal(end.weights[k], whole.record().weights[k]) for k in end.weights)
    np.testing.assert_array_equal(end.frames[-1], whole.record().frames[-1])


def _cut(a):
    return a[..., :1]


@pytest.mark.parametrize(("prefix", "change", "why"), [
    ("r:exp_avg:", _cut, r"its optimizer's exp_avg for \S+ does not fit the weights"),
    # torch would refuse the dtype
    ("r:exp_avg:", lambda a: a.astype(np.float64),
     r"its optimizer's exp_avg for \S+ does not fit the weights"),
    ("r:step:", lambda a: np.asarray(0.0, dtype=np.float32),  # not the losses' count
     r"its optimizer has taken 0 steps for \S+, not the 4 its losses count"),
    ("r:step:", lambda a: np.asarray(-3.0, dtype=np.float32),
     r"its optimizer has taken -3 steps for \S+, not the 4 its losses count"),
    ("r:exp_avg_sq:", lambda a: -np.abs(a) - 1,  # a square below 0
     r"its optimizer's exp_avg_sq for \S+ is negative"),
    ("r:batches", lambda a: a[:0], r"its batch generator's state is missing or damaged"),
    ("r:batches", lambda a: np.asarray("x"), r"its batch generator's state is missing or damaged"),
    ("r:exp_avg:", None, r"its optimizer state has no exp_avg for \S+"),
])
def test_a_run_with_a_training_state_that_does_not_fit_opens_but_says_why_it_cannot_train_on(
        tmp_path, prefix, change, why) -> None:
    """It opened saying only "Enter trains anew", as a file from before the state was kept."""
    config = default_config("previous", d_model=8, steps=10)
    run = Run(config)
    run.advance(4)
    arrays = dict(np.load(_saved(run, tmp_path)))
    key = next(k for k in arrays if k.startswith(prefix))
    if change is None:
        del arrays[key]
    else:
        arrays[key] = change(arrays[key])
    np.savez(tmp_path / "bad.npz", **arrays)
    back = load(str(tmp_path / "bad.npz"))
    assert back.steps_done == 4 and not back.resumable and back.resume == {}
    assert re.fullmatch(why, back.resume_problem), back.resume_problem


def test_a_file_from_before_the_training_state_was_kept_is_no_problem(tmp_path) -> None:
    run = Run(default_config("previous", d_model=8, steps=10))
    run.advance(4)
    arrays = {k: v for k, v in np.load(_saved(run, tmp_path)).items() if not k.startswith("r:")}
    np.savez(tmp_path / "old.npz", **arrays)
    back = load(str(tmp_path / "old.npz"))
    assert not back.resumable and back.resume_problem == ""


def test_an_example_shorter_than_its_frames_says_so(tmp_path) -> None:
    run = Run(default_config("previous", d_model=8, steps=10))
    run.advance(2)
    arrays = dict(np.load(_saved(run, tmp_path)))
    arrays["example"] = arrays["example"][:3]
    np.savez(tmp_path / "short.npz", **arrays)
    with pytest.raises(FileError, match="the example has 3 tokens, but each frame is 12×12"):
        load(str(tmp_path / "short.npz"))


def test_a_run_at_step_0_has_no_training_state_to_keep() -> None:
    assert not Run(default_config("previous", d_model=8, steps=10)).record().resumable


def test_a_generator_state_torch_refuses_is_one_sentence(tmp_path) -> None:
    run = Run(default_config("previous", d_model=8, steps=10))
    run.advance(4)
    arrays = dict(np.load(_saved(run, tmp_path)))
    arrays["r:batches"] = np.zeros(16, dtype=np.uint8)
    np.savez(tmp_path / "gen.npz", **arrays)
    back = load(str(tmp_path / "gen.npz"))
    with pytest.raises(ValueError, match=r"^its training state cannot be used \("):
        Run.from_record(back)


def _saved(run, tmp_path) -> str:
    path = str(tmp_path / "run.npz")
    save(run.record(), path)
    return path


def test_a_session_opened_as_a_run_names_the_flag_that_opens_it(tmp_path) -> None:
    from attn_tui.core import session, state

    path = tmp_path / "my session.json"
    session.save(state.from_preset("mask"), path)
    with pytest.raises(FileError) as err:
        load(str(path))
    assert str(err.value) == (f"Cannot open {path}: it is an attn-tui session, not a saved "
                              "training run; attn-tui --session opens it.")


@pytest.mark.parametrize(("member", "shape", "descr", "words"), [
    ("losses", (125_000_000,), "<f8", "its losses would take 954 MB, more than a run of its "
                                      "settings holds"),
    # six of them, as many as its steps, but each a string of 44 million characters
    ("losses", (6,), "<U44739242", "its losses would take 1,024 MB, more than a run of its "
                                   "settings holds"),
    ("frames", (2_000_000, 1, 1, 12, 12), "<f4", "its frames would take 1,099 MB, more than a "
                                                 "run of its settings holds"),
    ("w:tok.weight", (50_000_000, 8), "<f4", "its weights would take 1,526 MB, more than a run "
                                             "of its settings holds"),
    ("meta", (), "<U268435456", "its description is larger than any settings"),
    ("junk1", (3_000_000,), "<f8", "its arrays attn-tui does not write would take 23 MB, more "
                                   "than a run of its settings holds"),
])
def test_a_small_file_declaring_a_huge_array_is_refused_before_it_is_read(
        record, tmp_path, member, shape, descr, words) -> None:
    """A 1.7 MB file whose losses unpacked to 1 GB took 1 GB and 3.3 s to refuse: each array's
    size, as its header declares it, is held to what the run's settings hold before any is
    read. (The array here is its header alone: reading it would fail, after allocating.)"""
    import io
    import zipfile

    save(record, str(tmp_path / "run.npz"))
    arrays = dict(np.load(tmp_path / "run.npz"))
    if member.startswith("junk"):  # two members of 23 MB together: one of 12 MB alone is read
        arrays["junk0"] = np.zeros(1)
        arrays[member] = np.zeros(1)
    header = io.BytesIO()
    np.lib.format.write_array_header_1_0(
        header, {"descr": descr, "fortran_order": False, "shape": shape})
    with zipfile.ZipFile(tmp_path / "bomb.npz", "w") as z:
        for name, a in arrays.items():
            if name == member:
                z.writestr(name + ".npy", header.getvalue())
            else:
                buf = io.BytesIO()
                np.save(buf, a)
                z.writestr(name + ".npy", buf.getvalue())
    with pytest.raises(FileError) as err:
        load(str(tmp_path / "bomb.npz"))
    assert str(err.value) == (f"Cannot open {tmp_path / 'bomb.npz'}: it is not a saved "
                              f"training run ({words}).")


def test_a_run_larger_than_the_free_memory_is_refused_before_it_is_read(
        record, tmp_path, monkeypatch) -> None:
    from attn_tui.train import runfile

    save(record, str(tmp_path / "run.npz"))
    monkeypatch.setattr(runfile, "_free_memory", lambda: 4096)  # read and copied: twice it
    with pytest.raises(FileError, match=r"it would take 0 MB to open, more than the memory "
                                        r"free here \(0 MB\)"):
        load(str(tmp_path / "run.npz"))
    monkeypatch.setattr(runfile, "_free_memory", lambda: None)  # not Linux: not checked
    assert load(str(tmp_path / "run.npz")).steps_done == record.steps_done


def _headers_only(path, members: dict) -> None:
    """A .npz of ``members`` (name: (descr, shape)) whose arrays are their headers alone."""
    import io
    import zipfile

    with zipfile.ZipFile(path, "w") as z:
        for name, (descr, shape) in members.items():
            header = io.BytesIO()
            np.lib.format.write_array_header_1_0(
                header, {"descr": descr, "fortran_order": False, "shape": shape})
            z.writestr(name + ".npy", header.getvalue())


def test_another_npz_is_named_from_its_members_without_reading_them(tmp_path) -> None:
    # no description: every member was read first (300 MB of zeros from a 284 KB file)
    _headers_only(tmp_path / "big.npz", {"zeros": ("<f8", (40_000_000,))})
    with pytest.raises(FileError) as err:
        load(str(tmp_path / "big.npz"))
    assert str(err.value).endswith("it is some other .npz, not a saved training run; e in the "
                                   "train lab or attn-tui train --save writes one.")


def test_frames_beyond_a_frame_a_check_and_the_pauses_are_refused(record, tmp_path) -> None:
    """Held to one a step, a run of a million steps could declare gigabytes of frames."""
    save(record, str(tmp_path / "run.npz"))
    arrays = dict(np.load(tmp_path / "run.npz"))
    meta = str(arrays["meta"]).replace('"steps": 6', '"steps": 1000000')
    members = {name: (np.lib.format.dtype_to_descr(a.dtype), a.shape) for name, a in
               arrays.items() if name != "meta"}
    members["losses"] = ("<f8", (1_000_000,))
    members["frames"] = ("<f4", (200_000, *arrays["frames"].shape[1:]))  # 2 × 50 + 1000 at most
    _headers_only(tmp_path / "frames.npz", members)
    import zipfile

    with zipfile.ZipFile(tmp_path / "frames.npz", "a") as z:
        buf = __import__("io").BytesIO()
        np.save(buf, np.asarray(meta))
        z.writestr("meta.npy", buf.getvalue())
    with pytest.raises(FileError, match=r"its frames would take \d+ MB, more than a run of its "
                                        r"settings holds"):
        load(str(tmp_path / "frames.npz"))
