"""The ladder: the versions of bots registered over a contest's weeks. Each is frozen when it is
added (:mod:`arena.versions`), so that editing or rebuilding a bot's source later never changes a
registered version; its games are picked where they inform the ranking (:mod:`.scheduler`), and its
commands are library functions (:mod:`.commands`)."""
