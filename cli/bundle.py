"""The ``bundle`` command line: the only place that prints."""

from __future__ import annotations

import shlex
import sys
import tempfile
import time
import traceback
from dataclasses import dataclass
from pathlib import Path

import click

from bundler.build import MODES, BuildOptions, Bundle, build
from bundler.errors import BundleError, InternalError, OutputError, SizeLimitError
from bundler.output import CLIPBOARD_TOOLS, clipboard_tool, copy_to_clipboard, write_atomic
from bundler.size import LIMIT, WARN_AT
from bundler.verify import DEFAULT_TIME_SCALE, bundle_bot, source_bot, verify

POLL_SECONDS = 0.3


def _say(message: str) -> None:
    click.echo(f"bundle: {message}", err=True)


def _seeds(text: str | None, games: int) -> list[int]:
    if text:
        try:
            return [int(s) for s in text.replace(",", " ").split()]
        except ValueError:
            raise click.BadParameter("a comma-separated list of integers", param_hint="--seeds") from None
    return list(range(1, games + 1))


def _describe(bundle: Bundle) -> str:
    return (
        f"{bundle.mode} mode, {len(bundle.size.modules)} module"
        f"{'s' if len(bundle.size.modules) != 1 else ''}, {bundle.size.total:,} of {LIMIT:,} characters"
    )


@dataclass(frozen=True)
class _Settings:
    """What to do with each bundle made."""

    output: Path | None
    check: bool
    copy: bool
    verify_game: str | None
    seeds: list[int]
    opponent: str | None
    time_scale: float
    bot_args: tuple[str, ...] = ()


def _once(options: BuildOptions, settings: _Settings, inputs: list[Path]) -> Bundle:
    output, check, copy = settings.output, settings.check, settings.copy
    verify_game, seeds, opponent = settings.verify_game, settings.seeds, settings.opponent
    time_scale = settings.time_scale
    bundle = build(options, inputs)
    if bundle.fallback_reasons:
        _say("flat mode is not safe here, so the bundle uses modules mode:")
        for reason in bundle.fallback_reasons:
            click.echo(f"  - {reason}", err=True)
    if check:
        for line in bundle.size.lines():
            click.echo(line)
    if bundle.size.over_limit:
        raise SizeLimitError(
            f"{bundle.size.total:,} characters, over CodinGame's {LIMIT:,} limit "
            f"(nothing written; --check shows each module's share)"
        )
    if bundle.size.near_limit:
        _say(
            f"warning: {bundle.size.total:,} characters, close to CodinGame's {LIMIT:,} limit "
            f"(warning above {WARN_AT:,})"
        )
    if output is not None:
        if output.resolve() in {p.resolve() for p in bundle.inputs}:
            raise OutputError(f"{output}: is one of the bot's own source files; not overwriting it")
        write_atomic(output, bundle.text)
        _say(f"wrote {output} ({_describe(bundle)})")
    elif not (check or copy or verify_game):
        sys.stdout.write(bundle.text)
        sys.stdout.flush()
    if copy:
        tool = copy_to_clipboard(bundle.text)
        if tool is None:
            raise OutputError(_NO_CLIPBOARD)
        _say(f"copied to the clipboard with {tool} ({_describe(bundle)})")
    if verify_game:
        _verify(bundle, options, output, verify_game, seeds, opponent, time_scale, settings.bot_args)
    return bundle


def _verify(
    bundle: Bundle,
    options: BuildOptions,
    output: Path | None,
    game: str,
    seeds: list[int],
    opponent: str | None,
    time_scale: float,
    bot_args: tuple[str, ...] = (),
) -> None:
    source = source_bot(bundle.entry_point, options.libs, bot_args)
    with tempfile.TemporaryDirectory(prefix="bundle-verify-") as tmp:
        path = output
        if path is None:
            path = Path(tmp) / "bundle.py"
            write_atomic(path, bundle.text)
        bundled = bundle_bot(path, bot_args)
        games = verify(game, source, bundled, opponent, seeds, time_scale)
    answers = sum(g.answers for g in games)
    _say(
        f"verified on {game}: {len(games)} game{'s' if len(games) != 1 else ''} (seeds "
        f"{', '.join(str(g.seed) for g in games)}), {answers} answers identical to the source bot"
    )


def _watch(options: BuildOptions, settings: _Settings) -> None:
    inputs: list[Path] = []

    def snapshot(paths: list[Path]) -> dict[Path, tuple[int, int] | None]:
        state: dict[Path, tuple[int, int] | None] = {}
        for p in paths:
            try:
                st = p.stat()
                state[p] = (st.st_mtime_ns, st.st_size)
            except OSError:
                state[p] = None
        return state

    def attempt() -> dict[Path, tuple[int, int] | None]:
        inputs.clear()
        try:
            _once(options, settings, inputs)
        except BundleError as exc:
            _say(f"error: {exc}")
        files = list(dict.fromkeys(p.resolve() for p in inputs + [Path(options.entry)]))
        folders = list(dict.fromkeys(p.parent for p in files))  # a file added or removed
        _say(f"watching {len(files)} file{'s' if len(files) != 1 else ''} (Ctrl-C to stop)")
        return snapshot(files + folders)

    state = attempt()
    while True:
        time.sleep(POLL_SECONDS)
        now = snapshot(list(state))
        if now != state:
            changed = [p.name for p in state if now.get(p) != state[p]]
            _say(f"changed: {', '.join(changed)}; rebuilding")
            state = attempt()


_NO_CLIPBOARD = (
    f"--copy: no clipboard tool found (install one of {', '.join(c[0] for c in CLIPBOARD_TOOLS)}), "
    "or write the bundle to a file with -o"
)


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="cgarena", prog_name="bundle")
@click.argument("entry", type=click.Path(path_type=Path))
@click.option(
    "-o",
    "--output",
    type=click.Path(path_type=Path),
    default=None,
    help="Write the bundle here (atomically). Default: standard output, unless --check, --copy or --verify is given.",
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
@click.option("--watch", is_flag=True, help="Rebuild whenever an input file changes (needs -o).")
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
@click.option("--copy", is_flag=True, help="Put the bundle on the clipboard.")
def main(
    entry: Path,
    output: Path | None,
    libs: tuple[Path, ...],
    mode: str | None,
    strip_comments: bool,
    strip_docstrings: bool,
    check: bool,
    watch: bool,
    verify_game: str | None,
    seeds: str | None,
    games: int,
    opponent: str | None,
    bot_args: str,
    time_scale: float,
    copy: bool,
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
    settings = _Settings(output, check, copy, verify_game, _seeds(seeds, games), opponent, time_scale, args)
    if watch and output is None:
        raise click.UsageError("--watch needs -o/--output")
    if copy and clipboard_tool() is None:
        raise click.UsageError(_NO_CLIPBOARD)
    try:
        if watch:
            _watch(options, settings)
        else:
            _once(options, settings, [])
    except BundleError as exc:
        _say(f"error: {exc}")
        sys.exit(1)
    except KeyboardInterrupt:
        _say("stopped" if watch else "interrupted")
        sys.exit(0 if watch else 130)
    except Exception as exc:  # a bug of ours: say so, and give the traceback a report needs
        _say(f"error: {InternalError(f'{type(exc).__name__}: {exc}')}")
        traceback.print_exc()
        sys.exit(3)
