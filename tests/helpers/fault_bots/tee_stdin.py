"""Run a Python bot, recording every line it reads from stdin: ``tee_stdin.py OUT SCRIPT [ARGS...]``,
or ``tee_stdin.py OUT -m MODULE [ARGS...]`` for a module of the repository (a shipped bot).

The bot runs in this process (``runpy``), with ``sys.stdin`` wrapped so that each line it reads is
appended to OUT as it is read. Tests compare OUT with what the bot should have received.
"""

import runpy
import sys
from pathlib import Path


class Tee:
    def __init__(self, stream, out):
        self._stream = stream
        self._out = out

    def readline(self, *args):
        line = self._stream.readline(*args)
        self._out.write(line)
        self._out.flush()
        return line

    def __iter__(self):
        return iter(self.readline, "")

    def __getattr__(self, name):
        return getattr(self._stream, name)


def main():
    out_path, script, *args = sys.argv[1:]
    with open(out_path, "w", newline="") as out:
        sys.stdin = Tee(sys.stdin, out)
        if script == "-m":
            module, *args = args
            sys.path.insert(0, str(Path(__file__).resolve().parents[3]))  # the repository
            sys.argv = [module, *args]
            runpy.run_module(module, run_name="__main__", alter_sys=True)
        else:
            sys.argv = [script, *args]
            runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
