"""What the workbench knows of the file its workspace belongs to: the last saved workspace, so
"unsaved" means "edited since then" (its own module: the workbench needs it from the first
screen, the save and open dialogs' code only when they are used)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from attn_tui.core.state import Workspace


class SessionFile:
    """The file a workspace belongs to: its path (None until saved) and what was last saved
    there. A save changes it in place; an open starts a new one. Undo entries hold the file
    of their workspace, so undoing an open finds the earlier file again, as it is now."""

    __slots__ = ("path", "saved", "stamp")

    def __init__(self, path: str | None, saved: Workspace | None) -> None:
        self.path, self.saved = path, saved
        # the file as attn-tui last read or wrote it: a save asks before replacing a file
        # that changed since (edited by hand, or saved from another window)
        self.stamp = None
        if path:
            from attn_tui.core.files import stamp  # core.files: not loaded at start for no file

            self.stamp = stamp(path)

    def changed_on_disk(self) -> bool:
        from attn_tui.core.files import stamp

        now = stamp(self.path) if self.path else None
        return now is not None and self.stamp is not None and now != self.stamp
