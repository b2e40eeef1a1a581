"""Reading a file someone hands the library, safely: only a regular file, opened without blocking (a FIFO never
hangs, ``/dev/zero`` is refused) and read up to a limit. One reader for every such file: a teacher's roster and
submissions (``classroom``) and a test collection's files (``runs.collection``).
"""

from __future__ import annotations

import os
import stat


class NotARegularFile(OSError):
    """A path that is a FIFO, a device, a folder or a symbolic link where a regular file was expected."""


def read_bytes_at_most(path, limit: int, follow_links: bool = True) -> bytes:
    """The bytes of a regular file, at most ``limit + 1`` of them (a longer file shows as ``limit + 1`` bytes).

    The file is opened without blocking (a FIFO never hangs) and checked with ``fstat`` on the open file
    (a link to ``/dev/zero`` is a device, not a regular file); ``follow_links=False`` refuses a symbolic
    link itself (``lstat``).

    Raises
    ------
    NotARegularFile
        For a FIFO, a device, a socket, a folder, or (``follow_links=False``) a symbolic link.
    OSError
        When the file cannot be opened or read.

    Examples
    --------
    >>> import os, tempfile
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "a.txt")
    ...     _ = open(path, "wb").write(b"12345")
    ...     read_bytes_at_most(path, 3), read_bytes_at_most(path, 10)
    (b'1234', b'12345')
    """
    path = os.fspath(path)
    if not follow_links and os.path.islink(path):
        raise NotARegularFile(f"'{path}' is a symbolic link, not a regular file")
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    if not follow_links:
        flags |= getattr(os, "O_NOFOLLOW", 0)
    descriptor = os.open(path, flags)
    try:
        mode = os.fstat(descriptor).st_mode
        if not stat.S_ISREG(mode):
            kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode)
                    else "a folder" if stat.S_ISDIR(mode) else "not a regular file")
            raise NotARegularFile(f"'{path}' is {kind}, not a regular file")
        chunks, left = [], limit + 1
        while left > 0:
            chunk = os.read(descriptor, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)
