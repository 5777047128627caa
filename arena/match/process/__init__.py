"""A bot as a tree of processes: one bot started, fed and ended (:mod:`.botprocess`), the Linux
plumbing under it (:mod:`.plumbing`, :mod:`.proctree`), its stderr (:mod:`.stderrtail`), clean-up
that signals cannot cut short (:mod:`.shield`) and what a killed arena leaves behind (:mod:`.owners`)."""
