"""The ``arena`` command line. The only module of the arena that prints."""

from __future__ import annotations

import random
import sys

import click

import referee
from referee import selfplay

DEFAULT_GAME = "spring2021"


def _java_long(ctx: click.Context, param: click.Parameter, value: str | None) -> int | None:
    if value is None:
        return None
    try:
        seed = int(value, 0)
    except ValueError:
        raise click.BadParameter(f"{value!r} is not an integer (any Java long is accepted)") from None
    if not -(2**63) <= seed < 2**63:
        raise click.BadParameter(f"{seed} is outside the Java long range [-2^63, 2^63-1]")
    return seed


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cgarena")
def main() -> None:
    """Play CodinGame contest games locally, under the official rules."""


@main.command()
def games() -> None:
    """List the games (and their aliases)."""
    aliases = referee.aliases()
    for name in referee.names():
        cls = referee.get(name)
        extra = [a for a, target in aliases.items() if target == name]
        click.echo(f"{name:12} {cls.title}" + (f"  (also: {', '.join(extra)})" if extra else ""))


@main.command()
@click.argument("game", required=False, default=DEFAULT_GAME)
@click.option("--seed", callback=_java_long, help="Game seed, any Java long (random if omitted).")
@click.option("-v", "--verbose", is_flag=True, help="Print every frame's summary.")
def play(game: str, seed: int | None, verbose: bool) -> None:
    """Play one game of GAME (default: spring2021).

    Until bot processes are supported, both seats are played in-process by random legal
    players: a self-play demonstration of the referee.
    """
    try:
        cls = referee.get(game)
    except referee.UnknownGame as exc:
        raise click.UsageError(str(exc)) from None
    if seed is None:
        seed = random.SystemRandom().randrange(-(2**63), 2**63)
    ref = cls(seed, None)
    click.echo(f"{cls.title}: seed {seed} (random legal players, in-process)")
    rng = random.Random(seed)
    last_line = ""
    for report in selfplay.frames(ref, rng):
        if verbose:
            for line in report.summary:
                click.echo(f"  [{report.turn:3}] {line}")
        else:
            snap_line = " ".join(l for l in report.summary if l.startswith("Round") and "ends" in l)
            if snap_line and snap_line != last_line:
                click.echo(f"  turn {report.turn:3}  {snap_line:14} scores {ref.snapshot()['scores']}")
                last_line = snap_line
    outcome = ref.outcome()
    assert outcome is not None
    verdict = "draw" if outcome.winner is None else f"player {outcome.winner} wins"
    click.echo(
        f"result: {verdict}, scores {list(outcome.scores)}, {outcome.end_reason.value} "
        f"after {outcome.turns} turns"
    )
    click.echo(f"replay this game with: arena play {cls.name} --seed {seed}")


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
