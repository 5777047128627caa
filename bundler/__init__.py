"""The bundler: turns a multi-module Python bot into the one file CodinGame accepts.

``bundler.build.build`` makes a bundle (flat when that can be proved safe, else modules mode),
``bundler.verify.verify`` plays it against the source bot, the ``bundle`` command line is
:mod:`cli.bundle`.

What both modes share is here: :mod:`.graph` (the bot's local modules and their imports, built from
:mod:`.source`, :mod:`.finder`, :mod:`.import_sites` and :mod:`.stdlib`; how the entry runs is
:mod:`arena.match.launch.pymodule`'s rule), :mod:`.scopes` (which names refer to a module's globals),
:mod:`.textedit` and :mod:`.strip` (edits of the original text), :mod:`.size`, :mod:`.errors`,
:mod:`.output`, :mod:`.build`, :mod:`.verify` and :mod:`.ship`. Modules mode is :mod:`.embed`;
flat mode's passes are the subpackage :mod:`.flat`. What ``bundle`` does with a bundle, step by
step, is :mod:`.steps`; sending it to the CodinGame IDE through the CG Local extension is
:mod:`.cglocal` (the protocol, needs the optional ``websockets``) and :mod:`.cglocal_push`.
"""

from __future__ import annotations

from importlib import metadata

try:
    __version__ = metadata.version("cgarena")
except metadata.PackageNotFoundError:  # pragma: no cover - running from a bare checkout
    __version__ = "0+unknown"
