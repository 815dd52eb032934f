"""A sentence made ready for the model: terminal escapes, control and format characters gone,
WordPiece tokens through the model's own tokenizer.json (padding off, at most 128 tokens).

What was changed is said in notices, so the screen and the command line can tell the learner.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from attn_tui.core.words import plural
from attn_tui.models.files import ModelDamaged, missing_words

MAX_TOKENS = 128  # what the model was trained on; positions beyond are never used here

# CSI (ESC [ ... final), OSC (ESC ] ... BEL or ESC \), and two-character ESC sequences; and
# CSI and OSC in their one-character C1 forms (U+009B, U+009D), as some terminals write them
_ESCAPES = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[@-_]?"
                      r"|\x9b[0-?]*[ -/]*[@-~]|\x9d[^\x07\x1b\x9c]*(?:\x07|\x9c|\x1b\\)?")
_SPACES = re.compile(r"[\t\n\r\v\f]")


class EmptySentence(ValueError):
    """The text has nothing the tokenizer could read."""


@dataclass(frozen=True)
class Tokens:
    tokens: tuple[str, ...]
    ids: tuple[int, ...]
    text: str  # the cleaned text the tokenizer saw
    notices: tuple[str, ...] = ()
    truncated: bool = False
    read: str = ""  # the part of ``text`` the tokens cover: all of it unless truncated


def clean(text: str) -> tuple[str, tuple[str, ...]]:
    """``text`` without escape sequences, control characters and invisible format characters
    (tabs and newlines become spaces)."""
    notices = []
    without, escapes = _ESCAPES.subn("", text)
    if escapes:
        notices.append("removed " + plural(escapes, "terminal escape sequence"))
    without = _SPACES.sub(" ", without)
    # one look at each character (this runs on every key typed into the sentence): control
    # characters, and lone surrogates, which is how a byte that is not UTF-8 reaches Python
    kinds = [unicodedata.category(ch) for ch in without]
    controls, stray, invisible = kinds.count("Cc"), kinds.count("Cs"), kinds.count("Cf")
    if controls:
        notices.append("removed " + plural(controls, "control character"))
    if invisible:  # U+202E turned the line round, U+FEFF hid in it; the tokenizer drops them
        notices.append("removed " + plural(invisible, "invisible format character"))
    if stray:
        notices.append("removed " + plural(stray, "byte") + " that " +
                       ("is" if stray == 1 else "are") + " not UTF-8 text")
    if controls or stray or invisible:
        without = "".join(ch for ch, kind in zip(without, kinds, strict=True)
                          if kind not in ("Cc", "Cs", "Cf"))
    return without, tuple(notices)


class Tokenizer:
    """The model's WordPiece tokenizer, read from its tokenizer.json."""

    def __init__(self, path: Path, limit: int = MAX_TOKENS) -> None:
        from tokenizers import Tokenizer as HFTokenizer

        if not path.is_file():
            raise ModelDamaged(missing_words(path))
        try:
            self._tok = HFTokenizer.from_file(str(path))
        except Exception as exc:  # tokenizers raises a plain Exception for a bad file
            reason = " ".join(str(exc).split())[:160] or type(exc).__name__
            raise ModelDamaged(f"{path.name} cannot be read: {reason}") from None
        self._tok.no_padding()  # the shipped file pads every input to 128 [PAD]s
        self._tok.no_truncation()  # cut below instead, to say by how much
        self.limit = limit

    def encode(self, text: str) -> Tokens:
        cleaned, notices = clean(text)
        if not cleaned.strip():
            raise EmptySentence("type a sentence: there is nothing to read in it")
        encoding = self._tok.encode(cleaned)
        ids, tokens = list(encoding.ids), list(encoding.tokens)
        if len(ids) <= 2:  # only [CLS] and [SEP]: the normaliser removed everything
            raise EmptySentence("type a sentence: there is nothing to read in it")
        truncated = len(ids) > self.limit
        if truncated:
            notices += (
                f"cut to {self.limit} tokens: the sentence has {len(ids)} and the model reads "
                f"at most {self.limit} ([CLS], the first {self.limit - 2} pieces, [SEP])",
            )
            ids = ids[: self.limit - 1] + ids[-1:]
            tokens = tokens[: self.limit - 1] + tokens[-1:]
            read = cleaned[: encoding.offsets[self.limit - 2][1]]  # to the last piece kept
        else:
            read = cleaned
        return Tokens(tuple(tokens), tuple(ids), cleaned, tuple(notices), truncated, read)
