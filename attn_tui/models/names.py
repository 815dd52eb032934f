"""How layers, heads and tokens are named to people: counted from 1, as the workbench counts
its queries ("4 of 13") and dimensions (d1), the train lab its layers and the lessons their
steps. Arrays count from 0, as Python does: layer 1 head 3 is ``run.weights[0, 2]``."""


def head_name(layer: int, head: int) -> str:
    """``layer`` and ``head`` as array indexes, named: (0, 2) is "layer 1 head 3"."""
    return f"layer {layer + 1} head {head + 1}"


def short_head_name(layer: int, head: int) -> str:
    """The same in four or five characters: "L1 H3"."""
    return f"L{layer + 1} H{head + 1}"


def token_label(index: int, token: str, sep: str = ":") -> str:
    """Token ``index`` (an array index) as listed: "1:[CLS]" for the first."""
    return f"{index + 1}{sep}{token}"


def token_labels(tokens: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """Every token as listed, in order: a word said twice gets two names ("2:the", "6:the")."""
    return tuple(token_label(i, t) for i, t in enumerate(tokens))


def unlabelled(names: list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """``token_labels`` undone ("2:the" -> "the") for each name that starts with its own
    number, for a view that numbers its rows itself (a token added after them, "t14", or a
    row taken out before them leaves the others as they are)."""
    return tuple(n.removeprefix(f"{i}:") for i, n in enumerate(names, start=1))
