"""A PNG writer for palette pictures, tuned for the board.

Pillow's encoder tries every PNG filter on every row of a palette picture and keeps the one
that looks best; on the board's flat colours the filters gain next to nothing and choosing
them costs a sixth of the encoding. This writer sends the rows unfiltered to zlib, but a row
like the one above it as zeros (the Up filter, found by one comparison), at the level
:data:`LEVEL` chosen by measurement (``python -m bench render`` prints the size and time of
each level over a set of mid-game boards).

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

from PIL import Image

__all__ = ["LEVEL", "encode"]

# Measured over 200 mid-game boards (see bench/bench_render.py): level 1 takes 12% less time
# than level 3 but its PNGs weigh 6% more than today's; level 3 weighs less than Pillow's own
# encoder at level 3 (the board drawn so far) and takes ~15% less time; level 4 saves 9% of
# the bytes for 40% more time.
LEVEL = 3
MEM_LEVEL = 8  # zlib's default; 9 is slower and larger on these pictures

_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def _chunk(kind: bytes, data: bytes) -> bytes:
    head = struct.pack(">I", len(data)) + kind
    return head + data + struct.pack(">I", zlib.crc32(data, zlib.crc32(kind)))


def _filtered(raw: bytes, width: int, height: int) -> list[bytes]:
    """The rows as PNG wants them, each after its filter byte: a row like the one above it
    is sent as zeros (filter Up), which deflate packs tighter than a copy of that row; the
    others unfiltered (None)."""
    same = b"\2" + bytes(width)
    out, above = [], b""
    for y in range(height):
        row = raw[y * width : (y + 1) * width]
        out.append(same if row == above else b"\0" + row)
        above = row
    return out


def encode(im: Image.Image, level: int = LEVEL) -> bytes:
    """The PNG of a palette (``P``) picture, deflated at ``level`` (see :func:`_filtered`)."""
    if im.mode != "P":
        raise ValueError(f"encode takes a palette picture, not mode {im.mode!r}")
    width, height = im.size
    raw = im.tobytes()
    rows = b"".join(_filtered(raw, width, height))
    z = zlib.compressobj(level, zlib.DEFLATED, 15, MEM_LEVEL, zlib.Z_DEFAULT_STRATEGY)
    idat = z.compress(rows) + z.flush()
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
