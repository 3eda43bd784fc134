"""A PNG writer for palette pictures, tuned for the board.

Pillow's encoder tries every PNG filter on every row of a palette picture and keeps the one
that looks best; on the board's flat colours the filters gain next to nothing and choosing
them costs a sixth of the encoding. This writer sends the rows unfiltered (each row's filter
byte put in front of it by one paste, in C) to deflate, at the level chosen by measurement
(``python -m bench render`` prints the size and time of each level over a set of mid-game
boards): zlib-ng's when it is installed (:data:`DEFLATE`, a dependency on every platform it
has wheels for), else the standard library's zlib.

>>> from PIL import Image
>>> im = Image.new("P", (4, 2), 1)
>>> im.putpalette([0, 0, 0, 255, 255, 255])
>>> data = encode(im)
>>> data[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import struct
import zlib
from types import ModuleType

from PIL import Image

__all__ = ["DEFLATE", "LEVEL", "encode", "rows"]

# The deflate implementation in use: zlib-ng (the same format, made in half the time of
# zlib's) or the standard library's zlib.
DEFLATE: ModuleType
try:
    from zlib_ng import zlib_ng as DEFLATE
except ImportError:  # pragma: no cover - zlib-ng has wheels wherever the bot runs
    DEFLATE = zlib

# Measured over 40 mid-game boards (see bench/bench_render.py), in ms of CPU per board and
# size against the PNGs of before issue 30 (Pillow's encoder, level 3): zlib level 1 2.8 ms,
# 105%; level 3 3.1 ms, 98.6%; zlib-ng level 1 1.0 ms, 124%; level 2 1.5 ms, 96.8%; level 3
# 2.0 ms, 91.6%. zlib-ng's level 2 is the fastest no larger than before; zlib's level 3 the
# fastest no larger with the standard library. Filtering the rows (Sub, Up, Pillow's choice
# per row) made them larger at every level of both.
LEVEL = 2 if DEFLATE is not zlib else 3

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    head = struct.pack(">I", len(data)) + kind
    return head + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def rows(im: Image.Image) -> bytes:
    """The picture's rows as PNG wants them, each after its filter byte (0: unfiltered): the
    picture pasted one pixel right of a column of zeros."""
    wide = Image.new("P", (im.width + 1, im.height), 0)
    wide.paste(im, (1, 0))
    return wide.tobytes()


def encode(im: Image.Image, level: int = LEVEL, deflate: ModuleType = DEFLATE) -> bytes:
    """The PNG of a palette (``P``) picture, its rows unfiltered, deflated at ``level`` (by
    ``deflate``, zlib or zlib-ng: the benchmark compares them)."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette picture, not mode {im.mode!r}")
    width, height = im.size
    idat = deflate.compress(rows(im), level)
    palette = bytes(im.getpalette() or [])  # RGB triples
    header = struct.pack(">IIBBBBB", width, height, 8, 3, 0, 0, 0)  # 8-bit indices
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"PLTE", palette),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )
