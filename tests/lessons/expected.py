"""What each lesson must show, step by step: numbers read from the seeds' own printouts.

Keys are 1-based step numbers; values are strings that must be on the screen at that step.
Numbers are written as the panes write them (four decimals, thousands separators), from the
values ``shared/seeds/reference`` holds, so nothing here is typed from memory.
"""

from __future__ import annotations

from reference import load_attention, load_lecture

A = load_attention()
L = load_lecture()


def f4(x: float) -> str:
    return f"{float(x):.4f}"


def vec(xs) -> str:
    return "(" + ", ".join(f4(x) for x in xs) + ")"


def typed(xs) -> str:
    return "(" + ", ".join(f"{float(x):g}" for x in xs) + ")"


def _cells(values, cols=None, rows=None) -> list[str]:
    out = []
    for r, row in enumerate(values):
        for c, x in enumerate(row):
            if x == x and (cols is None or c in cols) and (rows is None or r in rows):
                out.append(f4(x))  # NaN (a blocked cell) is skipped: x != x
    return out


def _lower(values, cols) -> list[str]:
    return [f4(values[r][c]) for r in range(len(values)) for c in cols if c <= r]


def steps() -> dict[str, dict[int, list[str]]]:
    one, sel, sc, mk, pr = A.one, A.select, A.scaling, A.mask, A.params
    q0, q1, q2 = sel.queries
    weights = L["head_weights[0]"].values
    return {
        "one": {
            1: [typed(one.q), *(typed(k) for k in one.keys.values())],
            2: [f4(r.qk) for r in one.rows],
            3: [f4(one.sqrt_d), *(f4(r.scaled) for r in one.rows)],
            4: [*(f4(r.exp) for r in one.rows), f4(one.exp_sum)],
            5: [*(f4(r.alpha) for r in one.rows), f4(one.alpha_sum), f4(one.exp_sum)],
            6: [vec(one.output), *(f4(a) for a, _ in one.contributions)],
            7: [", ".join(f"{a:.2f}" for a in one.alpha_2dp), f4(one.entropy),
                f4(one.max_entropy)],
        },
        "select": {
            2: [typed(q0.q), *(f4(a) for a in q0.alpha.values()), vec(q0.output),
                f4(q0.entropy)],
            3: [typed(q1.q)],
            4: [*(f4(a) for a in q1.alpha.values()), vec(q1.output), f4(q1.entropy)],
            5: [typed(q2.q)],
            6: [f4(q0.entropy), f4(q1.entropy), f4(q2.entropy), f4(sel.max_entropy),
                *(f4(a) for a in q2.alpha.values()), vec(q2.output)],
        },
        "scale": {
            1: [row.sd.text for row in sc.rows],
            2: [*(f4(row.entropy_raw) for row in sc.rows),
                *(f4(row.max_alpha_raw) for row in sc.rows), f4(sc.max_entropy)],
            3: [*(f4(row.entropy_raw) for row in sc.rows),
                *(f4(row.entropy_scaled) for row in sc.rows),
                *(f4(row.max_alpha_raw) for row in sc.rows), *(str(row.d_k) for row in sc.rows)],
            4: ["entropy H (bits) against d_k", "r raw  s scaled", f4(sc.max_entropy)],
        },
        "mask": {
            1: _cells(mk.scores.values),
            2: ["-inf"],
            3: [*_cells(mk.mask_first.weights.values), f4(mk.mask_first.row_sums[0])],
            4: [*_cells(mk.softmax_first.weights.values),
                *(f4(s) for s in mk.softmax_first.row_sums), vec(mk.softmax_first.row_sums)],
            5: _cells(mk.mask_first.weights.values),
        },
        "params": {
            1: ["V = {V:,}  D = {D}  L = {L}  h = {h}  H = {H}".format(**pr.model),
                f"{pr.counts['attention']:,}"],
            2: [f"{pr.counts[k]:,}" for k in ("feed_forward", "layer_norms", "layer")],
            3: [f"d_k = D / h = {pr.d_k}"],
            4: [f"{pr.counts[k]:,}" for k in ("layers", "embeddings", "total")],
            # every row but n's own answers the step's question (n / 4 too: 0.06× is 1/16):
            # hidden ("?") until it is answered; the token counts stay
            5: [x for n, n2, ratio in pr.lengths for x in (str(n), f"{n2:,}", f"{ratio:.2f}×")
                if n == 512] + [str(n) for n, _, _ in pr.lengths],  # n = 512: the chapter's
        },
        "nanogpt": {
            1: [f4(x) for x in L["x[0]"].values.ravel()],
            2: [f4(x) for x in L["bow_loops[0]"].values.ravel()],
            # row t3 is hidden ("?"): it answers step 4's question; the map writes a 0 it
            # blocks as ·
            3: sorted(set(_cells(L["avg_weights"].values, cols=range(5), rows={0, 1, 2, 4, 5, 6, 7}))
                      - {"0.0000"}) + ["3.2e-08"],
            4: ["-inf", "0.0000"],
            5: [str(L["allclose_matmul"]), "3.2e-08"],
            7: _lower(weights, range(5)),
            8: [f4(weights[r][c]) for r in range(5, 8) for c in range(5, 8) if c <= r],
            9: [f4(weights[5][4])],  # t5's weight on t4, before the learner steers it
        },
        # the model's own numbers, checked against transformers' BertModel on the same files
        # (tests/models); the sentence and heads are the lesson's
        "real-heads": {
            1: ["6 layers of 12 heads", "13 tokens", "1:[CLS]", "13:[SEP]"],
            3: ["3.70: spread evenly over all 13", "previous token 0.9997"],
            7: ["13 tokens × 32"],
        },
        # the train lab's settings as each task brings them (the trained numbers: test_learning)
        "learning": {
            1: ["1 layer, 1 head, 32 numbers per token"],
            2: ["200 steps"],
            5: ["1 layer, 1 head, 300 steps"],
            7: ["6 fair questions", "384 per training step"],
        },
    }


# after the question of a step is answered (right or wrong), the panes show its answer
REVEALS: dict[tuple[str, int], list[str]] = {
    ("one", 3): ["÷√d_k OFF", "unscaled"],
    ("select", 3): [f4(A.select.queries[1].alpha["barked"]), f4(A.select.queries[1].entropy)],
    ("select", 5): [f4(A.select.queries[2].entropy), vec(A.select.queries[2].output)],
    ("scale", 2): [f4(row.entropy_scaled) for row in A.scaling.rows],
    ("mask", 3): [f4(A.mask.first_row_sum), "causal-after"],
    ("params", 3): ["h = 16", f"{A.params.counts['attention']:,}", "d_k = 32"],
    ("params", 5): [x for n, n2, ratio in A.params.lengths for x in (f"{n2:,}", f"{ratio:.2f}×")],
    ("nanogpt", 4): ["0.2500"],
    ("nanogpt", 5): ["float64", "prints True"],
    ("nanogpt", 6): ["1.0000"],
    ("real-heads", 2): ["0.9998 of its weight to 'cat'", "0.9997"],
    ("real-heads", 4): ["0.8965", "|v| = 0.06", "4.22", "in 31 of its 72"],
    ("real-heads", 6): ["0.5791"],
}
