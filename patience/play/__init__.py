"""Playing a variant: the session (game, undo/redo, commands, saves) and its front ends.

``session`` and ``destinations`` are plain Python that any front end reuses; ``app`` (the
full-screen terminal UI) imports textual and is loaded only when it is used.
"""

from patience.play.session import Reply, Session

__all__ = ["Reply", "Session"]
