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
from typing import TYPE_CHECKING

from PIL import Image

if TYPE_CHECKING:
    from PIL._imaging import ImagingCore as Core

__all__ = ["DEFLATE", "LEVEL", "RGB_LEVEL", "encode", "encode_rgb", "rows"]

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

RGB_LEVEL = 6
"""The level of the charts (RGB pictures of a few hundred colours): with zlib-ng, 2 ms and
about 14 KB a chart where Pillow's optimized encoder took 30 ms for 10 KB (and its level 6,
with its filters, 8.5 ms for 13 KB)."""

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    head = struct.pack(">I", len(data)) + kind
    return head + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def rows(im: Image.Image) -> bytes:
    """The picture's rows as PNG wants them, each after its filter byte (0: unfiltered).

    >>> im = Image.new("P", (2, 2), 7)
    >>> rows(im)
    b'\\x00\\x07\\x07\\x00\\x07\\x07'
    """
    return b"\0" + _padded(im)[:-1]


def _padded(im: Image.Image) -> bytes:
    """The picture's rows (``P`` or ``RGB``), each followed by a zero byte: Pillow's raw
    encoder given a stride one byte longer than a row (one pass, in C); a zero in front and
    the last one dropped make PNG's rows, each after its filter byte."""
    row = im.width * len(im.getbands())
    return raw(im.im, (0, 0, im.width, im.height), row + 1)


def raw(core: Core, box: tuple[int, int, int, int], stride: int) -> bytes:
    """The bytes of ``box`` of Pillow's own image ``core``, ``stride`` bytes a row (a row's
    bytes, then zeros), read by Pillow's raw encoder straight from the box: no copy of it
    cropped first.

    >>> raw(Image.new("P", (3, 2), 7).im, (1, 0, 3, 2), 3)
    b'\\x07\\x07\\x00\\x07\\x07\\x00'
    """
    encoder = Image._getencoder(core.mode, "raw", (core.mode, stride, 1))
    encoder.setimage(core, box)
    size = stride * (box[3] - box[1])
    chunks = []
    while True:
        _, status, data = encoder.encode(size)
        chunks.append(data)
        if status:
            break
    if status < 0:
        raise ValueError(f"encoder error {status} reading the pixels")
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def _deflate(im: Image.Image, level: int, deflate: ModuleType) -> bytes:
    """The deflated rows of :func:`rows`, fed as the first filter byte then the padded rows
    but their last byte (no copy of the rows to join them)."""
    stream = deflate.compressobj(level)
    padded = memoryview(_padded(im))
    out: bytes = stream.compress(b"\0") + stream.compress(padded[:-1]) + stream.flush()
    return out


def encode_rgb(im: Image.Image, level: int = RGB_LEVEL) -> bytes:
    """The PNG of an RGB picture (a chart), its rows unfiltered, deflated at ``level``: the
    same pixels as Pillow's encoder gives, in a tenth of the time of its optimized mode.

    >>> from io import BytesIO
    >>> im = Image.new("RGB", (3, 2), (10, 20, 30))
    >>> Image.open(BytesIO(encode_rgb(im))).tobytes() == im.tobytes()
    True
    """
    if im.mode != "RGB":
        raise ValueError(f"encode_rgb takes an RGB picture, not mode {im.mode!r}")
    width, height = im.size
    idat = _deflate(im, level, DEFLATE)
    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)  # 8 bits a channel, RGB
    return b"".join(
        (
            _SIGNATURE,
            _chunk(b"IHDR", header),
            _chunk(b"IDAT", idat),
            _chunk(b"IEND", b""),
        )
    )


def encode(im: Image.Image, level: int = LEVEL, deflate: ModuleType = DEFLATE) -> bytes:
    """The PNG of a palette (``P``) picture, its rows unfiltered, deflated at ``level`` (by
    ``deflate``, zlib or zlib-ng: the benchmark compares them)."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette picture, not mode {im.mode!r}")
    width, height = im.size
    idat = _deflate(im, level, deflate)
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
