"""`attn-tui serve`: the same app in a browser tab, one process per tab, through textual-serve.

There is no authentication: it listens on loopback unless told otherwise, and says so loudly when
it is. A limit on concurrent sessions keeps a class from exhausting a shared host.
"""

from __future__ import annotations

import errno
import ipaddress
import shlex
import socket
import sys

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
DEFAULT_MAX_SESSIONS = 20
INSTALL_SERVE = "serving needs textual-serve; install it with: pip install 'attn-tui[serve]'"
NO_AUTH_WARNING = (
    "attn-tui: WARNING: serving on {host}, beyond this machine. attn-tui serve has no "
    "authentication: anyone who can reach this address gets a session. Put it behind a proxy "
    "that authenticates (see docs/hosting.md)."
)


class ServeError(Exception):
    """A problem the user can fix, said in one line."""


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_port(host: str, port: int) -> None:
    """Fail early, in words, if the port cannot be bound (rather than a traceback later)."""
    if not 0 < port < 65536:
        raise ServeError(f"port {port} is out of range (1-65535)")
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                raise ServeError(f"port {port} on {host} is already in use; choose another "
                                 "with --port") from None
            raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None


def app_command(app_args: list[str]) -> str:
    return shlex.join([sys.executable, "-m", "attn_tui", *app_args])


def make_server(host: str, port: int, max_sessions: int, app_args: list[str]):
    try:
        from aiohttp import web
        from textual_serve.server import Server
    except ImportError as exc:
        raise ServeError(INSTALL_SERVE) from exc

    class LimitedServer(Server):
        """textual-serve with a cap on live sessions and a plain start-up line."""

        active = 0

        async def on_startup(self, app) -> None:
            self.console.print(f"attn-tui serving on {self.public_url} "
                               f"(at most {max_sessions} sessions; Ctrl+C stops)", highlight=False)

        async def handle_index(self, request):
            if self.active >= max_sessions:
                return web.Response(status=503, text=self._full_message())
            return await super().handle_index(request)

        async def handle_websocket(self, request):
            if self.active >= max_sessions:
                self.console.print(f"attn-tui: session refused: {self._full_message()}")
                raise web.HTTPServiceUnavailable(text=self._full_message())
            self.active += 1
            try:
                return await super().handle_websocket(request)
            finally:
                self.active -= 1

        def _full_message(self) -> str:
            return (f"attn-tui is full: all {max_sessions} sessions are in use. "
                    "Try again when someone leaves.")

    return LimitedServer(app_command(app_args), host=host, port=port, title="attn-tui")


def serve(host: str, port: int, max_sessions: int, public: bool, app_args: list[str]) -> int:
    """Run until Ctrl+C. Returns an exit status; messages go to stderr in one line."""
    if max_sessions < 1:
        raise ServeError("--max-sessions must be at least 1")
    if not is_loopback(host):
        if not public:
            raise ServeError(f"refusing to serve on {host}: that reaches beyond this machine and "
                             "there is no authentication. Add --public if you mean it "
                             "(behind an authenticating proxy).")
        print(NO_AUTH_WARNING.format(host=host), file=sys.stderr)
    check_port(host, port)
    server = make_server(host, port, max_sessions, app_args)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port after the check
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return 0
