"""Section `sim`: the state-vector simulator's throughput (qshape-sim-bench)."""
import os
import re
import subprocess

from benchlib import Section

LINE = re.compile(r"(\d+) qubits, (\d+) layers, (\d+) gates in ([0-9.]+) s: ([0-9.]+) M "
                  r"amplitude-updates/s")


def run(ctx):
    sec = Section(
        ["sim-bench"],
        "A 20-qubit circuit of 10 layers of RX/RY on every wire and a CNOT ladder "
        "(`bench/sim_bench.cpp`).",
        "`qshape-sim-bench`, one run; an amplitude-update is one amplitude touched by one gate "
        "(the state is 16 MiB: the rate is bound by memory).")
    out = subprocess.run([os.path.join(ctx.bindir, "qshape-sim-bench")], capture_output=True,
                         text=True, check=True).stdout.strip()
    m = LINE.search(out)
    t = sec.table(["qubits", "layers", "gates", "time (s)", "M amplitude-updates/s"], "rrrrr")
    t.add(*m.groups())
    sec.raw = {"output": out, "qubits": int(m.group(1)), "gates": int(m.group(3)),
               "seconds": float(m.group(4)), "m_updates_per_s": float(m.group(5))}
    return sec
