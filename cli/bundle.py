"""The ``bundle`` command line: it parses the options, runs :func:`bundler.steps.make` (or
:func:`bundler.steps.watch`) and says what each step did."""

from __future__ import annotations

import os
import shlex
import sys
import traceback
from pathlib import Path

import click

from arena.match.sandbox import SandboxMode, SandboxUnavailable, decide
from bundler.build import MODES, BuildOptions, Bundle
from bundler.errors import BundleError, InternalError
from bundler.output import clipboard_tool
from bundler.size import LIMIT, WARN_AT
from bundler.steps import (
    NO_CLIPBOARD,
    Built,
    Changed,
    Copied,
    Event,
    Failed,
    Outputs,
    ToStdout,
    Verified,
    Watching,
    Written,
    make,
    watch,
)
from bundler.verify import DEFAULT_TIME_SCALE

from .botoptions import env_option
from .common import bundle_says, plural, shown


def _seeds(text: str | None, games: int) -> list[int]:
    if text:
        try:
            return [int(s) for s in text.replace(",", " ").split()]
        except ValueError:
            raise click.BadParameter("a comma-separated list of integers", param_hint="--seeds") from None
    return list(range(1, games + 1))


def _describe(bundle: Bundle) -> str:
    modules = plural(len(bundle.size.modules), "module")
    return f"{bundle.mode} mode, {modules}, {bundle.size.total:,} of {LIMIT:,} characters"


def _render(event: Event, check: bool) -> None:
    """What one step did, in words (the bundle itself on standard output)."""
    if isinstance(event, Built):
        bundle = event.bundle
        if bundle.fallback_reasons:
            bundle_says("flat mode is not safe here, so the bundle uses modules mode:")
            for reason in bundle.fallback_reasons:
                click.echo(f"  - {reason}", err=True)
        if check:
            for line in bundle.size.lines():
                click.echo(line)
        if bundle.size.near_limit and not bundle.size.over_limit:
            total = bundle.size.total
            bundle_says(
                f"warning: {total:,} characters, close to CodinGame's {LIMIT:,} limit (warning above {WARN_AT:,})"
            )
    elif isinstance(event, Written):
        bundle_says(f"wrote {event.path} ({_describe(event.bundle)})")
    elif isinstance(event, ToStdout):
        sys.stdout.write(event.bundle.text)
        sys.stdout.flush()
    elif isinstance(event, Copied):
        bundle_says(f"copied to the clipboard with {event.tool} ({_describe(event.bundle)})")
    elif isinstance(event, Verified):
        answers = sum(g.answers for g in event.games)
        seeds = ", ".join(str(g.seed) for g in event.games)
        bundle_says(
            f"verified on {event.game}: {plural(len(event.games), 'game')} (seeds {seeds}), "
            f"{answers} answers identical to the source bot"
        )
    elif isinstance(event, Failed):
        bundle_says(f"error: {shown(str(event.error))}")
    elif isinstance(event, Watching):
        bundle_says(f"watching {plural(event.files, 'file')} (Ctrl-C to stop)")
    elif isinstance(event, Changed):
        bundle_says(f"changed: {', '.join(event.names)}; rebuilding")


def _check_sandbox(mode: str) -> None:
    """``--sandbox on`` where bots cannot be sandboxed: a usage error before any work."""
    try:
        decide(mode)
    except SandboxUnavailable as exc:
        raise click.UsageError(str(exc)) from None


def _link(cg_local: bool, play: bool, backup: Path | None) -> tuple[int, Path, bool] | None:
    """``--cg-local``'s port, backup folder and play flag (``None`` without it), or a usage error."""
    if not cg_local:
        for given, name in ((play, "--play"), (backup is not None, "--ide-backup")):
            if given:
                raise click.UsageError(f"{name} is only used with --cg-local")
        return None
    try:
        from bundler.cglocal import CGLocalError, port_from_env
    except ImportError:  # websockets missing, or too old for its threading API
        raise click.UsageError("--cg-local needs the websockets package: pip install 'cgarena[cglocal]'") from None

    try:
        return port_from_env(os.environ), backup or Path("cg-local-backups"), play
    except CGLocalError as exc:
        raise click.UsageError(str(exc)) from None


@click.command(context_settings={"help_option_names": ["-h", "--help"], "show_default": True})
@click.version_option(package_name="cgarena", prog_name="bundle")
@click.argument("entry", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the bundle here (atomically). Default: standard output, unless --check, --copy, --verify "
    "or --cg-local is given.",
)
@click.option(
    "--lib",
    "libs",
    multiple=True,
    type=click.Path(path_type=Path),
    help="A directory whose packages may be inlined (a shared library); repeatable.",
)
@click.option(
    "--mode",
    type=click.Choice(MODES),
    default=None,
    help="flat: one flattened module, fail if that is not safe; modules: embedded modules "
    "loaded from memory. Default: flat, falling back to modules with the reason.",
)
@click.option("--strip-comments", is_flag=True, help="Remove comments.")
@click.option("--strip-docstrings", is_flag=True, help="Remove docstrings.")
@click.option("--check", is_flag=True, help="Print the size of each module and the total.")
@click.option(
    "--watch", "watch_files", is_flag=True, help="Rebuild whenever an input file changes (needs -o, or --cg-local)."
)
@click.option(
    "--verify",
    "verify_game",
    metavar="GAME",
    default=None,
    help="Play GAME with the source bot and with the bundle; every answer must match.",
)
@click.option("--seeds", default=None, metavar="LIST", help="Seeds for --verify (e.g. 1,2,3).")
@click.option(
    "--games",
    type=click.IntRange(1),
    default=2,
    show_default=True,
    help="Games for --verify when --seeds is not given (seeds 1..N).",
)
@click.option(
    "--opponent", default=None, metavar="BOT", help="The opponent for --verify (default: the source bot itself)."
)
@click.option(
    "--bot-args",
    default="",
    show_default="none",
    metavar="ARGS",
    help="Arguments for both the source bot and the bundle during --verify, e.g. "
    "'--budget 2000' for a bot that is deterministic only with a fixed budget.",
)
@click.option(
    "--time-scale",
    type=click.FloatRange(min=0, min_open=True),
    default=DEFAULT_TIME_SCALE,
    show_default=True,
    help="Multiplies the time limits during --verify.",
)
@click.option(
    "--sandbox",
    "sandbox_mode",
    type=click.Choice([m.value for m in SandboxMode]),
    default="auto",
    show_default=True,
    help="Run the bots of --verify in a bubblewrap sandbox: auto (where it works), on (or fail), off, as arena play.",
)
@env_option("the source bot and the bundle during --verify")
@click.option("--copy", is_flag=True, help="Put the bundle on the clipboard.")
@click.option(
    "--cg-local",
    is_flag=True,
    help="Send the bundle to the CodinGame IDE through the CG Local browser extension (once, or after "
    "every good rebuild with --watch); see docs/cg-local.md.",
)
@click.option("--play", is_flag=True, help="With --cg-local: ask the IDE to play each bundle sent.")
@click.option(
    "--ide-backup",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    show_default="cg-local-backups",
    help="With --cg-local: the folder where the IDE's code is saved before the first push.",
)
def main(
    entry: Path,
    output: Path | None,
    libs: tuple[Path, ...],
    mode: str | None,
    strip_comments: bool,
    strip_docstrings: bool,
    check: bool,
    watch_files: bool,
    verify_game: str | None,
    seeds: str | None,
    games: int,
    opponent: str | None,
    bot_args: str,
    time_scale: float,
    sandbox_mode: str,
    env: dict[str, str],
    copy: bool,
    cg_local: bool,
    play: bool,
    ide_backup: Path | None,
) -> None:
    """Turn the bot ENTRY (its main .py file, or its package directory) into the single file
    CodinGame accepts."""
    options = BuildOptions(entry, tuple(libs), mode, strip_comments, strip_docstrings)
    try:
        args = tuple(shlex.split(bot_args))
    except ValueError as exc:
        raise click.BadParameter(f"{bot_args!r}: {exc}", param_hint="--bot-args") from None
    if args and not verify_game:
        raise click.UsageError("--bot-args is only used with --verify")
    outputs = Outputs(
        output, check, copy, verify_game, _seeds(seeds, games), opponent, time_scale, args, sandbox_mode, env, cg_local
    )
    if verify_game:
        _check_sandbox(sandbox_mode)
    if watch_files and output is None and not cg_local:
        raise click.UsageError("--watch needs -o/--output (or --cg-local)")
    if copy and clipboard_tool() is None:
        raise click.UsageError(NO_CLIPBOARD)
    link = _link(cg_local, play, ide_backup)
    try:
        if link is not None:
            from .cglocal import serve

            serve(options, outputs, watch_files, link, lambda event: _render(event, check))
        else:
            for event in watch(options, outputs) if watch_files else make(options, outputs):
                _render(event, check)
    except BundleError as exc:  # --verify quotes a failing bot's message (its stderr)
        bundle_says(f"error: {shown(str(exc))}{'; nothing was sent to the IDE' if cg_local else ''}")
        sys.exit(1)
    except KeyboardInterrupt:
        bundle_says("stopped" if watch_files else "interrupted")
        sys.exit(0 if watch_files else 130)
    except Exception as exc:  # a bug of ours: say so, and give the traceback a report needs
        bundle_says(f"error: {InternalError(f'{type(exc).__name__}: {exc}')}")
        traceback.print_exc()
        sys.exit(3)
