"""The ``tabletally`` command line (INTERFACES.md "CLI").

Each package contributes its subcommands through a ``register(subparsers)`` function that adds
an ``argparse`` parser whose ``func(args) -> int`` runs it. Errors the user can fix are printed as
one line on stderr with exit 2 (usage/format) or 1 (some inputs failed); never a traceback.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

#: Modules providing ``register(subparsers)``, in the order their commands are listed.
COMMAND_MODULES: tuple[str, ...] = (
    "scorer.cli",  # score
    "vision.cli",  # detect
    "vision.replay",  # replay
    "calibration.cli",  # calibrate
    "webui.serve",  # serve
)


class CLIError(Exception):
    """A user-facing error: printed as one line, exits with ``code``."""

    def __init__(self, message: str, code: int = 2):
        super().__init__(message)
        self.code = code


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tabletally",
        description="Camera companion for table games: recognise Qwirkle tiles, track and score.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub.required = True
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name != name:  # a real missing dependency inside the module: surface it
                raise
            continue
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code = int(args.func(args) or 0)
    except CLIError as e:
        print(f"tabletally {args.command}: {e}", file=sys.stderr)
        return e.code
    except KeyboardInterrupt:
        print(f"tabletally {args.command}: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
