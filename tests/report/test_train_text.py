"""`attn-tui train`'s progress lines: the columns stay apart whatever the loss."""

from __future__ import annotations

import pytest

from attn_tui.report.train import progress_line


@pytest.mark.parametrize("loss", [2.5679, 6365876.5, 1057907968.0, 122888200192.0, float("nan")])
def test_a_diverging_loss_keeps_a_space_between_step_and_loss(loss: float) -> None:
    line = progress_line(2, loss, 0.1239)
    step, loss_text, acc = line.split()
    assert (step, acc) == ("2", "0.1239")
    assert len(line) == 1 + 7 + 10 + 20
    assert float(loss_text) == pytest.approx(loss, rel=1e-3, nan_ok=True)


def test_an_ordinary_loss_keeps_four_decimals() -> None:
    assert progress_line(40, 0.123456, 0.99).split() == ["40", "0.1235", "0.9900"]
    assert progress_line(0, 9.0, 0.0884).split() == ["0", "-", "0.0884"]


def test_an_alpha_too_small_for_four_decimals_is_written_in_e_notation_not_as_0():
    # train printed rows like "9  0.0000 0.0001 0.0000 0.9996", where print heads and export
    # write 9.1743e-08: one rule for every table
    import numpy as np

    from attn_tui.report.train import alpha_table

    alpha = np.array([[1.0, 0.0], [9.1743e-08, 0.99999991]])
    rows = alpha_table(("a", "b"), alpha, "L1 H1")
    assert rows[-1].split() == ["b", "9.17e-8", "1.0000"]
    assert rows[-2].split() == ["a", "1.0000", "."]


@pytest.mark.parametrize("width", [80, 40, 24])
def test_in_a_terminal_the_keys_come_in_blocks_that_fit_its_width(width: int) -> None:
    """induction's 15 tokens made rows of 126 columns: each wrapped, the table unreadable."""
    import numpy as np

    from attn_tui.report.train import alpha_table

    n = 15
    alpha = np.tril(np.arange(1, n * n + 1, dtype=float).reshape(n, n)) / 1000
    tokens = tuple(str(i % 10) for i in range(n))
    rows = alpha_table(tokens, alpha, "L1 H1", width)
    assert max(len(row) for row in rows) <= width
    # every weight is in a block, once, in its query's row and under its key
    starts = [k for k, row in enumerate(rows) if row.startswith(" keys ")]
    assert len(starts) > 1
    seen: dict[tuple[int, int], str] = {}
    for s in starts:
        first, last = (int(w) for w in rows[s].split()[1:4:2])
        for i in range(n):
            cells = rows[s + 3 + i].split()[1:]
            assert len(cells) == last - first + 1
            for j, cell in zip(range(first - 1, last), cells, strict=True):
                seen[(i, j)] = cell
    assert seen == {(i, j): ("." if j > i else f"{alpha[i, j]:.4f}")
                    for i in range(n) for j in range(n)}
    # as even as they come: no block of one key left over (at 100 columns, "keys 12 to 12")
    sizes = [int(rows[k].split()[3]) - int(rows[k].split()[1]) + 1 for k in starts]
    assert max(sizes) - min(sizes) <= 1
    twelve = alpha_table(tokens[:12], alpha[:12, :12], "L1 H1", 100)
    assert [x for x in twelve if x.startswith(" keys ")] == [" keys 1 to 6 of 12:",
                                                          " keys 7 to 12 of 12:"]
    whole = alpha_table(tokens, alpha, "L1 H1")  # a pipe: each row whole, one block
    assert not any(row.startswith(" keys ") for row in whole) and len(whole[-1].split()) == n + 1
