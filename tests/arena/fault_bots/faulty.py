"""A Spring Challenge 2021 bot that misbehaves on purpose: ``faulty.py MODE [TURN]``.

It plays WAIT until its TURN-th answer (default 3), then does what MODE says. It appends its own
pid and those of any children it starts to the file named by $FAULT_PIDS, so tests can check that
nothing is left running afterwards.
"""

import os
import signal
import subprocess
import sys
import time

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3


def note_pid(pid):
    path = os.environ.get("FAULT_PIDS")
    if path:
        with open(path, "a") as f:
            f.write(f"{pid}\n")


def read_frame(first):
    if first:
        for _ in range(int(input())):
            input()
    for _ in range(4):
        input()
    for _ in range(int(input())):
        input()
    for _ in range(int(input())):
        input()


def fault():
    out = sys.stdout
    if MODE == "crash":
        sys.exit(3)
    if MODE == "hang":
        time.sleep(10_000)
    if MODE.startswith("sleep"):
        time.sleep(int(MODE[5:]) / 1000)
        out.write("WAIT\n")
    elif MODE == "garbage":
        out.write("JUMP AROUND\n")
    elif MODE == "empty":
        out.write("\n")
    elif MODE == "partial":
        out.write("WAI")
        out.flush()
        time.sleep(10_000)
    elif MODE == "hugeline":
        out.write("X" * (10 * 1024 * 1024) + "\n")
    elif MODE == "flood":
        chunk = "e" * (1 << 20)
        for _ in range(100):
            sys.stderr.write(chunk)
        sys.stderr.flush()
        out.write("WAIT\n")
    elif MODE == "child":
        child = subprocess.Popen(["sleep", "10000"])  # inherits our stdout and keeps it open
        note_pid(child.pid)
        os._exit(0)
    elif MODE == "closeout":
        out.flush()
        os.close(1)
        time.sleep(10_000)
    elif MODE == "memory":
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))
    elif MODE == "twolines":
        out.write("WAIT first\nWAIT second\n")
    else:
        raise SystemExit("unknown mode " + MODE)
    out.flush()


def main():
    note_pid(os.getpid())
    if MODE == "noterm":
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    turn = 0
    while True:
        try:
            read_frame(turn == 0)
        except EOFError:
            return
        turn += 1
        if turn == AT:
            fault()
        else:
            print("WAIT", flush=True)


if __name__ == "__main__":
    main()
