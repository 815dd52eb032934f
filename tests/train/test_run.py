"""A run: its checks, its determinism, its divergence, and α recomputed through attend."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from attn_tui.train import TrainConfigError, default_config
from attn_tui.train import tasks as T
from attn_tui.train.replay import alphas, forward
from attn_tui.train.trainer import Run


@pytest.mark.parametrize(("changes", "words"), [
    (dict(steps=0), "at least one step"),
    (dict(d_model=30, heads=4), "d_model 30 does not split into 4 heads"),
    (dict(lr=float("nan")), "learning rate"),
    (dict(lr=0.0), "learning rate"),
    # its limits and the number refused as they are typed, not 1e-08 and 1e-09
    (dict(lr=1e-9), "learning rate must be between 1e-8 and 1000000, not 1e-9$"),
    (dict(layers=0), "layers must be a whole number from 1"),
    # a saved run's steps past the limit, said as the lab and the command line say the limit
    (dict(steps=2_000_000), "steps must be a whole number from 1 to 1,000,000, not 2000000$"),
])
def test_a_config_that_cannot_train_says_why(changes, words) -> None:
    with pytest.raises(TrainConfigError, match=words):
        Run(default_config("previous", **changes))


def test_an_unknown_task_is_named() -> None:
    with pytest.raises(TrainConfigError, match="unknown task 'copy'; choose one of: previous"):
        default_config("copy")


def test_the_same_seed_gives_the_same_losses_to_the_bit() -> None:
    config = default_config("sort", steps=12, d_model=16, frames=3)
    runs = [Run(config) for _ in range(2)]
    for r in runs:
        r.advance()
    assert runs[0].losses == runs[1].losses  # float equality: bit for bit
    assert np.array_equal(runs[0].record().frames, runs[1].record().frames)
    other = Run(default_config("sort", steps=12, d_model=16, frames=3, seed=1))
    other.advance()
    assert other.losses != runs[0].losses


def test_a_run_in_pieces_is_the_same_run() -> None:
    config = default_config("reverse", steps=10, d_model=16)
    whole, pieces = Run(config), Run(config)
    whole.advance()
    for n in (3, 3, 4):
        pieces.advance(n)
    assert whole.losses == pieces.losses


def test_training_leaves_the_thread_count_as_it_was() -> None:
    before = torch.get_num_threads()
    Run(default_config("previous", steps=2)).advance()
    assert torch.get_num_threads() == before


def test_a_diverging_learning_rate_stops_and_keeps_the_frames() -> None:
    run = Run(default_config("previous", steps=60, lr=1e3))
    run.advance()
    assert run.diverged and run.done
    assert np.isnan(run.losses[-1]) and run.step < 60
    record = run.record()
    assert record.diverged
    assert len(record.frames) == run.step  # a frame every step up to the last finite loss
    assert np.all(np.isfinite(record.frames))


def test_stop_pauses_a_run_and_advance_resumes_it() -> None:
    run = Run(default_config("previous", steps=20))
    run.advance(stop=lambda: run.step >= 7)
    assert run.step == 7 and not run.done
    run.advance()
    assert run.step == 20 and run.done


@pytest.mark.parametrize("task", ["sort", "induction"])
def test_captured_alpha_equals_attend_on_the_trained_weights(task) -> None:
    run = Run(default_config(task, steps=40, d_model=16, heads=2, frames=4))
    run.advance()
    record = run.record()
    recomputed = alphas(record.config, record.weights, record.example)
    assert recomputed.dtype == np.float32 and record.frames.dtype == np.float32
    assert recomputed.shape == record.frames[-1].shape == (2, 2, len(record.example),
                                                           len(record.example))
    np.testing.assert_allclose(recomputed, record.frames[-1], rtol=0, atol=1e-6)
    assert not np.allclose(record.frames[0], record.frames[-1], atol=1e-3)  # it did learn


def test_the_replay_gives_each_head_its_q_k_v() -> None:
    run = Run(default_config("previous", steps=3, d_model=8, heads=2))
    run.advance()
    r = run.record()
    heads = forward(r.config, r.weights, r.example)
    assert len(heads) == 1 and len(heads[0]) == 2
    t = len(r.example)
    assert heads[0][1].q.shape == heads[0][1].k.shape == heads[0][1].v.shape == (t, 4)


@pytest.mark.parametrize("task", list(T.BATCHES))
def test_the_input_length_known_without_torch_is_the_batches(task) -> None:
    from attn_tui.train.config import seq_len

    for held_out in (False, True):
        x, y = T.batch(task, 3, torch.Generator().manual_seed(1), held_out=held_out)
        assert x.shape == y.shape == (3, seq_len(task))
    assert seq_len(task) == len(T.example(task)[0])


@pytest.mark.parametrize("task", list(T.BATCHES))
def test_held_out_sequences_are_never_drawn_for_training(task) -> None:
    if task == "induction":
        pytest.skip("induction's distinct digits are not split (the README says so)")
    train_x, _ = T.batch(task, 4000, torch.Generator().manual_seed(3))
    held_x, _ = T.batch(task, 4000, torch.Generator().manual_seed(3), held_out=True)
    n = T.PREVIOUS_T if task == "previous" else T.HALF
    assert bool((T._checksum(train_x[:, :n]) != 0).all())
    assert bool((T._checksum(held_x[:, :n]) == 0).all())


def test_the_targets_are_the_tasks() -> None:
    g = torch.Generator().manual_seed(0)
    x, y = T.reverse(1, g)
    digits = x[0, : T.HALF].tolist()
    assert int(x[0, T.HALF]) == T.SEP_ID
    assert y[0, T.HALF:].tolist() == digits[::-1]
    assert (y[0, : T.HALF] == T.IGNORE).all()
    x, y = T.sort(1, g)
    assert y[0, T.HALF:].tolist() == sorted(x[0, : T.HALF].tolist())
    x, y = T.previous(1, g)
    assert y[0, 1:].tolist() == x[0, :-1].tolist() and int(y[0, 0]) == T.IGNORE
    x, y = T.induction(1, g)
    first = x[0, : T.REPEAT].tolist()
    assert len(set(first)) == T.REPEAT
    assert y[0, T.REPEAT:].tolist() == first[1:]


def test_a_pattern_named_in_a_layer_the_run_lacks_says_so() -> None:
    """attn-tui train --task induction --layers 1 said "to look for: in layer 2, …", and the
    lab's maps were titled "L2: 2-7 past the earlier copy", of a run with one layer."""
    from attn_tui.report.train import header_lines
    from attn_tui.train.config import TASKS

    one = [line for line in header_lines(default_config("induction", layers=1))
           if line.startswith(" to look for:")]
    assert one[0].startswith(" to look for: in layer 2,")
    assert one[0].endswith("(measured with 2 layers; this run has 1, so it has no layer 2)")
    two = [line for line in header_lines(default_config("induction"))
           if line.startswith(" to look for:")]
    assert two == [f" to look for: {TASKS['induction'].pattern}"]
    assert TASKS["induction"].short_for(1) == "needs L2; this run has 1"
    assert TASKS["induction"].short_for(2) == "L2: 2-7 past the earlier copy"
    assert TASKS["previous"].pattern_for(1) == TASKS["previous"].pattern
