# The bootstrap of a Python bot's fast start (see arena.match.pystart). Its text, followed by a
# call of ``_cgarena_boot`` with literals computed by the arena, is compiled by the arena and run as
# ``python -u -S -c STUB CODE FILE ARGS...`` or ``... -c STUB CODE -m MODULE ARGS...``. It does what
# ``site`` does at a normal start, but for the ``import`` lines of ``.pth`` files (they run at the
# first failed import of a module their finders may provide), then runs the bot as ``python -u
# FILE`` or ``python -u -m MODULE`` would. Only modules loaded before ``site`` are used (``sys``,
# ``posix``, ``builtins``, importlib's frozen core): importing ``os`` alone costs more than the
# whole rest. No module-level names besides the function (nor ``from __future__``, an import): this
# runs in the bot's ``__main__``, and the function deletes itself before the bot's code runs.


def _cgarena_boot(
    exe: str,
    module: bool,
    target: str,
    path0: str,
    dirs: tuple[str, ...],
    hooks: tuple[tuple[str, str, str], ...],
    claims: tuple[str, ...] | None,
    env: tuple[tuple[bytes, bytes | None], ...],
    custom: tuple[str, ...],
) -> None:
    """``target``: the script (absolute) or the module; ``path0``: the script's folder
    (``sys.path[0]``); ``dirs``: what ``site`` appends to ``sys.path``; ``hooks``: the ``.pth``
    import lines (site dir, file, line); ``claims``: the top-level modules their finders may
    provide (``None``: any); ``env``: the variables ``dirs`` depend on, with their value
    (``None``: unset); ``custom``: ``sitecustomize``/``usercustomize`` when they exist."""
    import builtins
    import posix
    import sys

    main = sys.modules["__main__"].__dict__
    del main["_cgarena_boot"]
    main["__doc__"] = None
    argv = sys.argv
    del argv[0]  # "-c"
    if any(posix.environ.get(name) != value for name, value in env):
        posix.execv(exe, [exe, "-u", *argv])  # not the environment the layout is for: start normally

    path = sys.path
    if not sys.flags.safe_path:
        del path[0]  # the "" of -c
    if len(set(path)) != len(path) or any(
        not p.startswith("/") or "//" in p or "/./" in p + "/" or "/../" in p + "/" or (p.endswith("/") and p != "/")
        for p in path
    ):
        import os  # site's removeduppaths: absolute, without duplicates

        path[:] = list(dict.fromkeys(os.path.abspath(p) for p in path))
    for d in dirs:
        if d not in path:
            try:
                posix.stat(d)
            except OSError:
                continue
            path.append(d)

    if hooks:
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
                failed = None
                for sitedir, pth, line in hooks:  # "sitedir": read by some lines (*-nspkg.pth)
                    if pth == failed:
                        continue
                    try:
                        exec(line, names)
                    except Exception as exc:
                        failed = pth
                        sys.stderr.write(
                            f"Error processing {sitedir}/{pth}: {type(exc).__name__}: {exc}\n"
                            f"Remainder of file ignored\n"
                        )
                for finder in list(sys.meta_path):
                    find = getattr(finder, "find_spec", None)
                    spec = find(name, where, target) if find is not None else None
                    if spec is not None:
                        return spec
                return None

        meta.append(PthHooks)

    import _sitebuiltins

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

    if not sys.flags.safe_path:
        path.insert(0, posix.getcwd() if module else path0)

    def run_module(name: str) -> None:
        """``runpy._run_module_as_main`` for a module found the plain way; runpy itself (whose
        import costs a dozen milliseconds) for everything else, with its messages."""
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

    try:
        if module:
            del argv[0]  # "-m"
            name = argv[0]
            argv[0] = "-m"
            run_module(name)
        else:
            external = sys.modules["_frozen_importlib_external"]
            main.update(__file__=target, __cached__=None, __loader__=external.SourceFileLoader("__main__", target))
            with open(target, "rb") as source:
                code = compile(source.read(), target, "exec", dont_inherit=True)
            exec(code, main)
    except (SystemExit, KeyboardInterrupt):
        raise
    except BaseException as exc:  # shown as Python shows it: without the frames of this bootstrap
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename in ("<string>", "<cgarena-boot>"):
            tb = tb.tb_next
        sys.excepthook(type(exc), exc.with_traceback(tb), tb)
        raise SystemExit(1) from None
