"""``tabletrack live``: the runner, the app and uvicorn, started in the right order.

Contract (:func:`run_live`): everything the user typed is checked first (game, table, referee
input, the match file, the source); then the source is opened and the camera calibrated (the
runner), the referee's token printed (never put in a URL), and uvicorn serves the app on
``host:port`` (127.0.0.1 by default) until interrupted. The capture starts once the server's event
loop is up. When the source ends or dies the server stays up with the match kept, and the pages
say so; ``--exit-when-done`` ends the process then instead (tests, benchmarks). The match folder
is held with :func:`tabletrack.outputs.output_lock` for the whole run (one process per match).
"""

from __future__ import annotations

import secrets
import sys
import threading
import time
from pathlib import Path
from typing import Any

from tabletrack.live.capture import parse_source
from tabletrack.live.runner import LiveOptions, LiveRunner
from tabletrack.live.store import MatchStore
from tabletrack.outputs import output_lock

__all__ = ["run_live", "MATCH_DB"]

#: the database's name inside the match folder
MATCH_DB = "match.sqlite"


def run_live(
    source: str,
    opts: LiveOptions,
    match: Path,
    host: str = "127.0.0.1",
    port: int = 8765,
    token: str | None = None,
    exit_when_done: bool = False,
    ready_file: Path | None = None,
) -> int:
    """Run a live match (see the module docstring); returns the exit status."""
    import uvicorn

    from tabletrack.live.app import Hub, create_app

    spec = parse_source(source)
    folder = match if match.suffix != ".sqlite" else match.parent
    db = match if match.suffix == ".sqlite" else match / MATCH_DB
    with output_lock(folder, folder=True):
        store = MatchStore(db)
        hub = Hub()
        runner = LiveRunner(spec, opts, store, hub.publish)
        tok = token or secrets.token_urlsafe(18)
        started = threading.Event()

        def on_start() -> None:
            if not started.is_set():
                started.set()
                runner.start()

        app = create_app(runner, hub, tok, on_start=on_start)
        config = uvicorn.Config(
            app,
            host=host,
            port=port,
            log_level="warning",
            access_log=False,
            ws="websockets-sansio",
            timeout_graceful_shutdown=2,  # open WebSockets never end on their own
        )
        server = uvicorn.Server(config)
        url = f"http://{host}:{port}"
        print(
            f"tabletrack live: {spec.label} -> {url}/ (scoreboard), {url}/overlay (overlay), {url}/referee (referee)\n"
            f"match: {db} (session {runner.session_number}; calibration: {runner.camera.method})\n"
            f"referee token (type it on the referee page; do not share it): {tok}",
            flush=True,
        )
        if ready_file is not None:
            ready_file.write_text(f'{{"url": "{url}", "token": "{tok}"}}\n', encoding="utf-8")
        if exit_when_done:
            threading.Thread(target=_exit_after, args=(runner, server), daemon=True).start()
        try:
            server.run()
        finally:
            runner.stop()
            store.export()
            store.close()
        st = runner.stats()
        print(_summary(st.__dict__, len(store_calls(db))), flush=True)
    return 0


def store_calls(db: Path) -> list[dict[str, Any]]:
    s = MatchStore(db)
    try:
        return s.calls()
    finally:
        s.close()


def _exit_after(runner: LiveRunner, server: Any) -> None:
    runner.finished.wait()
    time.sleep(1.0)  # the last messages reach the pages
    server.should_exit = True


def _summary(st: dict[str, Any], n_calls: int) -> str:
    lat = st.get("latency_median_ms")
    return (
        f"tabletrack live: {n_calls} calls; frames read {st['frames_read']}, dropped {st['frames_dropped']}, "
        f"analysed {st['frames_analysed']}; latency median "
        + (f"{lat:.0f} ms" if lat is not None else "n/a")
        + (f"; source: {st['source_ended']}" if st.get("source_ended") else "")
    )


if __name__ == "__main__":  # pragma: no cover
    sys.exit("use: tabletrack live --source SRC --game G")
