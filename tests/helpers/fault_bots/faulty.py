"""A Spring Challenge 2021 bot that misbehaves on purpose: ``faulty.py MODE [TURN [MARK]]``.

It plays WAIT until its TURN-th answer (default 3), then does what MODE says. It writes "started"
to stderr first. Its command line and those of the children it starts carry MARK, so tests can
find every process of it on the machine, sandboxed or not, and check that none is left running.
"""

import os
import signal
import subprocess
import sys
import time

from frames import turns

MODE = sys.argv[1]
AT = int(sys.argv[2]) if len(sys.argv) > 2 else 3
MARK = sys.argv[3] if len(sys.argv) > 3 else "faulty"
SLEEPER = [sys.executable, "-c", "import time; time.sleep(10000)", MARK]
EVIL = "\x1b]52;c;cm0gLXJmIH4K\x07\x1b[2J\x9b31mred<i>it</i>"
"""Terminal control sequences, as a hostile bot writes them: an OSC 52 clipboard write (of
``rm -rf ~``), a screen clear, a colour by the one-character CSI of C1; then HTML markup."""


def fault():
    out = sys.stdout
    if MODE == "crash":
        sys.exit(3)
    if MODE == "hang":
        time.sleep(10_000)
    if MODE == "busy":  # busy on the CPU for ten seconds (a search that does not watch the clock)
        end = time.monotonic() + 10
        while time.monotonic() < end:
            pass
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
        subprocess.Popen(SLEEPER)  # inherits our stdout and keeps it open
        os._exit(0)
    elif MODE == "closeout":
        out.flush()
        os.close(1)
        time.sleep(10_000)
    elif MODE == "memory":
        hog = []
        while True:
            hog.append(bytearray(64 * 1024 * 1024))
    elif MODE.startswith("daemon"):  # double fork, new session: re-parented away from the bot
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.execv(SLEEPER[0], SLEEPER)
            os._exit(0)
        os.wait()
        out.write("WAIT\n")
    elif MODE == "forkbomb":
        for _ in range(64):
            if os.fork() == 0:
                time.sleep(10_000)
                os._exit(0)
        out.write("WAIT\n")
    elif MODE == "hogs":  # three children of 200 MB each: each alone under the limit
        hog = "b = bytearray(200 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096]); import time; time.sleep(100)"
        for _ in range(3):
            subprocess.Popen([sys.executable, "-c", hog, MARK])
        time.sleep(10_000)
    elif MODE == "escinvalid":  # an answer that does not parse, quoted by the referee's verdict
        out.write(f"JUMP {EVIL}\n")
    elif MODE == "escmessage":  # a valid action whose message is shown (Java's trim() would cut a leading ESC)
        out.write(f"WAIT msg {EVIL}\n")
    elif MODE == "esccrash":  # its last stderr line is quoted by the verdict
        sys.stderr.write(f"dying {EVIL}\n")
        sys.exit(3)
    elif MODE == "strayhog":  # a daemon (double fork, new session) of 100 MB, then a slow answer
        hog = (
            "import os, sys, time; b = bytearray(100 * 1024 * 1024); b[::4096] = b'x' * len(b[::4096]); "
            "os.write(int(sys.argv[1]), b'x'); time.sleep(10_000)"
        )
        ready, done = os.pipe()
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                os.set_inheritable(done, True)
                os.execv(sys.executable, [sys.executable, "-c", hog, str(done), MARK])
            os._exit(0)
        os.wait()
        os.read(ready, 1)  # the daemon holds its memory
        time.sleep(0.2)
        out.write("WAIT\n")
    elif MODE == "scratch":  # 56 MB of files in /tmp and as many in /dev/shm, kept
        for folder in ("/tmp", "/dev/shm"):
            with open(os.path.join(folder, "fill"), "wb") as f:
                for _ in range(56):
                    f.write(b"x" * (1024 * 1024))
        out.write("WAIT\n")
    elif MODE == "twolines":
        out.write("WAIT first\nWAIT second\n")
    else:
        raise SystemExit("unknown mode " + MODE)
    out.flush()


def main():
    sys.stderr.write("started\n")
    sys.stderr.flush()
    if MODE == "escstart":  # cannot start: its last stderr line is quoted by the start check
        sys.exit(f"no start {EVIL}")
    if MODE == "busystart":  # busy (not waiting for its input) for AT seconds: a long start check
        end = time.monotonic() + AT
        while time.monotonic() < end:
            pass
    if "noterm" in MODE:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
    for turn in turns():
        if turn == 1 and MODE == "escinvalid":  # two lines of stderr, well before the answer
            sys.stderr.write(f"evil {EVIL} line\nsecond {EVIL}\n")
            sys.stderr.flush()
        if turn == AT:
            fault()
        else:
            print("WAIT", flush=True)


if __name__ == "__main__":
    main()
