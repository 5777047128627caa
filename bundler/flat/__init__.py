"""Flat mode: the bot's modules flattened into one namespace, when that can be proved safe.

:func:`bundler.flat.flatten.flatten` runs the passes, one module each (:mod:`.collect`,
:mod:`.checks`, :mod:`.classify`, :mod:`.order`, :mod:`.naming`, :mod:`.rewrite`, :mod:`.emit`;
the rewrite's two parts, over :mod:`.rewriter`, are :mod:`.rewrite_uses` and
:mod:`.rewrite_imports`), and says why when it refuses (:mod:`.refusals`). What both modes share
(the module graph, scope analysis, text edits, errors) is in :mod:`bundler` itself.
"""
