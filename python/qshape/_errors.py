"""The exceptions the package raises: every one derives from ``qshape.Error``.

Each also derives from the built-in exception a caller would otherwise
expect (``ValueError`` for a bad value, ``TypeError`` for a bad type,
``FileNotFoundError`` for a missing file), so ``except ValueError`` written
before ``qshape.Error`` existed still catches what it caught.
"""


class Error(Exception):
    """Base class of every exception qshape raises: ``except qshape.Error`` catches them all."""


class QShapeNotFound(Error, FileNotFoundError):
    """No qshape prefix, or a file missing from the one found."""


class InputNotFound(Error, FileNotFoundError):
    """A program given as a path names no file."""


class ArgumentError(Error, ValueError):
    """An argument of a qshape function has a value it cannot take."""


class ArgumentTypeError(Error, TypeError):
    """An argument of a qshape function has a type it cannot take."""


class ToolError(Error, ValueError):
    """A qshape tool rejected its input; the message carries the tool's diagnostics."""


class CompileError(ToolError):
    """qshape-compile failed; the message names the input and carries its diagnostics."""


class RunError(Error, RuntimeError):
    """qshape-run failed (a run-time error of the program, or a bad library)."""
