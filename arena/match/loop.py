"""The one game loop: a referee from the registry, one bot process per seat, until the end.

:func:`play_match` never prints; it returns a :class:`MatchResult` (and, when asked, every
execution for the replay file). Executions run in the engine's order, one at a time, each bot's
time measured from the end of the write of its input to the arrival of its answer line.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

import referee
from referee import DeactivationCause, FrameReport

from . import sandbox
from .launch.botspec import BotSpec
from .limits import DEFAULT_MEMORY_LIMIT_MB, DEFAULT_TASK_LIMIT, BreachKind
from .limits.refereetime import RefereeFailure, TurnClock, referee_time
from .process.botprocess import BotProcess, BotStartError, ReadStatus
from .process.shield import shielded
from .protocol.latency import applied_limit
from .protocol.schedlag import LagProbe, SchedLagProbe, timeout_message
from .result import Execution, Frame, Judgement, MatchResult, PlayerResult, Verdict
from .sandbox import SandboxMode

LIMIT_STATUS = "limit"
"""An execution's status when the bot went past its memory or process limit before answering."""

__all__ = ["MatchOptions", "play_match"]


@dataclass(frozen=True)
class MatchOptions:
    time_scale: float = 1.0
    """Multiplies every time limit (slow machines, debuggers)."""
    time_margin_ms: float = 0.0
    """An answer this many ms past its (scaled) limit is still taken, and counted as past it."""
    lag_probe: LagProbe | None = field(default=None, compare=False)
    """Measures each answer window's scheduling lag (:mod:`arena.match.protocol.schedlag`); ``None``: the
    real one, :class:`arena.match.protocol.schedlag.SchedLagProbe` (tests give their own)."""
    no_timeout: bool = False
    """Wait for answers forever."""
    memory_limit_mb: int | None = DEFAULT_MEMORY_LIMIT_MB
    """For each bot's whole process tree."""
    task_limit: int | None = DEFAULT_TASK_LIMIT
    """Processes and threads of each bot."""
    sandbox: SandboxMode = SandboxMode.AUTO
    """Run each bot in a sandbox (:mod:`arena.match.sandbox`); ``auto``: where bubblewrap works."""
    hide: tuple[str, ...] = ()
    """Paths sandboxed bots must not see even where they could read (results, replays)."""
    params: Mapping[str, str] | None = None
    record: bool = False
    """Keep every execution and snapshot (for ``--replay``)."""


def play_match(
    game: str,
    seed: int,
    bots: Sequence[BotSpec],
    options: MatchOptions = MatchOptions(),
    on_frame: Callable[[Frame], None] | None = None,
    should_stop: Callable[[], bool] | None = None,
) -> MatchResult:
    """Play one match. Bots that fail to start lose as if they never answered; ``should_stop`` is
    asked before every turn (yes: the match stops as on Ctrl-C).

    On Ctrl-C (``KeyboardInterrupt``) every bot is killed and the partial result returned with
    ``interrupted=True``. A signal during the bots' clean-up waits for its end (after the game's
    end, a Ctrl-C then returns the whole result with ``interrupted=True``). Raises
    :class:`arena.match.limits.refereetime.RefereeFailure` (the bots killed) when the game cannot
    be set up on this seed or its referee goes past its time, and
    :class:`arena.match.sandbox.SandboxUnavailable` for ``sandbox=on`` where bots cannot be
    sandboxed, before starting anything.
    """
    with referee_time(game, "set the game up", options.time_scale, not options.no_timeout):
        try:
            ref = referee.create(game, seed, options.params)
        except referee.ParameterError as exc:  # checked on another seed: not all maps fit
            raise RefereeFailure(f"{game} cannot be set up on seed {seed} with these parameters: {exc}") from None
    if len(bots) != ref.player_count:
        raise ValueError(f"{ref.name} needs {ref.player_count} bots, got {len(bots)}")
    confined, _ = sandbox.decide(options.sandbox)
    files = [sandbox.bot_files(b.argv, b.cwd, b.data) for b in bots] if confined else []
    players = [PlayerResult(index=i, name=b.name, command=b.command_line()) for i, b in enumerate(bots)]
    procs: list[BotProcess | None] = []
    result = MatchResult(
        game=ref.name, seed=seed, players=players, outcome=None, sandboxed=confined, metadata=ref.metadata()
    )
    result.time_scale, result.time_margin_ms = options.time_scale, options.time_margin_ms
    if options.record:
        result.initial_snapshot = ref.snapshot()
    started = time.monotonic()
    eof_seen = [False] * len(bots)
    clock = TurnClock(ref.name, options.time_scale, not options.no_timeout)
    probe = options.lag_probe or SchedLagProbe()
    try:
        _start_bots(bots, options, files, players, procs)
        with clock:
            _play_turns(ref, procs, players, eof_seen, options, result, clock, on_frame, should_stop, probe)
        result.outcome = ref.outcome()
    except KeyboardInterrupt:
        result.interrupted = True
    finally:
        if isinstance(probe, SchedLagProbe):
            probe.close()
        try:
            with shielded(redeliver=not result.interrupted):
                _stop_bots(procs, players)
                result.wall_s = time.monotonic() - started
        except KeyboardInterrupt:  # Ctrl-C during the clean-up of an ended game: its result is kept
            result.interrupted = True
    return result


def _play_turns(
    ref: referee.Referee,
    procs: Sequence[BotProcess | None],
    players: list[PlayerResult],
    eof_seen: list[bool],
    options: MatchOptions,
    result: MatchResult,
    clock: TurnClock,
    on_frame: Callable[[Frame], None] | None,
    should_stop: Callable[[], bool] | None,
    probe: LagProbe,
) -> None:
    """Play the turns until the game's end, each bounded by ``clock``."""
    want_snapshots = options.record or on_frame is not None
    while not ref.is_over:
        if should_stop is not None and should_stop():
            raise KeyboardInterrupt  # handled by play_match: the bots are killed, the result interrupted
        clock.turn = result.turns + 1
        executions, outputs = _execute_requests(ref, procs, players, eof_seen, options, probe)
        report = ref.apply(outputs)
        snapshot = ref.snapshot() if want_snapshots else None
        clock.turn = None
        result.turns = report.turn
        _take_report(report, procs, players, eof_seen)
        if not want_snapshots:  # nobody looks at the frames
            continue
        judged = tuple(Judgement(d.player, players[d.player].verdict, players[d.player].message)
                       for d in report.deactivations)  # fmt: skip
        frame = Frame(report.turn, tuple(executions), report, snapshot, judged)
        if options.record:
            result.frames.append(frame)
        if on_frame is not None:
            on_frame(frame)


def _start_bots(
    bots: Sequence[BotSpec],
    options: MatchOptions,
    files: list[sandbox.BotFiles],
    players: list[PlayerResult],
    procs: list[BotProcess | None],
) -> None:
    """Start each bot (in its sandbox when ``files``, the bots' files, are given), appending its
    process to ``procs`` as it starts (``None`` for a bot that cannot start, whose player is then
    a crash), so that an interrupted start still kills those already running."""
    for i, spec in enumerate(bots):
        own, others = (files[i], files[:i] + files[i + 1 :]) if files else (None, [])
        process = bot_process(spec, f"{i}-{spec.name}", options, own, others)
        procs.append(process)  # before it starts: an interrupted start still kills it
        try:
            process.start()
        except BotStartError as exc:
            procs[-1] = None
            players[i].verdict = Verdict.CRASH
            players[i].message = f"failed to start: {exc}"


def bot_process(
    spec: BotSpec,
    name: str,
    options: MatchOptions,
    own: sandbox.BotFiles | None = None,
    others: Sequence[sandbox.BotFiles] = (),
) -> BotProcess:
    """The process of the bot ``spec``, not started, under the limits of ``options``: in the
    sandbox when its files ``own`` are given (its opponents' files ``others`` and the paths
    ``options.hide`` hidden from it)."""
    mb, wrapper, env = options.memory_limit_mb, [], spec.full_env()
    if own is not None:
        wrapper = sandbox.confine(spec.argv, spec.cwd, spec.env, own=own, others=others, hide=options.hide, tmp_mb=mb)
        env = None  # bwrap clears it and sets the bot's own
    return BotProcess(
        spec.argv, cwd=spec.cwd, env=env, memory_limit_mb=mb, task_limit=options.task_limit, name=name, wrapper=wrapper
    )


def _execute_requests(
    ref: referee.Referee,
    procs: Sequence[BotProcess | None],
    players: list[PlayerResult],
    eof_seen: list[bool],
    options: MatchOptions,
    probe: LagProbe,
) -> tuple[list[Execution], dict[int, tuple[str, ...] | None]]:
    """Run the executions of one frame, in the engine's order: the executions (when recording)
    and the answers to give the referee, by player."""
    executions = []
    outputs: dict[int, tuple[str, ...] | None] = {}
    for req in ref.requests():
        proc = procs[req.player]
        answer, elapsed, status = _execute(req, proc, players[req.player], eof_seen, options, probe)
        if req.expected_lines:
            outputs[req.player] = answer
        if options.record:
            executions.append(
                Execution(
                    player=req.player,
                    input=req.lines,
                    expected_lines=req.expected_lines,
                    time_limit_ms=applied_limit(req.time_limit_ms, options.time_scale),
                    output=answer,
                    time_ms=None if elapsed is None else round(elapsed, 3),
                    status=status,
                    stderr=proc.take_turn_stderr() if proc else "",
                )
            )
    return executions, outputs


def _execute(
    req: referee.Request,
    proc: BotProcess | None,
    player: PlayerResult,
    eof_seen: list[bool],
    options: MatchOptions,
    probe: LagProbe,
) -> tuple[tuple[str, ...] | None, float | None, str]:
    """One execution: write the input, read the expected lines within the time limit. Returns
    (the answer or None, elapsed ms, status); counts the answer's latency for ``player``."""
    applied_ms = req.time_limit_ms * options.time_scale
    limit_s = None if options.no_timeout else (applied_ms + options.time_margin_ms) / 1000
    answer: tuple[str, ...] | None = None
    elapsed: float | None = None
    status = "sent"
    if proc is None:
        status = "not started"
    elif not proc.send(req.lines, None if limit_s is None else time.monotonic() + limit_s) and not (
        proc.input_closed and req.expected_lines
    ):
        status = "input refused"
        eof_seen[req.player] = True
    elif req.expected_lines:  # a bot that closed its input is read too: it exited (eof), whenever it did
        window = None if limit_s is None else probe.open(_watched(proc, player))
        answer, elapsed, got = proc.read_lines(req.expected_lines, limit_s)  # one deadline for all the lines
        status = got.value
        if got is ReadStatus.TIMEOUT and window is not None and limit_s is not None and elapsed is not None:
            player.load = window.close(late_ms=max(0.0, elapsed - limit_s * 1000))
            player.overloaded = player.load.overloaded(applied_ms)
        if answer is not None and proc.limit_breach(thorough=False) is not None:
            # Past a limit before it answered (the watchdog looks only every few
            # milliseconds, a short game can end first): killed, the answer void.
            answer, status = None, LIMIT_STATUS
        if answer is not None and elapsed is not None:
            player.latencies_ms.append(elapsed)
            player.fractions.append(elapsed / applied_ms if applied_ms > 0 else 0.0)
        elif got is ReadStatus.EOF:
            eof_seen[req.player] = True
    return answer, elapsed, status


def _watched(proc: BotProcess, player: PlayerResult) -> tuple[int, ...]:
    """The processes whose run-queue wait measures the bot's scheduling lag: the bot's own; in
    the sandbox, the wrapper's tree as it stood at the bot's first answer (looked up once)."""
    if player.watched is None and (not proc.wrapper or player.latencies_ms):
        player.watched = tuple(proc.tree()) if proc.wrapper else (() if proc.pid is None else (proc.pid,))
    return player.watched if player.watched is not None else (() if proc.pid is None else (proc.pid,))


def _take_report(
    report: FrameReport, procs: Sequence[BotProcess | None], players: list[PlayerResult], eof_seen: list[bool]
) -> None:
    """Count the actions the referee refused, judge and kill the players it deactivated."""
    for player, _message in report.errors:
        players[player].refused += 1
    for d in report.deactivations:
        _judge(players[d.player], d.cause, d.reason, procs[d.player], eof_seen[d.player])
        proc = procs[d.player]
        if proc is not None:
            players[d.player].exit = proc.kill_tree()


def _stop_bots(procs: Sequence[BotProcess | None], players: list[PlayerResult]) -> None:
    """Kill every bot, all asked to stop at once and each then waited for; keep what the
    players' results need (exit, stderr)."""
    for proc in procs:
        if proc is not None:
            proc.terminate()  # all at once; each is then waited for
    for i, proc in enumerate(procs):
        if proc is not None:
            exit_info = proc.kill_tree()
            if players[i].verdict is not Verdict.OK and players[i].exit.returncode is None:
                players[i].exit = exit_info
            players[i].stderr_tail = proc.stderr_tail()
            players[i].stderr_bytes = proc.stderr_bytes


def _judge(
    player: PlayerResult,
    cause: DeactivationCause,
    reason: str,
    proc: BotProcess | None,
    eof: bool,
) -> None:
    if cause is DeactivationCause.INVALID_INPUT or cause is DeactivationCause.ELIMINATED:
        player.verdict = Verdict.INVALID if cause is DeactivationCause.INVALID_INPUT else Verdict.ELIMINATED
        player.message = reason
        return
    if proc is None:
        return  # already CRASH with the start error
    # A bot that died just after its deadline (e.g. out of memory) is a crash, not a slow bot.
    info = proc.wait_exit(0.2 if eof else 0.1)
    breach = proc.limit_breach()
    if breach is not None:
        player.verdict = Verdict.MEMORY if breach.kind is BreachKind.MEMORY else Verdict.CRASH
        player.message = f"no answer: {breach}"
        return
    if eof or info.returncode is not None or proc.output_closed():
        player.verdict = Verdict.CRASH
        how = (
            f"was killed by {info.signal}"
            if info.signal
            else f"exited with code {info.returncode}"
            if info.returncode is not None
            else "closed its output"
        )
        last = proc.last_stderr_line()
        player.message = f"no answer: the bot {how}" + (f" ({last})" if last else "")
    else:
        player.verdict = Verdict.TIMEOUT
        player.message = timeout_message(player.load, player.overloaded)
