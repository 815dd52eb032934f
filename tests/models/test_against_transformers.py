"""attn-tui's forward pass against transformers' BertModel on the same files: every attention
weight and the sentence embedding agree to 1e-5 in float32."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")

SENTENCES = {
    "plain": "The cat sat on the mat.",
    "punctuation": 'Wait... what?! (No way) - really; "yes", she said: \'fine\'.',
    "unknown word": "The flibbertigibbetous snorfwangle ate a ☃ quietly.",
    "digits": "In 1984, 3.14159 and 42,000 people paid $12.50 at 07:45.",
    "cjk": "東京は日本の首都です。北京也是。",
    "emoji": "I love pizza 🍕🍕 and coffee ☕ 😀!",
    "one word": "hello",
    "one character": "?",
    "repeated words": "the the the the the the the the cat cat cat",
    "accents": "Café déjà vu: a naïve résumé from Zürich.",
    "code": "x = f(y) + 2 * z; print(x[0])",
    "long": (
        "Attention lets every token look at every other token and decide, with a softmax "
        "over scaled dot products, how much of each value to take into its new state."
    ),
    "128-token limit": "one two three four five six seven eight nine ten " * 20,
    "escapes": "\x1b[31mred\x1b[0m text\twith\ncontrol\x07 characters",
}


def _reference_run(reference: Any, ids: list[int]) -> Any:
    with torch.no_grad():
        return reference(
            torch.tensor([ids]), output_attentions=True, output_hidden_states=True
        )


@pytest.fixture(scope="module", params=list(SENTENCES), ids=list(SENTENCES))
def pair(request: pytest.FixtureRequest, minilm: Any, reference: Any) -> tuple[Any, Any]:
    run = minilm.run(SENTENCES[request.param])
    return run, _reference_run(reference, run.ids)


def test_every_attention_weight_matches(pair: tuple[Any, Any]) -> None:
    run, ref = pair
    expected = np.stack([a[0].numpy() for a in ref.attentions])
    assert run.weights.shape == expected.shape == (6, 12, len(run.tokens), len(run.tokens))
    assert run.weights.dtype == np.float32
    assert float(np.max(np.abs(run.weights - expected))) <= 1e-5


def test_sentence_embedding_matches_mean_pooling(pair: tuple[Any, Any]) -> None:
    run, ref = pair
    pooled = ref.last_hidden_state[0].mean(dim=0)
    expected = torch.nn.functional.normalize(pooled, dim=0).numpy()
    assert run.embedding.shape == (384,)
    assert float(np.max(np.abs(run.embedding - expected))) <= 1e-5


def test_hidden_states_match(pair: tuple[Any, Any]) -> None:
    run, ref = pair
    expected = np.stack([h[0].numpy() for h in ref.hidden_states])
    assert run.hidden.shape == expected.shape == (7, len(run.tokens), 384)
    assert float(np.max(np.abs(run.hidden - expected))) <= 1e-4


def test_q_k_v_are_the_reference_projections(pair: tuple[Any, Any], reference: Any) -> None:
    run, _ = pair
    t = len(run.tokens)
    for layer in (0, 5):
        hidden = torch.from_numpy(np.ascontiguousarray(run.hidden[layer]))
        attention = reference.encoder.layer[layer].attention.self
        with torch.no_grad():
            for name, got in (("query", run.q), ("key", run.k), ("value", run.v)):
                want = getattr(attention, name)(hidden).reshape(t, 12, 32).permute(1, 0, 2)
                assert float(np.max(np.abs(got[layer] - want.numpy()))) <= 1e-5


def test_tokens_match_the_vocab_txt_tokenizer(minilm: Any, reference_tokenizer: Any) -> None:
    for text in SENTENCES.values():
        run_tokens = minilm.tokenize(text)
        expected = reference_tokenizer(run_tokens.text, truncation=True, max_length=128)
        assert list(run_tokens.ids) == expected["input_ids"], text


def test_the_sentences_cover_what_the_issue_asks(minilm: Any) -> None:
    tokens = {name: minilm.tokenize(text) for name, text in SENTENCES.items()}
    assert "[UNK]" in tokens["unknown word"].tokens
    assert "[UNK]" in tokens["emoji"].tokens
    assert "東" in tokens["cjk"].tokens
    assert len(tokens["one word"].tokens) == 3
    assert len(tokens["128-token limit"].ids) == 128
    assert tokens["128-token limit"].truncated
    assert tokens["repeated words"].tokens.count("the") == 8


@pytest.mark.parametrize("name", ["plain", "cjk", "128-token limit"])
def test_the_torch_path_matches_too(name: str, minilm: Any, reference: Any) -> None:
    run = minilm.run(SENTENCES[name], backend="torch")
    ref = _reference_run(reference, run.ids)
    expected = np.stack([a[0].numpy() for a in ref.attentions])
    assert isinstance(run.weights, np.ndarray)
    assert float(np.max(np.abs(run.weights - expected))) <= 1e-5
    pooled = torch.nn.functional.normalize(ref.last_hidden_state[0].mean(dim=0), dim=0)
    assert float(np.max(np.abs(run.embedding - pooled.numpy()))) <= 1e-5
