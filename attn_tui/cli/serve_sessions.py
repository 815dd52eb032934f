"""The browser sessions of `attn-tui serve`: textual-serve's server with a cap on live sessions,
a queue for starting app processes, a page that loads nothing from beyond this host, and a
reason sent to the browser whenever the server ends a session.

Imported only when serving: it needs aiohttp and textual-serve.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import logging
import re
import secrets
import signal
import socket
import sys
from pathlib import Path
from urllib.parse import quote

import textual_serve
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from attn_tui.core.files import discard_unwritten, os_reason
from attn_tui.core.words import plural

PAGE_DIR = Path(__file__).parent / "serve_page"
# textual-serve's own script, stylesheet and font files; the page is ours (see PAGE_DIR)
STATIC_DIR = Path(textual_serve.__file__).parent / "static"
# a start that has drawn nothing by then gives its place in the queue to the next one
START_TIMEOUT = 30.0
# a process that has not quit this long after being asked to is killed
STOP_TIMEOUT = 10.0
QUIT_GRACE = 0.5  # a tab whose app quit waits this long to learn if the server stops too
TRY_AGAIN_LATER = 1013  # RFC 6455's close code for "the server is overloaded"
# which learner a browser is: its lessons' progress and its files are kept under this name
LEARNER_COOKIE = "attn_tui_learner"
LEARNER_NAME = re.compile(r"[0-9a-f]{32}")
LEARNER_DAYS = 365
WILDCARDS = ("0.0.0.0", "::")  # every interface
STOPPED = "attn-tui was stopped on the server. Reload the page once it is back."

log = logging.getLogger("attn-tui-serve")


def full_message(max_sessions: int) -> str:
    if max_sessions == 1:
        return "attn-tui is full: its one session is in use. Try again when it is free."
    return (f"attn-tui is full: all {max_sessions} sessions are in use. "
            "Try again when someone leaves.")


def _not_health_checks(record: logging.LogRecord) -> bool:
    """The access log without the load balancer's checks of /health."""
    line = getattr(record, "first_request_line", "")
    return not (isinstance(line, str) and line.split(" ")[1:2] == ["/health"])


def _log_lost(stream, exc: Exception) -> None:
    """Standard output stopped taking the log (`serve | head` ended, a full disk): said once
    on standard error; what is left in its buffer goes nowhere (flushed at exit, it would
    fail again) and so does all that follows."""
    discard_unwritten(stream)
    why = ("its reader has stopped" if isinstance(exc, BrokenPipeError)
           else os_reason(exc, writing=True) if isinstance(exc, OSError) else "it is closed")
    with contextlib.suppress(OSError, ValueError, AttributeError):
        print(f"attn-tui: the log cannot be written ({why}): serving on without one",
              file=sys.stderr, flush=True)


class _LogWhileRead(logging.StreamHandler):
    """The log, to a pipe or a file; once that stops taking lines, the server goes on without
    one (_log_lost), rather than a traceback on standard error for every request."""

    def handleError(self, record: logging.LogRecord) -> None:
        exc = sys.exc_info()[1]
        if not isinstance(exc, OSError | ValueError):
            super().handleError(record)
            return
        logging.getLogger().removeHandler(self)
        _log_lost(self.stream, exc)


def learner_of(cookies) -> str | None:
    """The learner a browser's cookie names, or None (none, or not one this server gave)."""
    name = cookies.get(LEARNER_COOKIE, "")
    return name if LEARNER_NAME.fullmatch(name) else None


def learner_folder(root: Path, name: str) -> Path:
    """A learner's own folder (made on first use, for this user only): progress in it, and
    the files its sessions save, export and open, in its ``files``."""
    folder = root / name
    (folder / "files").mkdir(mode=0o700, parents=True, exist_ok=True)
    return folder


def starting_text(ahead: int) -> bytes:
    """What a queued tab shows until its app draws: the terminal's own text, top left."""
    where = "next" if ahead == 0 else f"{ahead} ahead of you"
    return f"\x1b[2J\x1b[H attn-tui: starting… ({where})\r\n".encode()


def ended_message(returncode: int | None) -> str:
    """The reason a browser is given when its app process ended without being asked to
    (the WebSocket close reason: at most 123 bytes)."""
    if returncode is not None and returncode < 0:
        try:
            how = f"was stopped ({signal.Signals(-returncode).name})"
        except ValueError:
            how = f"was stopped (signal {-returncode})"
    else:
        how = f"ended (exit status {returncode})"
    return f"This session's attn-tui process {how}. Reload the page for a new session."


def disposition(kind: str, name: str) -> str:
    """A Content-Disposition naming ``name`` as RFC 6266 has it, where textual-serve's is a
    bare ``filename=``: a browser cuts that at a ";" and drops quotes."""
    fallback = "".join(c if 32 <= ord(c) < 127 and c not in '"\\' else "_" for c in name)
    return f"{kind}; filename=\"{fallback}\"; filename*=UTF-8''{quote(name, safe='')}"


async def _name_the_download(request: web.Request, response: web.StreamResponse) -> None:
    header = response.headers.get("Content-Disposition", "")
    kind, found, name = header.partition("; filename=")
    if found and request.path.rstrip("/").rsplit("/", 2)[-2:-1] == ["download"]:
        response.headers["Content-Disposition"] = disposition(kind, name)


async def _while_waiting(websocket: web.WebSocketResponse, size: list[int]) -> None:
    """Read a waiting tab's messages until it closes: keys typed on the "starting…" page are
    dropped (held, they all reached the app at its start), a resize is kept for the start, and
    a ping answered, as once the app runs."""
    async for message in websocket:
        if message.type != web.WSMsgType.TEXT:
            continue
        try:
            kind, data = message.json()
        except (ValueError, TypeError):  # not JSON, or not textual.js's [kind, data]
            continue
        if kind == "resize" and isinstance(data, dict):
            size[:] = [to_int(str(data.get("width")), size[0]),
                       to_int(str(data.get("height")), size[1])]
        elif kind == "ping":
            await websocket.send_json(["pong", data])


class StartQueue:
    """At most ``width`` app processes start at once, the rest wait in arrival order. Twenty
    processes importing Textual and numpy together on two cores all arrive late; in turn, the
    first arrive at once and those already running keep answering keys."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.starting = 0
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        self.moved: asyncio.Future[None] | None = None  # done when the line moves up

    def ahead(self, turn: asyncio.Future[None]) -> int:
        return self.waiting.index(turn)

    async def enter(self, on_wait) -> None:
        """Wait for a place; ``on_wait(ahead)`` is awaited whenever the number ahead changes."""
        if self.starting < self.width and not self.waiting:
            self.starting += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        shown = None
        try:
            while not turn.done():
                if (ahead := self.ahead(turn)) != shown:
                    shown = ahead
                    await on_wait(ahead)
                if self.moved is None or self.moved.done():
                    self.moved = asyncio.get_running_loop().create_future()
                await asyncio.wait([turn, self.moved], return_when=asyncio.FIRST_COMPLETED)
        except BaseException:
            if turn.done() and not turn.cancelled():
                self.leave()  # given a place while leaving: pass it on
            else:
                self.waiting.remove(turn)
                self._move_up()
            raise

    def leave(self) -> None:
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the place passes straight to the next in line
                self._move_up()
                return
        self.starting -= 1

    def _move_up(self) -> None:
        if self.moved is not None and not self.moved.done():
            self.moved.set_result(None)


class Session(AppService):
    """One tab's app process; ``drawn`` is set when the app first sends its screen. With a
    learner's ``folder``, the app keeps its progress there and its files in ``files``."""

    def __init__(self, *args, folder: Path | None = None, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.drawn = asyncio.Event()
        self.folder = folder

    def _build_environment(self, width: int = 80, height: int = 24) -> dict[str, str]:
        from attn_tui.core.files import OWN_FOLDER_ENV
        from attn_tui.core.progress import DIR_ENV

        environment = super()._build_environment(width, height)
        if self.folder is not None:
            environment[DIR_ENV] = str(self.folder)
            environment[OWN_FOLDER_ENV] = str(self.folder / "files")
        return environment

    async def _open_app_process(self, width: int = 80, height: int = 24):
        # as AppService's, in the learner's folder: a name typed in a dialog lands there
        environment = self._build_environment(width=width, height=height)
        # in a session of its own: Ctrl+C in the server's terminal reaches the server alone,
        # which tells each tab why before it stops the apps
        self._process = process = await asyncio.create_subprocess_shell(
            self.command, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE, env=environment, start_new_session=True,
            cwd=None if self.folder is None else self.folder / "files")
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def on_data(self, payload: bytes) -> None:
        self.drawn.set()
        await super().on_data(payload)

    @property
    def finished(self) -> asyncio.Task[None] | None:
        """The task that relays the app's output: it ends when the process's output does."""
        return self._task

    async def wait(self) -> int | None:
        return await self._process.wait() if self._process else None

    def kill(self) -> None:
        if self._process is not None and self._process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self._process.kill()


class SessionServer(Server):
    """textual-serve with a cap on live sessions, a start queue, and its own page."""

    def __init__(self, command: str, *, host: str, port: int, public_url: str,
                 max_sessions: int, max_starting: int, listening: str,
                 learners: Path | None = None, resume_command: str | None = None) -> None:
        super().__init__(command, host=host, port=port, title="attn-tui", public_url=public_url,
                         statics_path=STATIC_DIR, templates_path=PAGE_DIR)
        if not self.console.is_terminal:
            # to a file or a journal: one line per event, not wrapped at 80 columns and padded
            from rich.console import Console

            self.console = Console(soft_wrap=True, highlight=False)
        self.learners = learners  # None: the sessions share the server's files and progress
        # a learner's sessions after their first (a reload): without --step, so they resume
        self.resume_command = resume_command or command
        self.placed: set[str] = set()  # learners whose first session this server started
        self.max_sessions = max_sessions
        self.live = 0
        self.queue = StartQueue(max_starting)
        self.listening = listening
        self.tabs: set[tuple[web.WebSocketResponse, Session]] = set()  # those running
        self.stopping = False  # the server was asked to stop (Ctrl+C, SIGTERM)
        self.console_lost = False  # standard output stopped taking lines (_say)

    def request_exit(self) -> None:
        # first, so an app that quits on the same signal (systemd's stop sends it to every
        # process of the service) has its tab told that the server stopped
        self.stopping = True
        super().request_exit()

    def initialize_logging(self) -> None:
        if self.console.is_terminal:
            super().initialize_logging()
            return
        logging.basicConfig(level="DEBUG" if self.debug else "INFO",
                            format="%(levelname)s %(message)s",
                            handlers=[_LogWhileRead(self.console.file)])

    async def _make_app(self) -> web.Application:
        app = await super()._make_app()
        app.router.add_get("/health", self.handle_health, name="health")
        logging.getLogger("aiohttp.access").addFilter(_not_health_checks)
        app.on_response_prepare.append(_name_the_download)
        static = app.router["static"]
        if hasattr(static, "_show_index"):  # no listing of the folder's files at /static/
            static._show_index = False
        return app

    async def on_startup(self, app) -> None:
        # the terminal serve runs in closing (SIGHUP) stops it as Ctrl+C does: the apps run
        # in sessions of their own and would not get the hangup
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError, AttributeError):
            asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self.request_exit)
        where = self.listening
        if self.public_url != where:
            where += f" for {self.public_url}"
        elif self.host in WILDCARDS:  # not an address a browser can open
            where = (f"every interface, port {self.port} (e.g. http://{socket.gethostname()}:"
                     f"{self.port}; the page follows the address a browser used)")
        self._say(f"attn-tui serving on {where} "
                  f"(at most {plural(self.max_sessions, 'session')}; Ctrl+C stops)")

    def _say(self, line: str) -> None:
        """A line of the server's own on its console; a console that cannot take it (a full
        disk, a pipe whose reader stopped) does not stop the server."""
        if self.console_lost:
            return
        try:
            self.console.print(line, highlight=False)
        except (OSError, ValueError) as exc:
            self.console_lost = True
            _log_lost(self.console.file, exc)
        except SystemExit:  # rich's answer to a pipe whose reader has gone (`serve | true`)
            self.console_lost = True
            _log_lost(self.console.file, BrokenPipeError())

    async def handle_health(self, request: web.Request) -> web.Response:
        """For a load balancer's check (HAProxy's httpchk): 200 while a new tab would get a
        session, 503 when it would get the full page; not written to the log, which checks
        every 2 s had filled."""
        if self.live >= self.max_sessions:
            return web.Response(status=503, text="full\n", headers={"Retry-After": "30"})
        return web.Response(text=f"ok: {self.live} of {self.max_sessions} sessions\n")

    def full_page(self) -> web.Response:
        page = (PAGE_DIR / "full.html").read_text(encoding="utf-8")
        return web.Response(status=503, content_type="text/html", headers={"Retry-After": "30"},
                            text=page.replace("{message}", full_message(self.max_sessions)))

    async def handle_index(self, request):
        if self.live >= self.max_sessions:
            return self.full_page()
        if self.public_url == self.listening and self.host in WILDCARDS:
            # no --public-url, listening everywhere: the page's links are to the address the
            # browser used (http://0.0.0.0:8000 is the learner's own machine)
            response = await self._index_for(f"{request.scheme}://{request.host}", request)
        else:
            response = await super().handle_index(request)
        if self.learners is not None and learner_of(request.cookies) is None:
            # the WebSocket's request carries it back: this browser's sessions find its folder
            response.set_cookie(LEARNER_COOKIE, secrets.token_hex(16),
                                max_age=LEARNER_DAYS * 86_400, httponly=True, samesite="Lax")
        return response

    async def _index_for(self, base: str, request: web.Request) -> web.Response:
        # textual-serve's handle_index reads self.public_url and renders without awaiting in
        # between: set for this request alone, it names this request's address
        kept = self.public_url
        self.public_url = base
        try:
            return await super().handle_index(request)
        finally:
            self.public_url = kept

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        websocket = web.WebSocketResponse(heartbeat=15)
        await websocket.prepare(request)
        if self.live >= self.max_sessions:
            # accepted, then closed with the reason: a refused handshake reaches the page as a
            # bare failure it cannot tell from a network fault
            log.warning("attn-tui: session refused: %s", full_message(self.max_sessions))
            await websocket.close(code=TRY_AGAIN_LATER,
                                  message=full_message(self.max_sessions).encode())
            return websocket
        self.live += 1
        try:
            await self._run_session(websocket, request)
        finally:
            self.live -= 1
        return websocket

    async def _run_session(self, websocket: web.WebSocketResponse, request: web.Request) -> None:
        width = to_int(request.query.get("width", "80"), 80)
        height = to_int(request.query.get("height", "24"), 24)

        async def show_place(ahead: int) -> None:
            await websocket.send_bytes(starting_text(ahead))

        size = [width, height]
        turn = asyncio.ensure_future(self.queue.enter(show_place))
        listening = asyncio.ensure_future(_while_waiting(websocket, size))
        try:
            await asyncio.wait([turn, listening], return_when=asyncio.FIRST_COMPLETED)
        finally:
            listening.cancel()
            if not turn.done():  # the tab closed while it waited: its place goes on
                turn.cancel()
            with contextlib.suppress(asyncio.CancelledError, ConnectionResetError):
                await listening
        try:
            turn.result()
        except (ConnectionResetError, asyncio.CancelledError):
            return  # the tab went away while it waited
        if (listening.done() and not listening.cancelled()) or websocket.closed:
            self.queue.leave()  # given its place as it closed: the place goes on, no app starts
            return
        width, height = size
        folder, command = None, self.command
        if self.learners is not None:  # a browser without the cookie: a folder of its own
            name = learner_of(request.cookies) or secrets.token_hex(16)
            if name in self.placed:
                command = self.resume_command
            self.placed.add(name)
            try:
                folder = learner_folder(self.learners, name)
            except OSError as exc:
                log.warning("attn-tui: cannot make the folder of learner %s: %s", name, exc)
                self.queue.leave()
                await websocket.close(code=WSCloseCode.INTERNAL_ERROR,
                                      message=b"attn-tui cannot keep this session's files "
                                              b"on the server; tell the teacher.")
                return

        async def app_quit() -> None:
            # the app said it quit: the learner's q, or a signal that systemd's stop sent every
            # process of the service at once, which the server may not have read yet
            if not self.stopping:
                await asyncio.sleep(QUIT_GRACE)
            if websocket.closed:  # the server's stop told the tab first
                return
            if self.stopping:
                await websocket.close(code=WSCloseCode.GOING_AWAY, message=STOPPED.encode())
            else:
                await websocket.close()

        session = Session(command, write_bytes=websocket.send_bytes,
                          write_str=websocket.send_str, close=app_quit,
                          download_manager=self.download_manager, debug=self.debug,
                          folder=folder)
        holding = True

        def give_up_place() -> None:
            nonlocal holding
            if holding:
                holding = False
                self.queue.leave()

        started = False
        tab = (websocket, session)
        try:
            await session.start(width, height)
            started = True
            self.tabs.add(tab)
            reader = asyncio.ensure_future(self._process_messages(websocket, session))
            # the place in the queue is held until the app has drawn, or ended, or took too long
            drawn = asyncio.ensure_future(session.drawn.wait())
            await asyncio.wait([drawn, reader, session.finished],
                               timeout=START_TIMEOUT, return_when=asyncio.FIRST_COMPLETED)
            drawn.cancel()
            give_up_place()
            await asyncio.wait([reader, session.finished], return_when=asyncio.FIRST_COMPLETED)
            if session.finished.done() and not websocket.closed:
                # the process ended without the tab asking: tell that tab why, and only it
                returncode = await session.wait()
                log.warning("attn-tui: a session's process ended (%s)", returncode)
                if returncode == 0:
                    await websocket.close()
                else:
                    await websocket.close(code=WSCloseCode.INTERNAL_ERROR,
                                          message=ended_message(returncode).encode())
            reader.cancel()
        except Exception as error:  # one session's fault never stops the server
            log.exception(error)
        finally:
            give_up_place()
            self.tabs.discard(tab)
            if started:
                await self._stop(session)

    async def on_shutdown(self, app) -> None:
        """Ctrl+C: each tab is told why its session ends, and each app is asked to quit (and
        killed if it has not within STOP_TIMEOUT), all at once, before aiohttp waits on the
        sessions' handlers."""
        self.stopping = True
        tabs = list(self.tabs)
        if tabs:
            self._say(f"attn-tui: stopping {plural(len(tabs), 'session')}…")
        await asyncio.gather(*(self._close_tab(ws, session) for ws, session in tabs),
                             return_exceptions=True)

    async def _close_tab(self, websocket: web.WebSocketResponse, session: Session) -> None:
        with contextlib.suppress(Exception):
            await websocket.close(code=WSCloseCode.GOING_AWAY, message=STOPPED.encode())
        await self._stop(session)

    async def _stop(self, session: Session) -> None:
        """Ask the app to quit; kill it if it has not within STOP_TIMEOUT."""
        try:
            await asyncio.wait_for(asyncio.shield(session.stop()), STOP_TIMEOUT)
        except Exception:
            session.kill()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(session.wait(), STOP_TIMEOUT)
