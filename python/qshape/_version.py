# qshape's version: its one source. pip reads it (pyproject.toml) and so does
# the top-level CMakeLists.txt (project(qshape VERSION ...)).
__version__ = "0.1.0"
