"""`attn-tui train`: flags, the printed run, a pipe, a saved file, and a missing torch."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

import attn_tui.compute
from attn_tui.cli.main import main


@pytest.mark.parametrize(("args", "words"), [
    (["--steps", "0"], "0 steps trains nothing"),
    (["--heads", "3", "--d-model", "32"], "d_model 32 does not split into 3 heads"),
    (["--task", "copy"], "invalid choice: 'copy'"),
    (["--lr", "nan"], "not a learning rate"),
    (["--lr", "-1"], "not a learning rate"),
    (["--lr", "1/x"], "'1/x' is not a number"),
    (["--lr", "1,5"], "'1,5' is not a number: write 1.5, with a point"),  # the lab's words
    # a thousand or a decimal comma: both offered, not 1.000 alone (the lab said "write 1.000")
    (["--lr", "1,000"], "'1,000' is not a number here: write 1000 (or 1.000, with a point)"),
    (["--layers", "two"], "'two' is not a whole number"),
    # the limit written as the train lab writes it
    (["--steps", "2000000"], "--steps: must be between 1 and 1,000,000; 2000000 is outside"),
    (["--layers", "9"], "--layers: must be between 1 and 8; 9 is outside"),
    (["--bogus"], "unrecognized arguments: --bogus"),
])
def test_bad_train_flags_get_usage_and_exit_2(capsys, monkeypatch, args, words) -> None:
    monkeypatch.setenv("COLUMNS", "80")  # argparse wraps to it
    assert _exit_code(["train", *args]) == 2
    err = capsys.readouterr().err
    assert "usage: attn-tui train" in err and words in err
    assert "Traceback" not in err
    # the usage wrapped alike, whichever check refused the flags (heads and d_model's was one
    # line of 150 columns)
    usage = err[:err.index("attn-tui train: error")].splitlines()
    assert len(usage) > 1 and max(len(line) for line in usage) <= 80


def _exit_code(argv: list[str]) -> int:
    try:
        return main(argv)
    except SystemExit as exc:  # argparse's own errors
        return exc.code


def test_load_goes_only_with_the_train_lab(capsys) -> None:
    with pytest.raises(SystemExit) as done:
        main(["--load", "run.npz"])
    assert done.value.code == 2
    assert "--load: only with --lab train" in capsys.readouterr().err


def test_without_torch_train_says_what_to_install(capsys, monkeypatch) -> None:
    monkeypatch.setattr(attn_tui.compute, "torch_available", lambda: False)
    assert main(["train", "--task", "previous"]) == 2
    err = capsys.readouterr().err
    assert err == ("attn-tui: training needs torch, which is not installed; install it with: "
                   "pip install 'attn-tui[torch]'\n")


def test_a_run_prints_progress_then_each_heads_alpha(capsys, tmp_path) -> None:
    pytest.importorskip("torch")
    path = tmp_path / "run.npz"
    code = main(["train", "--task", "previous", "--steps", "40", "--d-model", "16",
                 "--heads", "2", "--save", str(path)])
    out = capsys.readouterr().out
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "TRAINING: previous (copy the token one back)"
    assert lines[1] == " 1 layer, 2 heads of 8 (d_model 16)"
    assert lines[2] == " AdamW lr 0.01, batch 64, 40 steps, seed 0"  # 80 columns each
    assert "    step      loss   held-out accuracy" in out
    assert lines[6].split() == ["0", "-", lines[6].split()[2]]  # no loss before a step
    assert "layer 1, head 1: alpha at step 40 (queries down, keys across)" in out
    assert "layer 1, head 2: alpha at step 40" in out
    assert lines[-1] == f"saved {path}: attn-tui --lab train --load {path}"
    first_row = next(line for line in lines if line.startswith(" 9      "))
    assert first_row.split()[1:3] == ["1.0000", "."]
    from attn_tui.train.runfile import load

    assert load(str(path)).steps_done == 40


def test_a_diverging_run_says_so_and_exits_1(capsys) -> None:
    pytest.importorskip("torch")
    assert main(["train", "--task", "previous", "--steps", "30", "--lr", "1000"]) == 1
    out = capsys.readouterr().out
    # the update of step 4 broke the output layer (the loss of step 4 was computed before it):
    # the held-out accuracy after it is not a number, and step 4's α, still one, is kept
    # and the loss of step 4, finite, which the lab's status line shows and train did not
    assert re.search(r"The model's outputs stopped being numbers at step 4 \(its loss, from "
                     r"before that step's update: \d\.\d{3}e\d\d\): the learning rate 1000 is "
                     r"too large\. Training stopped; the frames up to step 4 are kept\.",
                     " ".join(out.split())), out


def test_train_in_a_pipe_stops_quietly_and_loads_no_textual() -> None:
    pytest.importorskip("torch")
    code = ("import sys, attn_tui.cli.main as m; rc = m.main(sys.argv[1:]); "
            "sys.stderr.write(f'textual={\"textual\" in sys.modules} rc={rc}')")
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "train", "--task", "previous", "--steps", "400"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    head = [proc.stdout.readline() for _ in range(3)]
    proc.stdout.close()  # the reader goes away, as `| head -3` does
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert head[0].startswith("TRAINING: previous")
    assert err == "textual=False rc=0"


def test_a_damaged_load_file_is_one_line_and_exit_2(capsys, tmp_path) -> None:
    pytest.importorskip("torch")
    bad = tmp_path / "run.npz"
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    assert main(["--lab", "train", "--load", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err == (f"attn-tui: Cannot open {bad}: it is a zip that is damaged or cut short "
                   "(not a readable .npz).\n")


def test_without_torch_the_train_lab_says_what_to_install(capsys, monkeypatch) -> None:
    monkeypatch.setattr(attn_tui.compute, "torch_available", lambda: False)
    assert main(["--lab", "train"]) == 2
    assert "training needs torch" in capsys.readouterr().err


@pytest.mark.parametrize(("save", "words"), [
    # a relative name's folder is said in full: the reader may not know where it started
    ("no/such/run.npz", "Cannot save no/such/run.npz: its folder {tmp}/no/such does not exist."),
    ("a-folder", "Cannot save a-folder: it is a directory."),
    ("run.md", "--save run.md is named as a .md file, but a run is saved as .npz: end the name "
               "with .npz."),
    # as root, --save /etc/passwd replaced it with a zip archive; x.txt and a session too
    ("notes.txt", "--save notes.txt: a run is saved as .npz; end the name with .npz."),
    ("attn-session.json", "--save attn-session.json: a run is saved as .npz; end the name with "
                          ".npz."),
    ("-", "--save -: the run's progress goes to standard output, so its .npz cannot; name a "
          "file ending in .npz."),
    ("", "--save needs a file name"),
])
def test_a_save_name_that_cannot_be_written_is_said_before_training(
        capsys, monkeypatch, tmp_path, save, words) -> None:
    # it used to train the whole run (2,000 steps, about a minute) and refuse the name after
    pytest.importorskip("torch")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a-folder").mkdir()
    assert main(["train", "--task", "sort", "--save", save]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"attn-tui: {words.format(tmp=tmp_path)}\n"


def test_a_run_whose_outputs_break_before_its_loss_does_saves_and_loads_back(tmp_path) -> None:
    # sort at lr 1000: the update of step 4 made α nan while step 4's loss was a number; that
    # frame was kept, and --lab train --load refused the file train --save had written
    pytest.importorskip("torch")
    import numpy as np

    from attn_tui.train import default_config
    from attn_tui.train.runfile import load, save
    from attn_tui.train.trainer import Run

    run = Run(default_config("sort", steps=50, lr=1000.0))
    run.advance()
    record = run.record()
    assert record.diverged and np.isfinite(record.frames).all()
    assert np.isfinite(record.losses).all()  # the loss never said so: the outputs did
    save(record, str(tmp_path / "div.npz"))
    back = load(str(tmp_path / "div.npz"))
    assert back.diverged and np.array_equal(back.frame_steps, record.frame_steps)


def test_load_from_a_fifo_is_one_line_not_a_hang(tmp_path) -> None:
    fifo = tmp_path / "run.npz"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "attn_tui", "--lab", "train", "--load",
                             str(fifo)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == f"attn-tui: Cannot open {fifo}: it is not a regular file.\n"


def _train_then_close(steps: int, saved, lines: int):
    """`attn-tui train … --save saved | head -<lines>`: the process, and the lines read before
    the reader went away."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "attn_tui", "train", "--task", "previous", "--steps", str(steps),
         "--save", str(saved)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    read = [proc.stdout.readline() for _ in range(lines)]
    proc.stdout.close()
    return proc, read


def test_a_run_cut_short_by_a_closed_pipe_says_what_its_file_keeps(tmp_path) -> None:
    pytest.importorskip("torch")
    from attn_tui.train.runfile import load

    saved = tmp_path / "run.npz"
    proc, _ = _train_then_close(400, saved, lines=3)
    err = proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    steps = load(str(saved)).steps_done  # 0 when the pipe closed before the first step
    assert steps < 400
    assert err == (f"attn-tui: standard output closed at step {steps} of 400, so the run "
                   f"stopped there; {saved} keeps it up to that step.\n")


def test_a_loss_that_grows_without_becoming_nan_is_said(capsys) -> None:
    # lr 50: the loss went 2.5 → 170 and accuracy to chance, with no word and status 0
    pytest.importorskip("torch")
    assert main(["train", "--task", "sort", "--steps", "30", "--lr", "50"]) == 0
    out = capsys.readouterr().out
    assert "The loss ended above twice where it started (" in out
    assert "the learning rate 50 is too large to learn with; try a smaller one." in out
    assert main(["train", "--task", "previous", "--steps", "30"]) == 0  # a run that learns
    assert "ended above" not in capsys.readouterr().out


def test_save_into_a_fifo_nobody_reads_is_said_before_training(tmp_path) -> None:
    # it trained the whole run, then found no reader at the end
    pytest.importorskip("torch")
    fifo = tmp_path / "run.npz"
    os.mkfifo(fifo)
    result = subprocess.run([sys.executable, "-m", "attn_tui", "train", "--task", "sort",
                             "--save", str(fifo)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (f"attn-tui: Cannot save {fifo}: it is a pipe that nothing reads "
                             "from.\n")


def test_save_into_a_fifo_holds_its_reader_and_writes_the_run_there(tmp_path) -> None:
    # the reader comes first; attn-tui opens the FIFO before training and writes at the end
    pytest.importorskip("torch")
    import threading

    from attn_tui.train.runfile import load

    fifo, copy = tmp_path / "run.npz", tmp_path / "copy.npz"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()))
    reader.start()  # blocks in open() until a writer opens the FIFO
    result = subprocess.run([sys.executable, "-m", "attn_tui", "train", "--task", "previous",
                             "--steps", "20", "--save", str(fifo)],
                            capture_output=True, text=True, timeout=120)
    reader.join(timeout=30)
    assert result.returncode == 0, result.stderr
    copy.write_bytes(got[0])
    assert load(str(copy)).steps_done == 20
    # a FIFO read once: --load could not reopen it, so no line says it would
    assert result.stdout.rstrip().endswith(f"wrote the run to {fifo}")
    assert "--load" not in result.stdout


def test_train_with_standard_output_closed_says_so_before_training(tmp_path) -> None:
    # >&- : sys.stdout is None, and the first line written raised AttributeError
    pytest.importorskip("torch")
    result = subprocess.run(
        f"{sys.executable} -m attn_tui train --task previous --steps 2 --save "
        f"{tmp_path / 'r.npz'} >&-", shell=True, capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert result.stderr == "attn-tui: Cannot write to standard output: it is closed.\n"
    assert not (tmp_path / "r.npz").exists()


def test_ctrl_c_before_the_first_step_is_one_line(capsys, monkeypatch, tmp_path) -> None:
    # while torch loaded and the model was built, ctrl+c printed a KeyboardInterrupt traceback
    pytest.importorskip("torch")
    from attn_tui.train import trainer

    def interrupted(self, config):
        raise KeyboardInterrupt

    monkeypatch.setattr(trainer.Run, "__init__", interrupted)
    saved = tmp_path / "r.npz"
    assert main(["train", "--task", "previous", "--save", str(saved)]) == 130
    assert capsys.readouterr().err == (f"attn-tui: stopped before the first step; nothing was "
                                       f"saved to {saved}.\n")
    assert not saved.exists()
    # without --save there was nothing to save: it said "nothing was saved" all the same
    assert main(["train", "--task", "previous"]) == 130
    assert capsys.readouterr().err == "attn-tui: stopped before the first step.\n"


def test_ctrl_c_anywhere_else_in_a_command_is_one_line(capsys, monkeypatch) -> None:
    import attn_tui.report

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(attn_tui.report, "render", interrupted)
    assert main(["print", "all"]) == 130
    assert capsys.readouterr().err == "\nattn-tui: stopped.\n"


def test_a_run_stopped_between_checks_keeps_its_own_step_s_alpha_and_accuracy(
        capsys, monkeypatch, tmp_path) -> None:
    # ctrl+c at step 13 (checks every 10): the summary read "accuracy … after 13 steps" with
    # step 10's figure, and the saved file's last frame was step 10's while its weights were 13's
    pytest.importorskip("torch")
    from attn_tui.train import trainer
    from attn_tui.train.runfile import load

    advance = trainer.Run.advance

    def stopped_at_13(self, n=None, stop=None):
        advance(self, min(n or 13, 13 - self.step))
        if self.step >= 13:
            raise KeyboardInterrupt

    monkeypatch.setattr(trainer.Run, "advance", stopped_at_13)
    saved = tmp_path / "r.npz"
    # 130, as for any program ctrl+c stops: `train … && next` does not go on (it said 0)
    assert main(["train", "--task", "previous", "--steps", "100", "--save", str(saved)]) == 130
    out = capsys.readouterr().out
    assert "stopped at step 13" in out and " after 13 steps (" in out
    r = load(str(saved))
    assert r.steps_done == 13 and r.eval_steps[-1] == 13 and r.frame_steps[-1] == 13


def _signal_once_a_batch_is_drawn(monkeypatch, k: int, signum: int) -> None:
    """The process gets ``signum`` just after the previous-token run's k-th training batch is
    drawn: in the middle of step k."""
    from attn_tui.train import default_config, tasks

    batch, drawn = tasks.batch, []

    def draw_then_signal(task, n, gen, **kwargs):
        out = batch(task, n, gen, **kwargs)
        if n == default_config("previous").batch and not kwargs.get("held_out"):
            drawn.append(n)
            if len(drawn) == k:
                os.kill(os.getpid(), signum)
        return out

    monkeypatch.setattr(tasks, "batch", draw_then_signal)


def test_ctrl_c_lets_the_step_under_way_finish_and_the_file_trains_on_exactly(
        capsys, monkeypatch, tmp_path) -> None:
    """ctrl+c landed after a step had drawn its batch and before AdamW moved: the file's
    generator was a batch ahead of its weights, and 9 runs in 10 trained on to other losses."""
    pytest.importorskip("torch")
    import signal

    from attn_tui.train import default_config, tasks
    from attn_tui.train.runfile import load
    from attn_tui.train.trainer import Run

    batch = tasks.batch
    # step 14's batch, drawn: the step is under way
    _signal_once_a_batch_is_drawn(monkeypatch, 14, signal.SIGINT)
    saved = tmp_path / "r.npz"
    assert main(["train", "--task", "previous", "--steps", "60", "--save", str(saved)]) == 130
    assert "stopped at step 14" in capsys.readouterr().out
    monkeypatch.setattr(tasks, "batch", batch)
    r = load(str(saved))
    assert r.steps_done == 14 and r.resumable
    resumed = Run.from_record(r)
    resumed.advance()
    whole = Run(default_config("previous", steps=60))
    whole.advance()
    assert resumed.losses == whole.losses


@pytest.mark.parametrize(("name", "status"), [("SIGTERM", 143), ("SIGHUP", 129)])
def test_kill_timeout_or_a_closed_terminal_keeps_the_run_as_ctrl_c_does(
        name, status, capsys, monkeypatch, tmp_path) -> None:
    """`timeout 4 attn-tui train --save r.npz` (SIGTERM) and a dropped SSH session (SIGHUP)
    ended the process with nothing saved; ctrl+c kept the run."""
    pytest.importorskip("torch")
    import signal

    from attn_tui.train.runfile import load

    _signal_once_a_batch_is_drawn(monkeypatch, 9, getattr(signal, name))
    before = signal.getsignal(getattr(signal, name))
    saved = tmp_path / "r.npz"
    assert main(["train", "--task", "previous", "--steps", "60", "--save", str(saved)]) == status
    out = capsys.readouterr().out
    assert "stopped at step 9" in out and f"saved {saved}" in out
    assert load(str(saved)).steps_done == 9
    assert signal.getsignal(getattr(signal, name)) == before  # the process's own, put back


def test_a_reader_gone_stops_the_run_at_once_not_at_its_next_report(tmp_path) -> None:
    # `| head` was noticed only when the next progress line was written: 1 % of the steps on
    pytest.importorskip("torch")
    from attn_tui.train.runfile import load

    saved = tmp_path / "run.npz"
    proc, lines = _train_then_close(100000, saved, lines=7)
    assert lines[-1].split()[0] == "0"  # the check at step 0; the next is at step 1000
    proc.stderr.read()
    assert proc.wait(timeout=120) == 0
    assert load(str(saved)).steps_done < 1000


def test_a_save_folder_that_takes_no_files_is_refused_before_training(capsys) -> None:
    # /proc: os.access says it may be written; the run trained, then could not be saved
    pytest.importorskip("torch")
    assert main(["train", "--task", "previous", "--steps", "50", "--save", "/proc/x.npz"]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "attn-tui: Cannot save /proc/x.npz: files cannot be created in its folder.\n"


def test_the_reopen_line_quotes_a_name_with_spaces(capsys, tmp_path) -> None:
    pytest.importorskip("torch")
    saved = tmp_path / "my run ☃.npz"
    assert main(["train", "--task", "previous", "--steps", "3", "--save", str(saved)]) == 0
    last = capsys.readouterr().out.splitlines()[-1]
    assert last == f"saved {saved}: attn-tui --lab train --load '{saved}'"


def test_in_an_80_column_terminal_the_sentences_break_between_words(capsys,
                                                                     monkeypatch) -> None:
    """The header (82 columns) and the 120-column divergence sentence broke mid-word."""
    pytest.importorskip("torch")
    import os
    import shutil

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a, **k: os.terminal_size((80, 24)))
    assert main(["train", "--task", "sort", "--steps", "30", "--lr", "1000"]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert main(["train", "--task", "induction", "--steps", "2"]) == 0  # a long "to look for"
    lines += capsys.readouterr().out.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    said = next(i for i, line in enumerate(lines) if "stopped being numbers" in line)
    assert lines[said + 1].startswith(" ") and not lines[said + 1].startswith("  ")
    assert "the frames up to step" in " ".join(lines[said:said + 3])


@pytest.mark.parametrize(("task", "line"), [
    # reverse reads its sequence less the last token, its last answer: named, never shown
    ("reverse", " example: 6 8 1 2 9 2 > 2 9 2 1 8, then 6, which the model only predicts: the "
                "tables below have no row or column for it"),
    # previous reads every token it is asked about
    ("previous", " example: 9 8 1 2 9 2 6 6 4 5 3 4 (the tokens the model reads)"),
])
def test_the_example_line_names_the_token_the_model_only_predicts(capsys, task, line) -> None:
    pytest.importorskip("torch")
    assert main(["train", "--task", task, "--steps", "2", "--seed", "0"]) == 0
    assert line in capsys.readouterr().out.splitlines()


def test_a_run_whose_save_fails_at_the_end_is_kept_in_the_temporary_folder(
        capsys, monkeypatch, tmp_path) -> None:
    """A disk that filled up during the run (or a folder removed) lost the whole run: only the
    name is checked before training."""
    pytest.importorskip("torch")
    import tempfile

    from attn_tui.core import files
    from attn_tui.train.runfile import load

    def full(path, data, verb="write", **kwargs):
        raise files.FileError("no space left on device", str(path), verb)

    monkeypatch.setattr(files, "atomic_write", full)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    target = tmp_path / "run.npz"
    assert main(["train", "--task", "previous", "--steps", "12", "--d-model", "16",
                 "--save", str(target)]) == 2
    err = capsys.readouterr().err
    [kept] = (tmp_path / "tmp").glob("attn-tui-run-*.npz")
    assert err.startswith(f"attn-tui: Cannot save {target}: no space left on device.")
    assert f"The run is kept in {kept} instead: attn-tui --lab train --load {kept}" in err
    assert load(str(kept)).steps_done == 12 and not target.exists()


def test_a_save_into_a_device_that_fails_keeps_the_run_in_the_temporary_folder(
        capsys, monkeypatch, tmp_path) -> None:
    """--save /dev/full lost the run: only a file's save fell back to the temporary folder."""
    pytest.importorskip("torch")
    import tempfile

    from attn_tui.train.runfile import load

    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    assert main(["train", "--task", "previous", "--steps", "6", "--d-model", "16",
                 "--save", "/dev/full"]) == 2
    err = capsys.readouterr().err
    [kept] = tmp_path.glob("attn-tui-run-*.npz")
    assert err.startswith("attn-tui: Cannot save /dev/full: no space left on device.")
    assert f"The run is kept in {kept} instead" in err and load(str(kept)).steps_done == 6


def test_standard_output_failing_mid_run_stops_it_and_saves_what_it_trained(
        capsys, monkeypatch, tmp_path) -> None:
    """A disk that filled under `train --save run.npz > log` lost the run with the log."""
    pytest.importorskip("torch")
    from attn_tui.cli import train as train_cli
    from attn_tui.train.runfile import load

    real = train_cli._Out.__call__
    lines = []

    def fills_up(self, line=""):
        lines.append(line)
        if len(lines) > 10:  # the header, then a few checks
            self.failed = "no space left on device"
        real(self, line)

    monkeypatch.setattr(train_cli._Out, "__call__", fills_up)
    target = tmp_path / "run.npz"
    assert main(["train", "--task", "previous", "--steps", "400", "--d-model", "16",
                 "--save", str(target)]) == 2
    err = capsys.readouterr().err
    done = load(str(target)).steps_done
    assert 0 < done < 400
    assert err == (f"attn-tui: Cannot write to standard output: no space left on device; the "
                   f"run stopped at step {done} of 400, and {target} keeps it.\n")


def test_standard_output_failing_mid_run_with_a_device_to_save_to_says_it_was_written(
        capsys, monkeypatch) -> None:
    # "… and /dev/null keeps it": a device keeps nothing
    pytest.importorskip("torch")
    from attn_tui.cli import train as train_cli

    real = train_cli._Out.__call__
    lines = []

    def fills_up(self, line=""):
        lines.append(line)
        if len(lines) > 10:
            self.failed = "no space left on device"
        real(self, line)

    monkeypatch.setattr(train_cli._Out, "__call__", fills_up)
    assert main(["train", "--task", "previous", "--steps", "400", "--d-model", "16",
                 "--save", os.devnull]) == 2
    err = capsys.readouterr().err
    assert err.startswith("attn-tui: Cannot write to standard output: no space left on device; "
                          "the run stopped at step ")
    assert err.endswith(f", and it was written to {os.devnull}.\n")


def test_a_save_name_with_a_byte_that_is_not_utf8_is_quoted_as_the_shell_quotes_it(capsys):
    odd = b"r\xff.md".decode("utf-8", "surrogateescape")
    assert main(["train", "--save", odd]) == 2
    assert capsys.readouterr().err == ("attn-tui: --save r\\xff.md is named as a .md file, but a "
                                       "run is saved as .npz: end the name with .npz.\n")


@pytest.mark.parametrize(("typed", "rate"), [("1/3", 1 / 3), ("1e-3", 1e-3), ("0.5", 0.5)])
def test_lr_takes_what_the_labs_field_suggests(typed, rate) -> None:
    """The lab's field says "try 0.5, 1e-3 or 1/3"; the command line refused 1/3."""
    from attn_tui.cli.main import build_parser

    assert build_parser().parse_args(["train", "--lr", typed]).train_lr == rate


@pytest.mark.parametrize(("typed", "value"), [("1,000", 1000), ("1e3", 1000), ("64.0", 64),
                                               ("１００", 100), ("1_0", 10), ("1,5", None),
                                               ("1,0", None), ("0,1", None), ("10,00", None),
                                               ("1,0000", None), ("1.5", None), ("1e-3", None),
                                               ("0,500", None), ("-0,125", None)])
def test_a_count_is_read_as_the_labs_field_reads_it(typed, value) -> None:
    """--seed 1,5 ran with seed 15 and --steps 1,0 ran 10 steps: every comma was dropped. And
    the lab took 1e3 for 1000 where the command line refused it."""
    import argparse

    from attn_tui.cli.train import _whole
    from attn_tui.tui.widgets.control_field import Field

    lab = Field("steps", "steps", "int", 1, 1_000_000)
    if value is None:
        with pytest.raises(argparse.ArgumentTypeError, match=f"'{typed}' is not a whole number"):
            _whole("steps")(typed)
        assert lab.parse(typed)[0] is None
    else:
        assert _whole("steps")(typed) == value
        assert lab.parse(typed) == (value, None)


@pytest.mark.parametrize("typed", ["1,000,000", "1_000_000", " 1000000"])
def test_steps_take_the_thousands_commas_the_limit_is_written_with(typed) -> None:
    """The refusal wrote "1,000,000", and "--steps 1,000,000" was "not a whole number"."""
    from attn_tui.cli.train import _whole

    assert _whole("steps")(typed) == 1_000_000


@pytest.mark.parametrize(("argv", "dest", "value"), [
    (["--lesson", "mask", "--step", "3.0"], "step", 3),
    (["serve", "--max-sessions", "1,000"], "max_sessions", 1000),
    (["serve", "--port", "8e3"], "port", 8000),
    (["print", "heads", "--text", "a", "--layer", "2.0", "--head", "1e1"], "heads_head", 10),
    (["print", "heads", "--text", "a", "--query", "１２"], "heads_query", 12),
])
def test_every_count_on_the_command_line_is_read_as_the_labs_fields_read_it(argv, dest, value):
    """--max-sessions 1,000 was "'1,000' is not a whole number", where --steps 1,000 trains
    a thousand steps: --step, --port, --max-sessions, --max-starting and print heads' --layer,
    --head and --query read int() alone."""
    from attn_tui.cli.main import build_parser

    assert getattr(build_parser().parse_args(argv), dest) == value


@pytest.mark.parametrize(("argv", "said"), [
    (["serve", "--max-sessions", "1,5"], "argument --max-sessions: '1,5' is not a whole number"),
    (["print", "heads", "--text", "a", "--layer", "1.5"],
     "argument --layer: '1.5' is not a whole number"),
    (["--lesson", "mask", "--step", "0,0"], "argument --step: '0,0' is not a whole number"),
    (["--lesson", "mask", "--step", "0"], "argument --step: 0 is not a step: steps count from 1"),
    # a decimal that only rounds to a whole float is not whole
    (["--lesson", "mask", "--step", "1.9999999999999999"],
     "argument --step: '1.9999999999999999' is not a whole number"),
    (["serve", "--max-starting", "1e400"], "argument --max-starting: '1e400' is too large to store"),
    (["serve", "--port", "1e20"], "argument --port: 1e20 is out of range (1-65535)"),
])
def test_a_count_that_is_not_whole_is_refused_in_one_line(argv, said, capsys):
    from attn_tui.cli.main import build_parser

    with pytest.raises(SystemExit) as ended:
        build_parser().parse_args(argv)
    assert ended.value.code == 2
    assert said in capsys.readouterr().err
