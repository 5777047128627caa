# The bootstrap of a Python bot's fast start (see arena.match.launch.pystart). Its text, followed by a
# call of ``_cgarena_boot`` with literals computed by the arena, is compiled by the arena and run as
# ``python -u -S -c STUB CODE FILE ARGS...`` or ``... -c STUB CODE -m MODULE ARGS...``. It does what
# ``site`` does at a normal start, but for the ``import`` lines of ``.pth`` files (they run at the
# first failed import of a module their finders may provide), then runs the bot as ``python -u
# FILE`` or ``python -u -m MODULE`` would. Only modules loaded before ``site`` are used (``sys``,
# ``posix``, ``builtins``, importlib's frozen core): importing ``os`` alone costs more than the
# whole rest. No module-level names besides the functions, all named ``_cgarena_*`` (nor ``from
# __future__``, an import): this runs in the bot's ``__main__``, and ``_cgarena_boot`` deletes them
# all before the bot's code runs, calling the others through local names. Each imports what it
# uses: nothing of the arena, this text must stand alone.


def _cgarena_boot(
    exe: str,
    module: bool,
    target: str,
    path0: str,
    front: tuple[str, ...],
    dirs: tuple[str, ...],
    hooks: tuple[tuple[str, str], ...],
    claims: tuple[str, ...] | None,
    env: tuple[tuple[bytes, bytes | None], ...],
    custom: tuple[str, ...],
) -> None:
    """``target``: the script (absolute) or the module; ``path0``: the script's folder
    (``sys.path[0]``); ``front``: what the ``.pth`` import lines put before the interpreter's
    own entries; ``dirs``: what ``site`` appends to ``sys.path``; ``hooks``: the ``.pth``
    files with import lines, in the order ``site`` reads them (site dir, file name);
    ``claims``: the top-level modules their finders may provide (``None``: any); ``env``: the
    variables ``dirs`` depend on, with their value (``None``: unset); ``custom``:
    ``sitecustomize``/``usercustomize`` when they exist."""
    import posix
    import sys

    site_path, pth_hooks, site_builtins = _cgarena_site_path, _cgarena_pth_hooks, _cgarena_site_builtins
    _admit = _cgarena_admit
    run_module, run_script = _cgarena_run_module, _cgarena_run_script
    main = sys.modules["__main__"].__dict__
    for name in [name for name in main if name.startswith("_cgarena_")]:
        del main[name]
    main["__doc__"] = None
    argv = sys.argv
    del argv[0]  # "-c"
    admission = argv.pop(0)
    if admission:
        _admit(admission)
    if any(posix.environ.get(name) != value for name, value in env):
        posix.execv(exe, [exe, "-u", *argv])  # not the environment the layout is for: start normally

    path = sys.path
    site_path(path, front, dirs)
    if hooks:
        pth_hooks(hooks, claims)
    site_builtins(custom)
    if not sys.flags.safe_path:
        path.insert(0, posix.getcwd() if module else path0)

    try:
        if module:
            del argv[0]  # "-m"
            name = argv[0]
            argv[0] = "-m"
            run_module(name, main, argv)
        else:
            run_script(target, main)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:  # shown as Python shows it: without the frames of this bootstrap
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in ("<string>", "<cgarena-boot>"):
            tb = tb.tb_next
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        raise SystemExit(1) from None


def _cgarena_admit(admission: str) -> None:
    """What the arena's launcher would do before the bot runs (see
    ``arena.match.process.plumbing.admission_text``), given one per line: the parent's PID, the
    address-space limit in KiB, each cgroup's ``cgroup.procs`` file. Exit unless the parent is
    still that one (when given), limit the address space (when given; ``resource`` is imported
    only then), join each cgroup (writing ``0``). A step that fails ends the process with the
    launcher's code, 125, and says why on stderr."""
    import posix
    import sys

    parent, kb, *procs = admission.split("\n")
    if parent and posix.getppid() != int(parent):
        posix._exit(125)
    try:
        if kb:
            import resource

            limit = int(kb) * 1024
            resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
        for where in filter(None, procs):
            fd = posix.open(where, posix.O_WRONLY)
            try:
                posix.write(fd, b"0")
            finally:
                posix.close(fd)
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"arena-launch: the bot could not be put under its limits: {exc}\n")
        sys.stderr.flush()
        posix._exit(125)


def _cgarena_site_path(path: list[str], front: tuple[str, ...], dirs: tuple[str, ...]) -> None:
    """``sys.path`` (``path``) as ``site`` leaves it, but for the script's folder: without the
    ``""`` of ``-c``, absolute, without duplicates, ``front`` (those that exist) put before
    it, then ``dirs`` (those that exist) appended."""
    import posix
    import sys

    if not sys.flags.safe_path:
        del path[0]  # the "" of -c
    if len(set(path)) != len(path) or any(
        not p.startswith("/") or "//" in p or "/./" in p + "/" or "/../" in p + "/" or (p.endswith("/") and p != "/")
        for p in path
    ):
        import os  # site's removeduppaths: absolute, without duplicates

        path[:] = list(dict.fromkeys(os.path.abspath(p) for p in path))

    def exists(d: str) -> bool:
        try:
            posix.stat(d)
        except OSError:
            return False
        return True

    ahead = [d for d in dict.fromkeys(front) if d not in path and exists(d)]
    for d in dirs:
        if d not in path and d not in ahead and exists(d):
            path.append(d)
    path[:0] = ahead


def _cgarena_pth_hooks(hooks: tuple[tuple[str, str], ...], claims: tuple[str, ...] | None) -> None:
    """Put the finder that runs the import lines of the ``.pth`` files ``hooks`` last on
    ``sys.meta_path``. The files are read then, not passed in: their lines may be long (namespace
    packages' lines), and a command's argument has a size limit."""
    import sys

    meta: list[object] = sys.meta_path  # type: ignore[assignment]

    class PthHooks:
        """Runs the ``.pth`` import lines at the first import nothing else finds, then asks the
        finders they installed (``site`` would have run them at the start)."""

        @staticmethod
        def find_spec(name: str, where: object = None, target: object = None) -> object:
            if PthHooks not in meta or (claims is not None and name.partition(".")[0] not in claims):
                return None
            meta.remove(PthHooks)
            names: dict[str, object] = {}
            for sitedir, pth in hooks:  # "sitedir": read by some lines (*-nspkg.pth)
                try:
                    with open(f"{sitedir}/{pth}", "rb") as file:
                        data = file.read()
                except OSError:
                    continue
                try:
                    text = data.decode("utf-8-sig")
                except UnicodeDecodeError:
                    import locale

                    text = data.decode(locale.getencoding(), "replace")
                for line in text.splitlines():
                    if not line.startswith(("import ", "import\t")):
                        continue
                    try:
                        exec(line, names)
                    except Exception as exc:
                        error = f"{type(exc).__name__}: {exc}"
                        sys.stderr.write(f"Error processing {sitedir}/{pth}: {error}\nRemainder of file ignored\n")
                        break
            for finder in list(sys.meta_path):
                find = getattr(finder, "find_spec", None)
                spec = find(name, where, target) if find is not None else None
                if spec is not None:
                    return spec
            return None

    meta.append(PthHooks)


def _cgarena_site_builtins(custom: tuple[str, ...]) -> None:
    """``quit``, ``exit`` and ``help`` as ``site`` defines them, then the ``custom`` modules
    (``sitecustomize``, ``usercustomize``) imported as ``site.execsitecustomize`` does."""
    import _sitebuiltins
    import builtins
    import sys

    builtins.quit = _sitebuiltins.Quitter("quit", "Ctrl-D (i.e. EOF)")
    builtins.exit = _sitebuiltins.Quitter("exit", "Ctrl-D (i.e. EOF)")
    builtins.help = _sitebuiltins._Helper()
    for name in custom:  # as site.execsitecustomize does
        try:
            try:
                __import__(name)
            except ImportError as exc:
                if exc.name != name:
                    raise
        except Exception as err:
            if sys.flags.verbose:
                sys.excepthook(*sys.exc_info())
            else:
                sys.stderr.write(f"Error in {name}; set PYTHONVERBOSE for traceback:\n{type(err).__name__}: {err}\n")


def _cgarena_run_module(name: str, main: dict[str, object], argv: list[str]) -> None:
    """``runpy._run_module_as_main`` for a module found the plain way; runpy itself (whose
    import costs a dozen milliseconds) for everything else, with its messages."""
    import sys

    bootstrap = sys.modules["_frozen_importlib"]
    mod = name
    spec = None
    while not mod.startswith("."):
        parent = mod.rpartition(".")[0]
        where = None
        if parent:
            __import__(parent)
            where = getattr(sys.modules[parent], "__path__", None)
            if where is None or mod in sys.modules:
                break
        found = bootstrap._find_spec(mod, where)
        if found is None or found.loader is None:
            break
        if found.submodule_search_locations is None:
            spec = found
            break
        if mod == "__main__" or mod.endswith(".__main__"):
            break
        mod += ".__main__"
    code = None
    if spec is not None:
        try:
            code = spec.loader.get_code(mod)
        except ImportError:
            code = None
    if spec is None or code is None:
        import runpy

        runpy._run_module_as_main(name)  # type: ignore[attr-defined]
        return
    argv[0] = spec.origin
    main.update(
        __name__="__main__",
        __file__=spec.origin,
        __cached__=spec.cached,
        __doc__=None,
        __loader__=spec.loader,
        __package__=spec.parent,
        __spec__=spec,
    )
    exec(code, main)


def _cgarena_run_script(target: str, main: dict[str, object]) -> None:
    """Run the script ``target`` in ``main`` as ``python FILE`` does."""
    import sys

    external = sys.modules["_frozen_importlib_external"]
    main.update(__file__=target, __cached__=None, __loader__=external.SourceFileLoader("__main__", target))
    with open(target, "rb") as source:
        code = compile(source.read(), target, "exec", dont_inherit=True)
    exec(code, main)
