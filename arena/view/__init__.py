"""The replay viewer: one self-contained HTML page per replay file (``arena view``).

:func:`write_view` writes the page (:func:`view_file`: from a replay file, every path checked),
:func:`open_in_browser` shows it. The page's drawing lives in
the package data beside this module: ``page.html`` (the template), ``viewer.css``, ``viewer.js``
(frames, controls, timeline, inputs and outputs, charts) and one renderer script per game
(``spring2021.js``, ``fall2020.js``).
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
