"""Bot versions frozen by content: what a bot's files are and their hash (:mod:`.provenance`),
a version written into the store beside the results database (:mod:`.freeze`, :mod:`.snapshot`)
and the manifest that describes it (:mod:`.manifest`); each version recorded once per name in the
results database (:mod:`.registry`) and named by a BOT argument (:mod:`.reference`)."""
