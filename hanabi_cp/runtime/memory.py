"""How much of the machine's memory is still available (Linux: ``/proc/meminfo``).

The real-rules search keeps every state it refutes; on a hard deal with a long
time limit its tables grow until the kernel's out-of-memory killer ends the
process, with no answer and no message (6 players, seed 1653: 24 GB after 15
minutes of the search alone).  The search asks ``short()`` now and then and stops
undecided instead, like at its time limit."""

from __future__ import annotations

# Stop when less than this share of the machine's memory is available: what is
# left is for the rest of the command (the SAT stages after the search, the
# referee's replay) and for the other processes of a sweep.
FLOOR = 0.10


def available() -> float | None:
    """The share of the machine's memory available now, or None where it cannot be
    read (no ``/proc/meminfo``: the search then never stops for memory)."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            info = dict(line.split(":", 1) for line in f if ":" in line)
        total = int(info["MemTotal"].split()[0])
        free = int(info["MemAvailable"].split()[0])
    except (OSError, KeyError, ValueError, IndexError):
        return None
    return free / total if total > 0 else None


def short() -> bool:
    """Whether less than FLOOR of the machine's memory is available."""
    share = available()
    return share is not None and share < FLOOR
