"""The ladder: the versions of bots registered over a contest's weeks. Each is frozen when it is
added (:mod:`.freeze`: its files copied into a store by content hash; :mod:`.snapshot`: that store
on disk, checked before a version is played; :mod:`.manifest`: what a snapshot records), so that
editing or rebuilding a bot's source later never changes a registered version."""
