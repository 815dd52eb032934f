"""attn-tui: learn self-attention by doing it, in the terminal."""

__version__ = "0.1.0"
