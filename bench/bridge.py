"""Fault-injection run of the LED bridge: host against the simulated firmware on ptys.

    python bench/bridge.py [--frames 100000] [--faults 0.05] [--seed 1] [--unplugs 2] [--window 1]

The same run as ``pipgammon bridge selftest`` (firmware_bridge/selftest.py), kept
here at full size because 100,000 frames take about a minute; the tests use 1,500.
Prints the JSON report and the throughput; exits 1 if a state or a button event
was lost or doubled.  Latency is from ``Bridge.show(plan)`` to the firmware
applying it, both clocks in this process.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from firmware_bridge.selftest import run_selftest


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--faults", type=float, default=0.05)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--unplugs", type=int, default=2)
    parser.add_argument("--window", type=int, default=1)
    args = parser.parse_args()
    report = run_selftest(args.frames, args.faults, seed=args.seed, unplugs=args.unplugs, window=args.window)
    print(json.dumps(report.to_dict(), indent=1))
    print(f"{report.frames / report.seconds:,.0f} plans/s including the unplugs; "
          f"show() to applied: median {report.p50_ms} ms, p99 {report.p99_ms} ms; "
          f"{'OK' if report.ok else 'FAILED'}")
    return 0 if report.ok else 1


if __name__ == "__main__":
    sys.exit(main())
