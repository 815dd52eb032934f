"""`attn-tui serve`: the same app in a browser tab, one process per tab, through textual-serve.

There is no authentication: it listens on loopback unless told otherwise, and says so loudly when
it is. A limit on concurrent sessions keeps a class from exhausting a shared host.
"""

from __future__ import annotations

import errno
import ipaddress
import os
import re
import shlex
import socket
import sys
from urllib.parse import urlsplit

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


# what RFC 3986 lets a URL carry unencoded; anything else (a space, a quote) is a typo here
URL_CHARS = re.compile(r"[A-Za-z0-9._~:/?#\[\]@!$&'()*+,;=%-]+")
PUBLIC_URL_EXAMPLE = "e.g. https://example.org/attn"


def check_public_url(text: str) -> str:
    """The address learners' browsers use to reach the server (through a proxy), in the form
    the served page builds its links from: scheme in lower case, no trailing slash, so that
    ``https://host/attn/`` gives ``https://host/attn/static/…`` and ``wss://host/attn/ws``."""
    if not URL_CHARS.fullmatch(text):
        raise ServeError(f"{text!r} is not a URL ({PUBLIC_URL_EXAMPLE})")
    try:
        parts = urlsplit(text)
    except ValueError:  # an unbalanced [ or ] around an IPv6 address
        raise ServeError(f"{text!r} is not a URL ({PUBLIC_URL_EXAMPLE})") from None
    scheme = parts.scheme.lower()
    if scheme not in ("http", "https"):
        raise ServeError(f"{text!r} must start with http:// or https:// ({PUBLIC_URL_EXAMPLE})")
    try:
        port = parts.port  # raises on a port that is not a number, or above 65535
    except ValueError:
        port = 0
    if port == 0 or parts.netloc.endswith(":"):
        raise ServeError(f"{text!r} has a bad port number")
    if not parts.hostname:
        raise ServeError(f"{text!r} has no host ({PUBLIC_URL_EXAMPLE})")
    if "@" in parts.netloc:
        raise ServeError(f"{text!r} carries a user name or password; the page would show it "
                         "to every learner")
    if parts.query or parts.fragment or "?" in text or "#" in text:
        raise ServeError(f"{text!r} has a query or fragment; give only scheme, host and path "
                         f"({PUBLIC_URL_EXAMPLE})")
    return f"{scheme}://{parts.netloc}{parts.path.rstrip('/')}"


def default_public_url(host: str, port: int) -> str:
    """Where the page points when no --public-url is given: the listening address itself
    (an IPv6 address in brackets, as a URL needs it)."""
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


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
    # textual-serve runs it through a shell: exec, so that the session's process is the app
    # itself (a signal to it reaches the app, and its exit status is the app's)
    return "exec " + shlex.join([sys.executable, "-m", "attn_tui", *app_args])


def _without_step(app_args: list[str]) -> list[str]:
    """The app's words for a learner's later sessions: ``--step N`` puts each learner on that
    step once, and a reload resumes where they are. Where nothing is kept there is nothing to
    resume: every session opens on the step."""
    if "--step" not in app_args or "--no-progress" in app_args:
        return app_args
    at = app_args.index("--step")
    return app_args[:at] + app_args[at + 2:]


def default_max_starting() -> int:
    """App processes started at once: one per core (each start is mostly CPU)."""
    return max(1, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 1)


def learners_root(given: str | None = None):
    """Where each browser's folder is kept: ``given``, or ``learners`` in attn-tui's data
    folder (``$ATTN_TUI_DATA_DIR``, or the user's, from platformdirs)."""
    from pathlib import Path

    from attn_tui.core.progress import DIR_ENV, data_folder

    try:
        return Path(given).expanduser() if given else data_folder() / "learners"
    except RuntimeError as exc:  # ~nosuchuser: no home folder to expand
        raise ServeError(f"cannot keep the learners' folders in {given or os.environ[DIR_ENV]}: "
                         f"{str(exc).rstrip('.')}; choose another with --learners") from None


def check_learners(root) -> None:
    """Fail early, in words, if the learners' folders cannot be made there."""
    if root.exists() and not root.is_dir():  # mkdir would say only "File exists"
        raise ServeError(f"cannot keep the learners' folders in {root}: it is a file, not a "
                         "folder; choose another with --learners")
    try:
        root.mkdir(mode=0o700, parents=True, exist_ok=True)
        probe = root / ".attn-tui-probe"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as exc:
        raise ServeError(f"cannot keep the learners' folders in {root}: "
                         f"{exc.strerror or exc}; choose another with --learners") from None


def make_server(host: str, port: int, max_sessions: int, app_args: list[str],
                public_url: str | None = None, max_starting: int | None = None,
                learners=None):
    try:
        from attn_tui.cli.serve_sessions import SessionServer
    except ImportError as exc:
        raise ServeError(INSTALL_SERVE) from exc

    # the page hard-codes the address of its scripts and of its WebSocket: behind a proxy that
    # must be the proxy's address, not the one this process listens on
    listening = default_public_url(host, port)
    public_url = check_public_url(public_url) if public_url else listening
    return SessionServer(app_command(app_args), resume_command=app_command(_without_step(app_args)),
                         host=host, port=port, public_url=public_url,
                         max_sessions=max_sessions,
                         max_starting=max_starting or default_max_starting(),
                         listening=listening, learners=learners)


def serve(host: str, port: int, max_sessions: int, public: bool, app_args: list[str],
          public_url: str | None = None, max_starting: int | None = None,
          learners: str | None = None) -> int:
    """Run until Ctrl+C. Returns an exit status; messages go to stderr in one line. Each
    browser gets a folder of its own under ``learners`` (see learners_root)."""
    if learners is not None and not learners.strip():
        raise ServeError("--learners is empty: give a folder, or leave it out for the default")
    if not host:
        raise ServeError("--host is empty: give an address, e.g. 127.0.0.1 (this machine) or "
                         "0.0.0.0 (every interface, with --public)")
    if max_sessions < 1:
        raise ServeError("--max-sessions must be at least 1")
    if public_url:
        public_url = check_public_url(public_url)
    if not is_loopback(host) and not public:
        raise ServeError(f"refusing to serve on {host}: that reaches beyond this machine and "
                         "there is no authentication. Add --public if you mean it "
                         "(behind an authenticating proxy).")
    check_port(host, port)
    root = learners_root(learners)
    check_learners(root)
    if not is_loopback(host):  # once it will serve: not above a reason it cannot
        print(NO_AUTH_WARNING.format(host=host), file=sys.stderr)
    server = make_server(host, port, max_sessions, app_args, public_url, max_starting, root)
    try:
        server.serve()
    except OSError as exc:  # lost a race for the port after the check
        raise ServeError(f"cannot listen on {host}:{port}: {exc.strerror}") from None
    return 0
