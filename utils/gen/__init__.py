"""qshape's program generators: Catalyst-shaped MLIR for tests, fuzzers and
benchmarks (utils/gen/README.md).

Import with ``utils/`` on ``sys.path``::

    from gen import randcircuit, workloads, families

Each module is also a command-line script (``python3 utils/gen/workloads.py
--help``), which is how the lit tests call them.
"""

__all__ = ["families", "randcircuit", "workloads"]
