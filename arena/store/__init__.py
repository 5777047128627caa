"""The results database: one SQLite file (:mod:`.database`, its schema and migrations
:mod:`.schema`) holding tournaments and ladders, their bots and every game as typed records
(:mod:`.records`, read and written by :mod:`.results`, its columns :mod:`.columns`), the bot
versions (:mod:`.versionrows`), the run lock (:mod:`.runlock`), and finding
what it holds (:mod:`.browse`, :mod:`.paging`, :mod:`.where`)."""
