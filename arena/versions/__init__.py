"""Bot versions frozen by content: what a bot's files are and their hash (:mod:`.provenance`),
a version written into the store beside the results database (:mod:`.freeze`, :mod:`.snapshot`)
and the manifest that describes it (:mod:`.manifest`)."""
