"""The step table and the weights as Markdown: the tables the workbench shows, as text.

``distinct``, ``model``, ``markdown`` and ``md_cell`` are copied verbatim into exported scripts (see
``script.py``), so they use plain Python and only the array methods numpy and torch share
(indexing, ``.sum()``, ``.tolist()``); the script then prints exactly what the Markdown export
returns.
"""

from __future__ import annotations

import math

from attn_tui.report.fmt import table_num


def distinct(names, labels=("key", "query", "sum")):
    """Token names a reader can tell apart: one that repeats (a sentence's two "the") or that
    is one of the tables' own ``labels`` ("sum" beside the total row) gets its place, as the
    model screen lists it ("6:the"); if that still repeats a name, every name is numbered."""
    out = [f"{i + 1}:{n}" if names.count(n) > 1 or n in labels else n
           for i, n in enumerate(names)]
    if len(set(out)) < len(out):
        out = [f"{i + 1}:{n}" for i, n in enumerate(names)]
    return out


def model(s, i, query_tokens, key_tokens, mask, scale, backend, dtype):
    """The tables the screen shows for query ``i``, as plain Python values."""
    w = s.weights[i]
    contrib = w[:, None] * s.values
    # the column holds what the softmax received, as on screen: -inf for a key masked first
    sc, sd, ex, al, cv = (a.tolist() for a in (s.scores[i], s.masked[i], s.exp[i], w, contrib))
    rows = [[sc[j], sd[j], ex[j], al[j]] + cv[j] for j in range(len(key_tokens))]
    sums = [None, None, float(s.exp[i].sum()), float(s.row_sums[i])]
    sums += [float(contrib[:, c].sum()) for c in range(len(rows[0]) - 4)]
    return {
        "query": query_tokens[i], "index": i, "t_q": len(query_tokens), "mask": mask,
        "scale": scale, "backend": backend, "dtype": dtype,
        # and named so: -inf is no score divided by sqrt(d_k)
        "scaled_header": (f"÷{math.sqrt(s.d_k):.3g}" if scale else "unscaled")
        + (", masked" if mask == "causal" and float("-inf") in sd else ""),
        "keys": distinct(list(key_tokens)), "rows": rows, "sums": sums,
        "entropy": float(s.entropy[i]), "max_entropy": float(s.max_entropy[i]),
        "queries": distinct(list(query_tokens)), "weights": [r.tolist() for r in s.weights],
        "row_sums": s.row_sums.tolist(),
    }


def md_cell(text):
    # $ starts maths and ~ strikes through on GitHub; the rest are Markdown's own
    return "".join("\\" + c if c in "\\|*_`[]<>$~" else c for c in text)


def markdown(m):
    """The step table, a line on entropy, then the weights of every query."""
    n_v = len(m["rows"][0]) - 4
    scaling = "÷√d_k" if m["scale"] else "unscaled"
    out = [f"Steps for query '{md_cell(m['query'])}' ({m['index'] + 1} of {m['t_q']}); "
           f"mask {m['mask']}; {scaling}; {m['backend']} {m['dtype']}", ""]
    head = ["key", "q·k", m["scaled_header"], "exp", "α"] + [f"α·v{c + 1}" for c in range(n_v)]
    out.append("| " + " | ".join(head) + " |")
    out.append("|:---|" + "---:|" * (len(head) - 1))
    for key, row in zip(m["keys"], m["rows"], strict=True):
        out.append("| " + " | ".join([md_cell(key)] + [table_num(x) for x in row]) + " |")
    sums = ["" if x is None else table_num(x) for x in m["sums"]]
    out.append("| sum | " + " | ".join(sums) + " |")
    lost = 1.0 - m["sums"][3]
    if m["mask"] == "causal-after" and lost > 5e-5:
        # weights that do not sum to 1 are not a distribution: no entropy to compare with
        # log2 of the keys it may see (as on the workbench)
        out += ["", f"α sums to {table_num(m['sums'][3])}; {table_num(lost)} of the weight "
                    "is lost (softmax came before the mask)"]
    else:
        out += ["", f"entropy of α: {table_num(m['entropy'])} bits of at most "
                    f"{table_num(m['max_entropy'])}"]
    # an exp column of inf (or of 0 beside a weight) is the dtype's range, not α's: the
    # softmax subtracts the row's largest score first, so α stays finite
    if any(row[2] == float("inf") for row in m["rows"]):
        out += ["", f"exp overflows {m['dtype']} (inf above); α is computed from "
                    "e^(x − max), which does not"]
    elif any(row[2] == 0 and row[3] > 0 for row in m["rows"]):
        out += ["", f"exp underflows {m['dtype']} to 0 above; α is computed from "
                    "e^(x − max), which does not"]
    out += ["", "Weights α: every query (rows) over every key (columns)", ""]
    head = ["query"] + [md_cell(k) for k in m["keys"]] + ["row sum"]
    out.append("| " + " | ".join(head) + " |")
    out.append("|:---|" + "---:|" * (len(head) - 1))
    for q, row, total in zip(m["queries"], m["weights"], m["row_sums"], strict=True):
        cells = [md_cell(q)] + [table_num(x) for x in row] + [table_num(total)]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
