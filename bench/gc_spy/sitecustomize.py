"""Put on the server's PYTHONPATH by ``bench/load.py --gc-spy``: records every garbage
collection the server makes (when, which generation, the pause, how many objects it had to
visit, how many it found to be garbage) and writes them to ``$GC_SPY.<pid>.json`` every second (a server stopped by a signal
runs no exit hooks). Counting the objects walks the generations before the pause is timed,
so the run is slower than a plain one: read its pauses, not its latencies."""

import gc
import json
import os
import sys
import threading
import time

if os.environ.get("GC_SPY"):
    _began = [0.0, 0]
    _passes: list[tuple[float, int, float, int, int]] = []

    def _record(phase: str, info: dict) -> None:
        if phase == "start":
            _began[1] = sum(len(gc.get_objects(g)) for g in range(info["generation"] + 1))
            _began[0] = time.perf_counter()
        else:
            _passes.append((time.time(), info["generation"], 1000 * (time.perf_counter() - _began[0]), _began[1],
                            info["collected"]))

    gc.callbacks.insert(0, _record)  # first, so the pause it times includes the others' work

    def _write() -> None:
        while True:
            time.sleep(1)
            with open(f"{os.environ['GC_SPY']}.{os.getpid()}.json", "w") as out:
                json.dump({"argv": sys.argv, "passes": list(_passes)}, out)

    threading.Thread(target=_write, daemon=True).start()
