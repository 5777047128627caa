"""The replay viewer: one self-contained HTML page per replay file (``arena view``).

:func:`write_view` writes the page (:func:`view_file`: from a replay file, every path checked),
:func:`open_in_browser` shows it. The page's drawing is package data beside :mod:`.page`:
``page.html``, ``viewer.css``, ``viewer.js`` and one renderer script per game.
"""

from .page import (
    ViewError,
    ViewPathError,
    build_page,
    open_in_browser,
    view_file,
    write_view,
)

__all__ = [
    "ViewError",
    "ViewPathError",
    "build_page",
    "open_in_browser",
    "view_file",
    "write_view",
]
