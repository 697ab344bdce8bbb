"""Safe writing: output paths checked, directory locks, atomic file and directory replacement.

Part of `planner.safeio` (which re-exports every name here; its docstring says the rules).
"""
from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import Callable, Iterator, Optional


from planner.safeio.read import TMP_TAG, OLD_TAG, InputError, PathLike, _kind


# --------------------------------------------------------------------------- output paths

def _refuse_special(path: Path, field: str) -> None:
    """Refuse the empty path, the working directory and its ancestors, `/` and $HOME."""
    if str(path) in ("", "."):
        raise InputError(f"{field}: {str(path)!r} names the working directory; give a new directory")
    try:
        real = path.resolve()
        cwd = Path.cwd().resolve()
    except (OSError, RuntimeError) as e:
        raise InputError(f"{field}: {path}: cannot resolve ({e})") from None
    if real == cwd or real in cwd.parents:
        raise InputError(f"{field}: {path} is the working directory or one of its parents; "
                         f"refusing to replace it (give a new directory)")
    home = Path.home().resolve() if os.environ.get("HOME") else None
    if real == Path(real.anchor) or (home is not None and real == home):
        raise InputError(f"{field}: {path} is {'/' if real == Path(real.anchor) else 'the home directory'}; "
                         f"refusing to replace it")


def _parent_ok(path: Path, field: str, create: bool = False) -> Path:
    """`path`'s folder, which may be written: it exists, or the nearest folder above it that exists is a
    writable directory (the missing folders are created when the file is written, `create`, as mkdir -p)."""
    parent = path.parent if str(path.parent) else Path(".")
    here, missing = parent, False
    while True:
        try:
            st = os.stat(here)
            break
        except FileNotFoundError:
            if here == here.parent:
                raise InputError(f"{field}: {path}: no folder of {parent} exists") from None
            here, missing = (here.parent if str(here.parent) else Path(".")), True
        except OSError as e:
            raise InputError(f"{field}: {path}: cannot use {here} ({e.strerror or e})") from None
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(f"{field}: {path}: {here} is not a directory")
    if not os.access(here, os.W_OK | os.X_OK):
        raise InputError(f"{field}: {path}: the directory {here} is not writable")
    if create and missing:
        try:
            os.makedirs(parent, exist_ok=True)
        except OSError as e:
            raise InputError(f"{field}: {path}: cannot create {parent} ({e.strerror or e})") from None
    return parent


def check_output_file(path: PathLike, field: str = "report") -> Path:
    """Before any work: `path` may be written (a new file, or a regular file to replace)."""
    name = os.fspath(path)
    if not name:
        raise InputError(f"{field}: empty path")
    if "\0" in name:
        raise InputError(f"{field}: path contains a NUL byte")
    p = Path(name)
    if name.endswith(os.sep) or name in (".", ".."):
        raise InputError(f"{field}: {name} names a directory; give a file name")
    _parent_ok(p, field)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        return p
    except OSError as e:
        raise InputError(f"{field}: {name}: cannot use ({e.strerror or e})") from None
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{field}: {name} is {_kind(st.st_mode)}; refusing to replace it")
    return p


def _is_empty_dir(p: Path) -> bool:
    with os.scandir(p) as it:
        return next(it, None) is None


def check_output_dir(out: PathLike, force: bool, field: str = "out") -> Path:
    """Before any work: `out` may become a bundle (absent, an empty directory, or with
    `force` a directory to replace). Not the working directory nor one of its parents."""
    name = os.fspath(out)
    if not name:
        raise InputError(f"{field}: empty path; give a directory for the bundle")
    if "\0" in name:
        raise InputError(f"{field}: path contains a NUL byte")
    p = Path(name)
    _refuse_special(p, field)
    _parent_ok(Path(os.path.normpath(name)), field)
    try:
        st = os.lstat(p)
    except FileNotFoundError:
        return p
    except OSError as e:
        raise InputError(f"{field}: {name}: cannot use ({e.strerror or e})") from None
    if stat.S_ISLNK(st.st_mode):
        raise InputError(f"{field}: {name} is a symbolic link; give the directory itself")
    if not stat.S_ISDIR(st.st_mode):
        raise InputError(f"{field}: {name} exists and is not a directory ({_kind(st.st_mode)})")
    if not force and not _is_empty_dir(p):
        raise InputError(f"{field}: {name} exists and is not empty (use --force)")
    return p


# --------------------------------------------------------------------------- locking

@contextlib.contextmanager
def dir_lock(directory: PathLike) -> Iterator[None]:
    """An exclusive flock on `directory` itself: writers into one directory take turns.
    The kernel drops it when the holder dies, so a killed writer never blocks the next."""
    fd = os.open(os.fspath(directory), os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)        # releases the lock


def _fsync_path(path: PathLike, directory: bool = False) -> None:
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    fd = os.open(os.fspath(path), flags)
    try:
        os.fsync(fd)
    except OSError as e:          # some file systems cannot fsync a directory
        if e.errno not in (errno.EINVAL, errno.ENOTSUP, errno.EBADF):
            raise
    finally:
        os.close(fd)


def _fsync_tree(root: Path) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for f in files:
            p = os.path.join(dirpath, f)
            if os.path.isfile(p) and not os.path.islink(p):
                _fsync_path(p)
        _fsync_path(dirpath, directory=True)


# --------------------------------------------------------------------------- writing a file

def atomic_write_text(path: PathLike, text: str, field: str = "report") -> Path:
    """Write `text` to `path` (UTF-8) via a temp file beside it, fsync and os.replace;
    only a new file or a regular file is replaced; missing parent folders are created."""
    p = check_output_file(path, field)
    parent = _parent_ok(p, field, create=True)
    data = text.encode("utf-8")
    with dir_lock(parent):
        check_output_file(p, field)                    # again, under the lock
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=str(parent))
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o644)
            os.replace(tmp, p)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
            raise
        _fsync_path(parent, directory=True)
    return p


# --------------------------------------------------------------------------- writing a directory

_HELD: dict[str, int] = {}          # temp dir -> fd holding its flock (this process is writing it)


def make_temp_dir(out: PathLike, field: str = "out") -> Path:
    """A new temporary directory beside `out`, flocked by this process until
    `atomic_replace_dir` (or `discard_temp_dir`) releases it."""
    out = Path(os.path.normpath(os.fspath(out)))
    parent = _parent_ok(out, field, create=True)
    with dir_lock(parent):          # a cleaner (under the same lock) never sees it unlocked
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}{TMP_TAG}", dir=str(parent)))
        fd = os.open(tmp, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
        fcntl.flock(fd, fcntl.LOCK_EX)
        _HELD[str(tmp)] = fd
    return tmp


def _release(tmp: Path) -> None:
    fd = _HELD.pop(str(tmp), None)
    if fd is not None:
        os.close(fd)


def discard_temp_dir(tmp: PathLike) -> None:
    tmp = Path(tmp)
    shutil.rmtree(tmp, ignore_errors=True)
    _release(tmp)


def _dead(p: Path) -> bool:
    """True when no live process holds the flock of the temp/aside directory `p`."""
    if str(p) in _HELD:
        return False
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except OSError:
        return False
    finally:
        os.close(fd)


def clean_stale(out: PathLike) -> None:
    """Call under `dir_lock(parent)`: restore an OUT a killed writer had moved aside (when
    OUT is missing), then remove the temp and aside directories of dead writers."""
    out = Path(out)
    parent = out.parent
    try:
        names = os.listdir(parent)
    except OSError:
        return
    asides = sorted(parent / n for n in names if n.startswith(f".{out.name}{OLD_TAG}"))
    temps = [parent / n for n in names if n.startswith(f".{out.name}{TMP_TAG}")]
    for aside in asides:
        if not _dead(aside):
            continue
        kept = aside / "bundle"
        if not os.path.lexists(out) and kept.is_dir():
            os.rename(kept, out)                       # the old OUT, back in place
        shutil.rmtree(aside, ignore_errors=True)
    for tmp in temps:
        if _dead(tmp):
            shutil.rmtree(tmp, ignore_errors=True)


def atomic_replace_dir(tmp: PathLike, out: PathLike, force: bool = False, field: str = "out") -> Path:
    """Move the finished directory `tmp` (from `make_temp_dir(out)`) into place as `out`.
    Under an exclusive lock of the parent: OUT must be absent or an empty directory, or
    with `force` a directory, which is moved aside, replaced and then removed. A kill at
    any moment leaves OUT old (or absent, restored by the next writer) or new, complete."""
    tmp = Path(tmp)
    out = Path(os.path.normpath(os.fspath(out)))
    parent = out.parent
    try:
        _fsync_tree(tmp)
        with dir_lock(parent):
            clean_stale(out)
            check_output_dir(out, force, field)          # again, under the lock
            aside = None
            if os.path.lexists(out):
                if _is_empty_dir(out):
                    os.rmdir(out)
                else:
                    aside = Path(tempfile.mkdtemp(prefix=f".{out.name}{OLD_TAG}", dir=str(parent)))
                    afd = os.open(aside, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
                    fcntl.flock(afd, fcntl.LOCK_EX)
                    _HELD[str(aside)] = afd
                    os.rename(out, aside / "bundle")   # the old OUT, intact, until the new one is in place
            try:
                os.rename(tmp, out)
            except BaseException:
                if aside is not None and (aside / "bundle").exists():
                    os.rename(aside / "bundle", out)
                raise
            finally:
                if aside is not None:
                    shutil.rmtree(aside, ignore_errors=True)
                    _release(aside)
            _fsync_path(parent, directory=True)
    except BaseException:
        discard_temp_dir(tmp)
        raise
    _release(tmp)
    return out


def write_dir_atomic(out: PathLike, fill: Callable[[Path], None], *, force: bool = False,
                     field: str = "out") -> Path:
    """Check `out`, let `fill(tmp)` write the new directory beside it, then
    `atomic_replace_dir`. An exception in `fill` leaves OUT as it was and no temp dir."""
    check_output_dir(out, force, field)
    tmp = make_temp_dir(out, field)
    try:
        fill(tmp)
    except BaseException:
        discard_temp_dir(tmp)
        raise
    return atomic_replace_dir(tmp, out, force, field)


def reject_special_output(path: Optional[PathLike], field: str) -> None:
    """For `--out` / `--report` given as '' (argparse keeps it): say so."""
    if path is not None and not os.fspath(path):
        raise InputError(f"{field}: empty path")
