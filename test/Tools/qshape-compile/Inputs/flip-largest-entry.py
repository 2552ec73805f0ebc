"""Flips one byte near the end of the largest file in a cache directory (the
library entry: its payload is the library), as a disk or an attacker might."""
import os
import sys

files = [os.path.join(d, f) for d, _, fs in os.walk(sys.argv[1]) for f in fs]
entry = max(files, key=os.path.getsize)
with open(entry, "r+b") as f:
    f.seek(-100, os.SEEK_END)
    byte = f.read(1)
    f.seek(-100, os.SEEK_END)
    f.write(bytes([byte[0] ^ 0xFF]))
print(f"flipped a byte of {os.path.relpath(entry, sys.argv[1])}")
