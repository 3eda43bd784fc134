"""A sequence of boards as one animated picture, to share a whole game in a chat.

Each frame is the board :func:`render.render_board` draws (so the animation reads exactly as the
game's pictures did), decoded and stitched into a GIF: every chat client plays GIFs inline, and
the frames share the theme's palette, so GIF's 256 colours lose nothing. Pillow writes each frame
after the first as the rectangle that changed, so a frame usually costs a few kilobytes.

>>> from engine import Position
>>> from render import BoardView
>>> boards = [(Position.initial(), BoardView()), (Position.initial(), BoardView(dice=(3, 1)))]
>>> animate_boards(boards)[:6]
b'GIF89a'
"""

from __future__ import annotations

import io
from collections.abc import Sequence

from PIL import Image

from engine import Position
from render.board import palette
from render.picture import render_board
from render.view import BoardView

__all__ = ["FRAME_MS", "LAST_MS", "MAX_BYTES", "animate_boards"]

FRAME_MS = 1200  # how long each action stays on screen
LAST_MS = 6000  # the final position stays longer before the animation starts again
# Discord takes attachments up to 10 MiB from a bot in any server; a margin for the message.
MAX_BYTES = 8 * 1024 * 1024
# Sizes tried in turn when the whole game does not fit in MAX_BYTES (a long match).
SCALES = (1.0, 0.75, 0.5)


def animate_boards(
    boards: Sequence[tuple[Position, BoardView]],
    *,
    frame_ms: int = FRAME_MS,
    last_ms: int = LAST_MS,
    max_bytes: int = MAX_BYTES,
) -> bytes | None:
    """An animated GIF with one frame per ``(position, view)`` (as for :func:`render_board`),
    at full size or smaller so that it fits in ``max_bytes``; None when even the smallest
    size does not fit. Frames of different heights (a band for an offer or a result) are
    padded at the bottom with the board's background.

    :raises ValueError: when ``boards`` is empty, or as :func:`render_board` does.
    """
    if not boards:
        raise ValueError("an animation needs at least one board")
    pictures = [Image.open(io.BytesIO(render_board(p, view=v))) for p, v in boards]
    durations = [frame_ms] * (len(pictures) - 1) + [last_ms]
    frames = _same_size(pictures)
    colours = palette(boards[0][1].theme)
    for scale in SCALES:
        data = _gif(_scaled(frames, scale, colours), durations)
        if len(data) <= max_bytes:
            return data
    return None


def _same_size(pictures: Sequence[Image.Image]) -> list[Image.Image]:
    """Every picture on a canvas of the largest width and height, in its palette's colours."""
    width = max(p.width for p in pictures)
    height = max(p.height for p in pictures)
    out = []
    for picture in pictures:
        rgb = picture.convert("RGB")
        if rgb.size != (width, height):
            canvas = Image.new("RGB", (width, height), rgb.getpixel((0, rgb.height - 1)))
            canvas.paste(rgb, (0, 0))
            rgb = canvas
        out.append(rgb)
    return out


def _scaled(frames: list[Image.Image], scale: float, colours: Image.Image) -> list[Image.Image]:
    """The frames at ``scale``, mapped to the theme's palette ``colours`` (every board of a
    theme is drawn from those 256: at full size the mapping is exact)."""
    if scale != 1.0:
        size = (round(frames[0].width * scale), round(frames[0].height * scale))
        frames = [f.resize(size, Image.Resampling.LANCZOS) for f in frames]
    return [f.quantize(palette=colours, dither=Image.Dither.NONE) for f in frames]


def _gif(frames: list[Image.Image], durations: list[int]) -> bytes:
    out = io.BytesIO()
    frames[0].save(
        out,
        "GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        disposal=1,  # each frame stays under the next: only what changed is stored
        optimize=True,  # what is unchanged since the last frame becomes transparent
    )
    return out.getvalue()
