"""How a BOT argument becomes a command that runs: what it means (:mod:`.botspec`) and the
name it shows under (:mod:`.botname`), Python bots (their module path, :mod:`.pymodule`; their fast
start, :mod:`.pystart` and its bootstrap) and JavaScript bots as CodinGame runs them (:mod:`.jsbot`)."""
