"""Writing a file all at once, or to standard output, and saying in one sentence why a file
could not be used."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
import sys
import tempfile

# set by `attn-tui serve` for each browser's session: the one folder its files may be in
OWN_FOLDER_ENV = "ATTN_TUI_OWN_FOLDER"


def outside_own_folder(path: str) -> str | None:
    """Why ``path`` may not be used, in a session whose files are kept to one folder (a
    browser's, under `attn-tui serve`: the server's other files are not the learner's to
    read or replace); None if it may, or if the session is not kept to one. There, a file is
    named by its name alone: the session runs in that folder."""
    if not os.environ.get(OWN_FOLDER_ENV):
        return None
    bare = (path not in ("", ".", "..") and os.path.basename(path) == path
            and not (os.altsep and os.altsep in path)
            and not path.startswith("~"))  # later read as a home folder: ~root is /root
    if not bare:
        return ("In the browser your files are kept in a folder of your own on the server: "
                "give a file name alone, without a folder (no /, ~ or ..).")
    return None


def own_files(ending: str | tuple[str, ...], most: int = 8) -> list[str] | None:
    """In a session kept to one folder, the names there ending in ``ending``, newest first
    (a browser has no file list of its own to pick from); None elsewhere."""
    folder = os.environ.get(OWN_FOLDER_ENV)
    if not folder:
        return None
    try:
        found = [e for e in os.scandir(folder) if e.is_file() and e.name.endswith(ending)]
    except OSError:
        return []
    found.sort(key=lambda e: e.stat().st_mtime, reverse=True)
    return [e.name for e in found[:most]]


ZIP_MAGIC = b"PK\x03\x04"  # how a zip begins, and so a .npz: a training run, or an export


def npz_kind(names) -> str:
    """What attn-tui wrote as a .npz, by the arrays in it (``x`` or ``x.npy``): "run" (a
    training run, with its meta), "stages" (the workbench's export) or "other"."""
    arrays = {n[:-4] if n.endswith(".npy") else n for n in names}
    if "meta" in arrays:
        return "run"
    return "stages" if {"q", "k", "v", "weights"} <= arrays else "other"


def begins_as_zip(path: str) -> bool:
    """Whether ``path`` is a regular file that begins as a zip does (a FIFO would hold the
    reader, so it is not opened); False when it cannot be read."""
    full = os.path.expanduser(path)
    try:
        if not stat.S_ISREG(os.stat(full).st_mode):
            return False
        with open(full, "rb") as f:
            return f.read(len(ZIP_MAGIC)) == ZIP_MAGIC
    except (OSError, ValueError):
        return False


class FileError(ValueError):
    """str() is one sentence: "Cannot <verb> <path>: <reason>." (or the reason alone)."""

    def __init__(self, reason: str, path: str | None = None, verb: str = "open") -> None:
        self.reason, self.path = reason, path
        text = (f"Cannot {verb} {short_path(path)}: {reason}" if path
                else reason[:1].upper() + reason[1:])
        super().__init__(text.rstrip(".") + ".")


def stamp(path: str) -> tuple[int, int] | None:
    """What tells one state of a file from the next (modification time, size); None if it
    cannot be read."""
    try:
        st = os.stat(os.path.expanduser(path))
    except (OSError, ValueError):
        return None
    return st.st_mtime_ns, st.st_size


def short_path(path: str, room: int = 90) -> str:
    """A path as a message quotes it: a pasted page of text stays one line, its start and end
    kept (where the folder and the extension are). A byte that is not UTF-8 reads as \\xff,
    as the shell's own quoting shows it, not as the lone surrogate Python keeps it as."""
    if any("\udc80" <= ch <= "\udcff" for ch in path):
        path = path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    if len(path) <= room:
        return path
    half = (room - 1) // 2
    return f"{path[:half]}…{path[-half:]}"


def private_folders(folder: str | os.PathLike) -> None:
    """``mkdir -p folder``, each folder it makes readable by its owner alone: attn-tui's own
    files (progress with its answers, rescued work) sit in a home that a class's server often
    lets other accounts list (a 755 home, umask 022). A folder already there keeps its mode."""
    missing = []
    here = os.fspath(folder)  # as given: abspath would take new/../x as x, new never made
    while here and not os.path.lexists(here) and os.path.dirname(here) != here:
        missing.append(here)
        here = os.path.dirname(here)
    for path in reversed(missing):
        with contextlib.suppress(FileExistsError):  # new/.. once new is made; or made meanwhile
            os.mkdir(path, 0o700)


def atomic_write(path: str | os.PathLike, data: bytes, verb: str = "write",
                 streams: bool = False) -> None:
    """Replace ``path`` with ``data`` all at once: a crash leaves the old file or the new one.

    ``streams``: a character device or a pipe (/dev/null, a FIFO, a shell's ``>(…)``) is
    written to as it is, for the command line; elsewhere it is refused, since the app would
    take it for a saved file."""
    shown = os.fspath(path)
    stream = open_stream(shown, verb) if streams else None
    if stream is not None:
        stream.write(data)
        return
    target, mode = _target(shown, verb)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.",
                                   suffix=".tmp", dir=os.path.dirname(target))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
        tmp = None
        _fsync_dir(os.path.dirname(target))
    except OSError as exc:
        raise FileError(os_reason(exc, True, _named(shown, target)), shown, verb) from exc
    finally:
        if tmp is not None:
            with contextlib.suppress(OSError):
                os.unlink(tmp)


def check_target(path: str | os.PathLike, verb: str = "write") -> None:
    """Refuse now, in atomic_write's words, a file name it would refuse later: for the command
    line, before the work whose result goes there (a training run). A stream: open_stream."""
    shown = os.fspath(path)
    target, _ = _target(shown, verb)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise FileError(os_reason(FileNotFoundError(errno.ENOENT, folder), True,
                                  _named(shown, target)), shown, verb)
    # atomic_write makes a file beside the target: try that now (os.access says yes to root,
    # and on /proc or a read-only mount)
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp",
                                     dir=folder)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise FileError(os_reason(exc, True, _named(shown, target)), shown, verb) from exc


def _target(shown: str, verb: str) -> tuple[str, int]:
    """(the real path to replace, the mode the new file gets); FileError for a name that
    cannot be written."""
    try:
        target = os.path.realpath(os.path.expanduser(shown))  # through a symlink, not over it
    except OSError as exc:  # the folder the app was started in has been deleted since
        raise FileError("the folder attn-tui runs in no longer exists, so a name cannot be "
                        "found from it; give the full path", shown, verb) from exc
    if os.path.isdir(target):
        raise FileError("it is a directory", shown, verb)
    if shown.endswith(("/", os.sep)):  # realpath drops the slash: "sub/" would write "sub"
        raise FileError("a name ending in / is a folder, not a file", shown, verb)
    try:
        st = os.stat(target)
        if not stat.S_ISREG(st.st_mode):  # renaming over /dev/null or a FIFO replaces it
            raise FileError("it is not a regular file", shown, verb)
        mode = stat.S_IMODE(st.st_mode)
        if not os.access(target, os.W_OK):  # replacing would succeed, but it was read-only
            raise PermissionError(errno.EACCES, "permission denied")
    except FileNotFoundError:
        mode = 0o666 & ~_umask()
    except OSError as exc:
        raise FileError(os_reason(exc, True, _named(shown, target)), shown, verb) from exc
    return target, mode


def _named(shown: str, target: str) -> str | None:
    """The folder a message about ``shown`` should name: the one it resolves into, when the
    name alone does not say it (a relative name, or a link into another folder)."""
    folder = os.path.dirname(target)
    plain = os.path.isabs(os.path.expanduser(shown)) and \
        os.path.dirname(os.path.abspath(os.path.expanduser(shown))) == folder
    return None if plain else folder


def _is_stream(path: str) -> bool:
    try:
        mode = os.stat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


class Stream:
    """A device or pipe opened for writing, not replaced (see open_stream)."""

    def __init__(self, fd: int, shown: str, verb: str) -> None:
        self.fd, self.shown, self.verb = fd, shown, verb

    def write(self, data: bytes) -> None:
        """All of ``data``, then closed; FileError in one sentence."""
        try:
            os.set_blocking(self.fd, True)  # a reader slower than the data: wait for it
            with os.fdopen(self.fd, "wb", closefd=False) as f:
                f.write(data)
        except OSError as exc:
            reason = ("the reader closed the pipe" if exc.errno == errno.EPIPE
                      else os_reason(exc, True))
            raise FileError(reason, self.shown, self.verb) from exc
        finally:
            self.close()

    def close(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def open_stream(path: str | os.PathLike, verb: str = "write") -> Stream | None:
    """For the command line: the device or pipe ``path`` names, opened now, so that a FIFO
    nobody reads is said before the work whose result goes there and its reader, once there,
    is held until the result comes; None for any other name (atomic_write's)."""
    shown = os.fspath(path)
    target = os.path.expanduser(shown)  # as named, not resolved: /dev/fd/63 is a pipe
    if not _is_stream(target):
        return None
    try:  # without waiting: a FIFO nobody reads is said at once, not a hang
        fd = os.open(target, os.O_WRONLY | os.O_NONBLOCK)
    except OSError as exc:
        reason = ("it is a pipe that nothing reads from" if exc.errno == errno.ENXIO
                  else os_reason(exc, True))
        raise FileError(reason, shown, verb) from exc
    return Stream(fd, shown, verb)


def _umask() -> int:
    old = os.umask(0o022)
    os.umask(old)
    return old


def _fsync_dir(directory: str) -> None:
    # makes the rename itself durable; not possible everywhere (Windows), so best effort
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def os_reason(exc: OSError, writing: bool = False, folder: str | None = None) -> str:
    """Why ``exc`` stopped a read or a write, in a few words; ``folder``: the folder to name
    when the file's own name does not say which it is."""
    if isinstance(exc, PermissionError):
        return "permission denied"
    if isinstance(exc, FileNotFoundError):
        if not writing:
            return "no such file"
        made_in = os.path.dirname(os.fspath(exc.filename or "")) if exc.filename else ""
        if made_in and os.path.isdir(made_in):  # /proc, say: there, but nothing can be made
            return "files cannot be created in its folder"
        if folder:  # a relative name, or a link: the folder in full, not where one thinks
            return f"its folder {short_path(folder)} does not exist"
        return "its folder does not exist"
    if isinstance(exc, NotADirectoryError):  # notes.txt/x.npz: a part of the path is a file
        return "a part of its path is a file, not a folder"
    return (exc.strerror or str(exc)).lower()


def discard_unwritten(stream) -> None:
    """Point ``stream``'s descriptor at /dev/null after a write to it failed: what is left in
    its buffer, and all written after, goes nowhere, where the interpreter's flush at exit
    would fail again (a traceback, or exit status 120)."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, stream.fileno())
        finally:
            os.close(null)


def write_stdout(data: str | bytes) -> str | None:
    """Write ``data`` to standard output: None when written, or when the reader stopped
    reading (`attn-tui print | head` is fine); else one sentence why not (a full disk, a
    closed descriptor)."""
    out = sys.stdout
    if out is None:  # started with standard output closed (>&-)
        return "Cannot write to standard output: it is closed."
    try:
        if isinstance(data, bytes):
            out.buffer.write(data)
        else:
            out.write(data)
        out.flush()
    except BrokenPipeError:
        sys.stderr.close()  # nor a complaint from the interpreter's own flush at exit
    except (OSError, ValueError) as exc:  # ValueError: a closed file object
        discard_unwritten(out)
        reason = os_reason(exc, writing=True) if isinstance(exc, OSError) else "it is closed"
        return f"Cannot write to standard output: {reason}."
    return None
