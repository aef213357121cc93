"""The live server: the pages, a JSON API and a WebSocket stream, one FastAPI app.

Contract (``create_app``):

- ``GET /`` the scoreboard, ``GET /overlay`` the overlay for streaming software (transparent),
  ``GET /referee`` the referee's page; static files under ``/static`` (package data, no CDN).
- ``GET /api/state`` everything at once (game, table, players, score sheet, every call, the last,
  the next shot's number, the referee actions, the machinery's figures); ``GET /api/shots``
  every shot's call and its events; ``GET /api/calls/{shot}`` one call with its evidence and
  events; ``GET /api/stats``.
- ``WS /ws``: first ``{"type": "state", …}``, then every message the runner publishes as it
  happens (``events``, ``call``, ``calls`` after a re-judge, ``balls``, ``stats``, ``status``,
  ``actions``).
- The referee's controls, each behind the token (``Authorization: Bearer TOKEN``, compared with
  :func:`secrets.compare_digest`; never in a URL, so the overlay's URL never carries it):
  ``POST /api/referee`` ``{"shot": N | null, "fields": {…}}`` (the per-shot fields of the referee
  input ``judge`` reads; ``shot`` null: the next shot), ``POST /api/referee/undo``,
  ``POST /api/recalibrate``. Without the token: 401 and nothing changes; a malformed request or an
  action the rules refuse: 4xx with ``{"error": "one line"}``.

Why one process with threads: the capture and analysis threads publish into the server's event
loop (``loop.call_soon_threadsafe``), so a call reaches the page without a second process's hop.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import asdict
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles

if TYPE_CHECKING:
    from tabletrack.live.runner import LiveRunner

__all__ = ["Hub", "create_app", "STATIC"]

STATIC = Path(str(resources.files("tabletrack.live") / "static"))


class Hub:
    """Fans the runner's messages out to every WebSocket client. ``publish`` may be called from any
    thread; each client has a bounded queue (a client too slow to read loses its oldest messages,
    never the server's memory)."""

    def __init__(self, max_queued: int = 256) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.clients: set[asyncio.Queue[str]] = set()
        self.max_queued = max_queued
        self.sent = 0

    def publish(self, msg: dict[str, Any]) -> None:
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        text = json.dumps(msg, ensure_ascii=False, default=str)
        with contextlib.suppress(RuntimeError):  # the loop closed between the check and the call
            loop.call_soon_threadsafe(self._fan_out, text)

    def _fan_out(self, text: str) -> None:
        for q in list(self.clients):
            if q.full():
                q.get_nowait()
            q.put_nowait(text)
        self.sent += 1


def _error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def create_app(runner: LiveRunner, hub: Hub, token: str, on_start: Callable[[], None] | None = None) -> FastAPI:
    """The app serving ``runner``'s match (see the module docstring); ``on_start`` runs once the
    event loop is up (the CLI starts the capture there, so no message is published before a page
    can receive it)."""
    from tabletrack.live.runner import RefereeActionError

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        hub.loop = asyncio.get_running_loop()
        if on_start is not None:
            on_start()
        yield
        hub.loop = None

    app = FastAPI(title="tabletrack live", docs_url=None, redoc_url=None, openapi_url=None, lifespan=lifespan)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    def authorised(request: Request) -> bool:
        auth = request.headers.get("authorization", "")
        given = auth[7:] if auth.lower().startswith("bearer ") else ""
        return bool(given) and secrets.compare_digest(given.encode(), token.encode())

    async def body_object(request: Request) -> dict[str, Any] | JSONResponse:
        raw = await request.body()
        if not raw.strip():
            return {}
        try:
            obj = json.loads(raw)
        except (json.JSONDecodeError, UnicodeDecodeError) as e:
            return _error(400, f"the body is not JSON: {e.msg if isinstance(e, json.JSONDecodeError) else e}")
        if not isinstance(obj, dict):
            return _error(400, f"expected a JSON object, got {type(obj).__name__}")
        return obj

    @app.get("/")
    async def scoreboard() -> FileResponse:
        return FileResponse(STATIC / "scoreboard.html")

    @app.get("/overlay")
    async def overlay() -> FileResponse:
        return FileResponse(STATIC / "overlay.html")

    @app.get("/referee")
    async def referee() -> FileResponse:
        return FileResponse(STATIC / "referee.html")

    @app.get("/api/state")
    async def state() -> dict[str, Any]:
        return runner.state()

    @app.get("/api/stats")
    async def stats() -> dict[str, Any]:
        return asdict(runner.stats())

    @app.get("/api/shots")
    async def shots() -> list[dict[str, Any]]:
        from tracking.eventlog import event_to_dict

        by_shot: dict[int, list[dict[str, Any]]] = {}
        for e in runner.store.events():
            by_shot.setdefault(e.shot, []).append(event_to_dict(e))
        calls = {c["shot"]: c for c in runner.store.calls()}
        return [{"shot": n, "call": calls.get(n), "events": evs} for n, evs in sorted(by_shot.items())]

    @app.get("/api/calls/{shot}", response_model=None)
    async def call(shot: str) -> dict[str, Any] | JSONResponse:
        if not shot.isdigit():
            return _error(400, f"expected a shot number, got {shot!r}")
        from tracking.eventlog import event_to_dict

        for c in runner.store.calls():
            if c["shot"] == int(shot):
                evs = [event_to_dict(e) for e in runner.store.events() if e.shot == int(shot)]
                return {"call": c, "evidence": c.get("evidence", []), "events": evs}
        return _error(404, f"no call for shot {shot} (shots judged: {len(runner.store.calls())})")

    @app.post("/api/referee", response_model=None)
    async def referee_action(request: Request) -> dict[str, Any] | JSONResponse:
        if not authorised(request):
            return _error(401, "the referee's token is required (Authorization: Bearer TOKEN)")
        body = await body_object(request)
        if isinstance(body, JSONResponse):
            return body
        unknown = sorted(set(body) - {"shot", "fields"})
        if unknown:
            return _error(400, f"unknown key {unknown[0]!r}; expected 'shot' and 'fields'")
        shot, fields = body.get("shot"), body.get("fields")
        if not isinstance(fields, dict) or not fields:
            return _error(400, "expected 'fields': a non-empty object of referee-input fields for one shot")
        try:
            calls = await asyncio.to_thread(runner.referee_action, shot, fields)
        except RefereeActionError as e:
            return _error(422, str(e))
        return {"ok": True, "rejudged": len(calls), "state": runner.state()}

    @app.post("/api/referee/undo", response_model=None)
    async def undo(request: Request) -> dict[str, Any] | JSONResponse:
        if not authorised(request):
            return _error(401, "the referee's token is required (Authorization: Bearer TOKEN)")
        try:
            calls = await asyncio.to_thread(runner.undo)
        except RefereeActionError as e:
            return _error(422, str(e))
        return {"ok": True, "rejudged": len(calls), "state": runner.state()}

    @app.post("/api/recalibrate", response_model=None)
    async def recalibrate(request: Request) -> dict[str, Any] | JSONResponse:
        if not authorised(request):
            return _error(401, "the referee's token is required (Authorization: Bearer TOKEN)")
        runner.recalibrate()
        return {"ok": True, "message": "re-calibrating on the next frame"}

    @app.websocket("/ws")
    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        q: asyncio.Queue[str] = asyncio.Queue(maxsize=hub.max_queued)
        hub.clients.add(q)
        try:
            await websocket.send_text(json.dumps({"type": "state", "state": runner.state()}, default=str))
            while True:
                await websocket.send_text(await q.get())
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            hub.clients.discard(q)

    return app
