"""The dashboard that ``arena serve`` serves: a Flask application over a results database
(:func:`create_app`), its pages (:mod:`.pages`), its server-side SVG charts (:mod:`.charts`)."""

from __future__ import annotations

from .app import create_app

__all__ = ["create_app"]
