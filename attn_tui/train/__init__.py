"""Tiny causal transformers trained on synthetic tasks, and the α they learn.

``config`` and ``runfile`` need numpy only; ``model``, ``tasks`` and ``trainer`` need torch and
are imported when a run starts (``attn_tui.train.trainer.Run``). Nothing here imports textual.
"""

from attn_tui.train.config import (
    INSTALL_TORCH_TRAIN,
    TASKS,
    Task,
    TrainConfig,
    TrainConfigError,
    default_config,
)

__all__ = [
    "INSTALL_TORCH_TRAIN", "TASKS", "Task", "TrainConfig", "TrainConfigError", "default_config",
]
