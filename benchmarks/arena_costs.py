"""The arena's own CPU per turn and per match, against their physical floors (issue #38, goals 2-3).

    python benchmarks/arena_costs.py [--turns N] [--matches M] [--runs R] [--sandbox off|on|both]
                                     [--only turns|match] [--quick]

Both are measured on a null game, installed for the run as a game plugin (a temporary
distribution whose entry point names its referee, as a user's package would), so that the
referee's own work is next to nothing: each turn every player gets one line, the turn's number,
and answers one line, whatever it says.

1. **Per turn.** A long match (``--turns``, thousands of turns) and a short one (a tenth of it)
   of two ``cat`` processes (bots that echo, costing next to nothing): the arena's CPU per turn is
   the slope, (CPU of the long - CPU of the short) / (turns of the long - turns of the short), so
   the bots' starts and stops do not count; from it the referee's in-process cost per turn with
   its input lines read (the same referee fed the same answers, no processes) is taken away. The
   floor: two pipe round trips per turn from this process to two ``cat`` processes, each an
   ``os.write`` of a line and a blocking ``os.read`` of the echo, timed the same way (with the
   sandbox, the ``cat`` processes run in the arena's sandbox: the same processes). Goal: the
   arena's cost per turn at most 2x the floor. The CPU is this process's (all its threads: the
   referee, the pipes, the limits' watchdogs, the stderr readers).
2. **Per match.** Matches of one turn of two trivial Python bots that answer ``WAIT``, started as
   the arena starts them (its fast start): the arena's CPU for the match (this process's CPU, and
   that of the launchers the bots' processes run before the bot, counted in the children's) minus
   the two bots' own CPU (the same commands run directly, each fed its input, ``--matches``
   times, alternating with the matches), per bot. Where a ``cpuacct`` cgroup can be made
   (``_tree_cpu.py``), the match's CPU is that of the whole process tree, in nanoseconds, the
   sandbox's processes reaped in its PID namespace included; else, with the sandbox, the
   machine's. Goal: at most 2 ms per bot without the sandbox;
   with it, at most the sandbox's own start cost (``benchmarks/sandbox_cost.py``) + 2 ms. The bare
   start (``python -S -c pass``) is printed for scale.

Medians over ``--runs`` runs; the cases alternate within a run. Keep the machine otherwise idle:
on a shared 2-core machine these CPU figures are noisy (other jobs' cache and scheduler pressure
lands on them), the ratios less so.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from _tree_cpu import TreeCpu, open_tree_cpu  # noqa: E402
from sandbox_cost import machine_cpu  # noqa: E402  (this folder: the machine's CPU, as there)

import referee  # noqa: E402
from arena.match import MatchOptions, play_match  # noqa: E402
from arena.match.launch import pystart  # noqa: E402
from arena.match.launch.botspec import BotSpec  # noqa: E402
from arena.match.sandbox import SandboxMode, SandboxUnavailable, decide  # noqa: E402

GAME = "nullbench"
_REFEREE = '''
from referee import ParameterError
from referee.engine import EngineReferee


class NullReferee(EngineReferee):
    """Each turn every player gets the turn's number and answers one line, whatever it says."""

    name = "nullbench"
    title = "Null (benchmark)"
    player_count = 2
    first_turn_time_ms = 1000
    turn_time_ms = 1000
    hard_quota_ms = 10**12  # the engine's total of the turns' limits: not this game's end

    def __init__(self, seed, params=None):
        params = dict(params or {})
        turns = params.pop("turns", "1")
        if params or not turns.isdigit() or int(turns) < 1:
            raise ParameterError("nullbench takes one parameter, turns (at least 1)")
        super().__init__(seed)
        self.max_turns = int(turns)

    def _begin_turn(self):
        line = [str(self.turn)]
        for p in (0, 1):
            self._send(p, line)
        return [0, 1]

    def _expected_lines(self, player):
        return 1

    def _resolve(self, outputs):
        pass

    def _snapshot(self):
        return {}
'''
_WAIT_BOT = "import sys\nfor line in sys.stdin:\n    print('WAIT', flush=True)\n"


def install_null_game(folder: Path) -> None:
    """The null game as an installed plugin: a module and a ``.dist-info`` naming it, on the path."""
    (folder / "cgarena_nullbench.py").write_text(_REFEREE)
    info = folder / "cgarena_nullbench-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: cgarena-nullbench\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[cgarena.games]\n{GAME} = cgarena_nullbench:NullReferee\n")
    sys.path.insert(0, str(folder))
    os.environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(folder), os.environ.get("PYTHONPATH")]))


def cpu_self() -> float:
    return time.process_time()


def cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def arena_match(turns: int, argv: list[str], sandbox: SandboxMode) -> tuple[float, float]:
    """(this process's CPU s, the children's CPU s) of one null match of ``turns`` turns."""
    specs = [BotSpec(f"p{i}", tuple(argv)) for i in range(2)]
    options = MatchOptions(sandbox=sandbox, params={"turns": str(turns)})
    s0, c0 = cpu_self(), cpu_children()
    result = play_match(GAME, 1, specs, options)
    s1, c1 = cpu_self(), cpu_children()
    bad = [p.message for p in result.players if p.verdict.value != "ok"]
    if result.outcome is None or result.turns != turns or bad:
        raise SystemExit(f"the null match did not go as planned: turns {result.turns} of {turns}, {bad}")
    return s1 - s0, c1 - c0


def referee_alone(turns: int) -> float:
    """CPU s of the null referee playing ``turns`` turns in-process, its input lines read, fed
    the answers ``cat`` gives (the lines it sent)."""
    s0 = cpu_self()
    ref = referee.create(GAME, 1, {"turns": str(turns)})
    while not ref.is_over:
        outputs = {}
        for req in ref.requests():
            lines = req.lines
            if req.expected_lines:
                outputs[req.player] = tuple(lines)
        ref.apply(outputs)
    return cpu_self() - s0


def pipe_floor(turns: int, sandbox: SandboxMode) -> tuple[float, float]:
    """CPU s of ``turns`` turns of two pipe round trips (a line written to a ``cat``, its echo
    read): this process's, and the two ``cat`` processes' (their start and end included, a
    millisecond in all). With the sandbox, each ``cat`` runs in one as the arena's would (the same
    ``bwrap`` command), started here directly: the floor of the same processes."""
    from arena.match import sandbox as sandboxing

    argv = ["cat"]
    if sandbox is SandboxMode.ON:
        argv = [*sandboxing.confine(argv, None, {}, own=sandboxing.bot_files(argv, None)), *argv]
    c0 = cpu_children()
    cats = [subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0) for _ in range(2)]
    fds = [(c.stdin.fileno(), c.stdout.fileno()) for c in cats]  # type: ignore[union-attr]
    write, read = os.write, os.read
    s0 = cpu_self()
    for turn in range(1, turns + 1):
        data = b"%d\n" % turn
        for wfd, rfd in fds:
            write(wfd, data)
            read(rfd, 65536)
    spent = cpu_self() - s0
    for c in cats:
        c.stdin.close()  # type: ignore[union-attr]
        c.wait()
        c.stdout.close()  # type: ignore[union-attr]
    return spent, cpu_children() - c0


def per_turn(turns: int, runs: int, sandbox: SandboxMode, core: int | None) -> dict[str, Any]:
    """Medians in microseconds per turn: the arena's (slope), the referee alone, the floor; with
    this process and the bots on the one ``core`` when it is given."""
    short = max(1, turns // 10)
    cat = ["cat"]
    arena, ref, floor, both = [], [], [], []
    cores = os.sched_getaffinity(0)
    if core is not None:
        os.sched_setaffinity(0, {core})
    try:
        for _ in range(runs):
            long_s, _ = arena_match(turns, cat, sandbox)
            short_s, _ = arena_match(short, cat, sandbox)
            arena.append((long_s - short_s) / (turns - short) * 1e6)
            ref.append((referee_alone(turns) - referee_alone(short)) / (turns - short) * 1e6)
            ours, cats = pipe_floor(turns, sandbox)
            floor.append(ours / turns * 1e6)
            both.append((ours + cats) / turns * 1e6)
    finally:
        os.sched_setaffinity(0, cores)
    costs = [a - r for a, r in zip(arena, ref)]
    return {"arena": statistics.median(arena), "referee": statistics.median(ref), "floor": statistics.median(floor),
            "cost": statistics.median(costs), "runs": costs, "floors": floor,
            "ratio": statistics.median([c / f for c, f in zip(costs, floor)]),
            "both": statistics.median(both),
            "ratio_both": statistics.median([c / f for c, f in zip(costs, both)])}  # fmt: skip


def bot_alone(argv: list[str], data: bytes) -> tuple[float, float]:
    """(CPU s of the children, machine CPU s) of one bot run directly (no arena), fed ``data``."""
    c0, m0 = cpu_children(), machine_cpu()
    subprocess.run(argv, input=data, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return cpu_children() - c0, machine_cpu() - m0


def sandbox_start_cost(argv: tuple[str, ...], line: str, clock: Any) -> float:
    """CPU s (by ``clock``: the process tree's or the machine's) of the bot ``argv`` started in
    the sandbox to its first answer (``line``) and stopped, minus the same unsandboxed, both as
    the arena starts them (``sandbox_cost.py``'s part 1, one pair)."""
    from arena.match import sandbox
    from arena.match.process.botprocess import BotProcess

    spent = []
    for wrap in (False, True):
        wrapper = sandbox.confine(argv, None, {}, own=sandbox.bot_files(argv, None), tmp_mb=768) if wrap else []
        m0 = clock()
        proc = BotProcess(argv, wrapper=wrapper).start()
        proc.send(["1"])
        assert proc.read_line(10.0).line == line
        proc.kill_tree()
        spent.append(clock() - m0)
    return spent[1] - spent[0]


def per_match(matches: int, runs: int, sandbox: SandboxMode, bot: str, tree: TreeCpu | None) -> dict[str, Any]:
    """Per bot, in ms: the arena's fixed cost (medians of the runs), the bots' own CPU, the bare
    start. From the process tree's CPU (``tree``: exact, every process of the sandbox counted),
    else without the sandbox from the processes' CPU (exact: nothing is reaped out of our sight),
    with it from the machine's CPU (10 ms ticks: means over the matches); the sandbox's own start
    cost measured alike."""
    argv = [sys.executable, "-u", bot]
    fast = pystart.launch_argv(argv, None, os.environ)
    arena_match(1, argv, sandbox)  # the fast start's one-off probe, the imports
    exact = sandbox is SandboxMode.OFF or tree is not None
    clock = tree.seconds if tree is not None else machine_cpu
    fixed, own, bare, start, start_py = [], [], [], [], []
    for _ in range(runs):
        f_run, o_run, b_run, s_run, p_run = [], [], [], [], []
        for _ in range(matches):
            m0 = clock()
            s, c = arena_match(1, argv, sandbox)
            whole = clock() - m0 if tree is not None or sandbox is not SandboxMode.OFF else s + c
            alone = [bot_alone(fast, b"1\n") for _ in range(2)]
            own_cpu = sum(a[0 if exact else 1] for a in alone)
            f_run.append(whole - own_cpu)
            o_run.append(own_cpu)
            b_run.append(bot_alone([sys.executable, "-S", "-c", "pass"], b"")[0])
            if sandbox is not SandboxMode.OFF:
                s_run.append(sandbox_start_cost(("cat",), "1", clock))
                p_run.append(sandbox_start_cost(tuple(argv), "WAIT", clock))
        pick = statistics.median if exact else statistics.fmean
        fixed.append(pick(f_run) / 2 * 1000)
        own.append(pick(o_run) / 2 * 1000)
        bare.append(statistics.median(b_run) * 1000)
        start.append(statistics.fmean(s_run) * 1000 if s_run else 0.0)
        start_py.append(statistics.fmean(p_run) * 1000 if p_run else 0.0)
    path = "fast" if fast != argv else "normal"
    how = ("the process tree's CPU, medians" if tree is not None
           else "the processes' CPU" if sandbox is SandboxMode.OFF else "the machine's CPU, means")  # fmt: skip
    return {"fixed": statistics.median(fixed), "own": statistics.median(own), "bare": statistics.median(bare),
            "runs": fixed, "path": path, "sandbox": statistics.median(start),
            "sandbox_py": statistics.median(start_py), "how": how}  # fmt: skip


def report_match(m: dict[str, Any], args: argparse.Namespace, mode: SandboxMode) -> None:
    how = m["how"]
    print(f"  per match (1-turn matches of two trivial Python WAIT bots, {m['path']} start, "
          f"{args.matches} matches x {args.runs} runs, {how}):")  # fmt: skip
    runs = ", ".join(f"{r:.2f}" for r in m["runs"])
    print(f"    arena's fixed CPU {m['fixed']:.2f} ms per bot (runs: {runs}); a bot's own CPU {m['own']:.1f} ms;"
          f" bare start (python -S -c pass) {m['bare']:.1f} ms")  # fmt: skip
    if mode is SandboxMode.OFF:
        print(f"    goal: at most 2.00 ms per bot: {'met' if m['fixed'] <= 2 else 'not met'}")
    else:
        for what, cost in (("a cat bot", m["sandbox"]), ("this Python bot", m["sandbox_py"])):
            goal = cost + 2
            print(f"    the sandbox's own start cost for {what} {cost:.2f} ms (sandbox on - off); goal: at most that"
                  f" + 2 ms = {goal:.2f} ms per bot: {'met' if m['fixed'] <= goal else 'not met'}")  # fmt: skip


def report_turns(t: dict[str, Any], args: argparse.Namespace, core: int | None) -> None:
    where = "the bots and the arena on any core" if core is None else f"the bots and the arena on core {core} alone"
    print(f"  per turn ({args.turns} - {args.turns // 10} turns, two cat bots, {where}, medians of {args.runs} runs):")
    print(f"    arena CPU {t['arena']:.1f} us/turn, of which the referee with its lines {t['referee']:.1f} us;"
          f" the rest {t['cost']:.1f} us (runs: {', '.join(f'{r:.1f}' for r in t['runs'])})")  # fmt: skip
    print(f"    floor: two pipe round trips {t['floor']:.1f} us/turn (runs: "
          f"{', '.join(f'{r:.1f}' for r in t['floors'])})")  # fmt: skip
    print(f"    arena / floor: {t['ratio']:.2f}x, median of the runs' ratios  (goal <= 2.00x)")
    print(f"    the floor with both ends of the pipes counted (this process and the cats): {t['both']:.1f} us/turn;"
          f" arena / that: {t['ratio_both']:.2f}x")  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--turns", type=int, default=5000, help="turns of the long null match (default 5000)")
    parser.add_argument("--matches", type=int, default=20, help="one-turn matches per run (default 20)")
    parser.add_argument("--runs", type=int, default=5, help="runs (default 5)")
    parser.add_argument("--sandbox", choices=["off", "on", "both"], default="both", help="default: both")
    parser.add_argument("--only", choices=["turns", "match"], help="measure one of the two (default: both)")
    parser.add_argument("--quick", action="store_true", help="2000 turns, 8 matches, 3 runs")
    args = parser.parse_args(argv)
    if args.quick:
        args.turns, args.matches, args.runs = 2000, 8, 3
    if args.turns < 20 or args.matches < 1 or args.runs < 1:
        parser.error("--turns must be at least 20, --matches and --runs at least 1")
    modes = [SandboxMode.OFF, SandboxMode.ON] if args.sandbox == "both" else [SandboxMode(args.sandbox)]
    if SandboxMode.ON in modes and not decide(SandboxMode.AUTO)[0]:
        if args.sandbox == "on":
            raise SystemExit(f"no sandbox here: {decide(SandboxMode.AUTO)[1]}")
        modes = [SandboxMode.OFF]
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; {sys.executable}", flush=True)
    tree = open_tree_cpu()
    print("per match: CPU of " + ("the process tree (a cpuacct cgroup)" if tree else "the processes, or the machine"))
    try:
        with tempfile.TemporaryDirectory() as tmp:
            install_null_game(Path(tmp))
            bot = Path(tmp) / "wait_bot.py"
            bot.write_text(_WAIT_BOT)
            for mode in modes:
                print(f"\nsandbox {mode.value}")
                try:
                    for core in (None, sorted(os.sched_getaffinity(0))[-1]) if args.only != "match" else ():
                        report_turns(per_turn(args.turns, args.runs, mode, core), args, core)
                    if args.only != "turns":
                        report_match(per_match(args.matches, args.runs, mode, str(bot), tree), args, mode)
                except SandboxUnavailable as exc:
                    raise SystemExit(f"sandbox: {exc}") from None
    finally:
        if tree is not None:
            tree.close()
    print(f"\nload average after: {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
