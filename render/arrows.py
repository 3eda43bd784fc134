"""The last play drawn as arrows: where each checker came from and where it went, hits marked.

The moves are replayed from the position before the play (rebuilt by undoing them), so each
arrow starts at the exact checker that left and ends at the exact checker that arrived, even
when several checkers leave or reach one point or one checker moves twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine import Move, Position
from render import geometry as g
from render.view import BoardView, Side

__all__ = ["Step", "draw_arrow", "trace"]

XY = tuple[int, int]
AA = 3  # supersampling factor of the arrow masks


@dataclass(frozen=True, slots=True)
class Step:
    """One move of the last play, placed on the picture."""

    start: XY
    end: XY
    hit: bool
    ghost: XY | None  # an emptied slot where the checker stood, to draw faintly


def trace(position: Position, view: BoardView) -> list[Step]:
    """The arrows of ``view.last_play``, which led to ``position``.

    :raises ValueError: when the play cannot have led to this position.
    """
    moves = view.moves()
    if not moves:
        return []
    by: Side = view.last_play_by
    pos = position if by == "mover" else position.swap_players()
    cells = _undo(list(pos.board), moves, position)
    off = pos.borne_off()[0] - sum(1 for m in moves if m.dst == 0)
    final = pos.board
    steps = []
    arrived: set[tuple[int, int]] = set()  # slots reached during the play: no ghost there
    for m in moves:
        k_src = cells[m.src] - 1
        cells[m.src] -= 1
        if m.dst == 0:
            k_dst, off = off, off + 1
        else:
            if m.hit:
                cells[m.dst] = 0
            k_dst = cells[m.dst]
            cells[m.dst] += 1
        start = _place(by, m.src, k_src, view)
        end = _place(by, m.dst, k_dst, view)
        # The origin slot is drawn as a ghost when the checker stood there before the play and
        # nothing stands there any more.
        ghost = (m.src, k_src) not in arrived and k_src < g.MAX_STACK and final[m.src] <= k_src
        arrived.add((m.dst, k_dst))
        steps.append(Step(start, end, m.hit, start if ghost else None))
    return steps


def _undo(cells: list[int], moves: Sequence[Move], position: Position) -> list[int]:
    """The board (seen by the player who moved) before ``moves``."""
    for m in reversed(moves):
        if m.dst:
            cells[m.dst] -= 1
            if m.hit:
                if cells[m.dst] != 0 or cells[0] >= 0:
                    raise _mismatch(moves, position)
                cells[m.dst] = -1
                cells[0] += 1
            if cells[m.dst] < 0 and not m.hit:
                raise _mismatch(moves, position)
        cells[m.src] += 1
        if m.src != 25 and cells[m.src] <= 0:
            raise _mismatch(moves, position)
    return cells


def _mismatch(moves: Sequence[Move], position: Position) -> ValueError:
    steps = " ".join(f"{m.src}/{m.dst}{'*' if m.hit else ''}" for m in moves)
    return ValueError(f"last_play {steps} cannot have led to {position!r} (check last_play_by)")


def _place(by: Side, point: int, k: int, view: BoardView) -> XY:
    """A slot in the numbering of ``by`` as a pixel."""
    if point in (0, 25):
        k = min(k, 14 if point == 0 else g.MAX_STACK - 1)
        return g.checker_center(point, k, view=view, side=by)
    mover_point = point if by == "mover" else 25 - point
    return g.checker_center(mover_point, min(k, g.MAX_STACK - 1), view=view)


def _bezier(a: XY, c: tuple[float, float], b: XY, n: int = 20) -> list[tuple[float, float]]:
    out = []
    for i in range(n + 1):
        t = i / n
        u = 1 - t
        out.append(
            (
                u * u * a[0] + 2 * u * t * c[0] + t * t * b[0],
                u * u * a[1] + 2 * u * t * c[1] + t * t * b[1],
            )
        )
    return out


def _control(a: XY, b: XY) -> tuple[float, float]:
    """A control point that bends the arrow toward the middle of the field, so an arrow along
    one row arcs over the checkers between its ends instead of running through them."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    if (g.BAR_CX - mx) * nx + (g.MID_Y - my) * ny < 0:
        nx, ny = -nx, -ny
    bend = min(0.22 * length, 90.0)
    return mx + nx * bend, my + ny * bend


def draw_arrow(
    im: Image.Image,
    start: XY,
    end: XY,
    *,
    color: tuple[int, int, int],
    edge: tuple[int, int, int],
    width: int = 7,
) -> None:
    """An anti-aliased curved arrow from ``start`` to ``end`` (its tip), outlined by ``edge``."""
    pts = _bezier(start, _control(start, end), end)
    # Stop the shaft where the head begins, and aim the head along the curve's last stretch.
    head_len, head_half = width * 2.8, width * 1.9
    (px, py), (ex, ey) = pts[-3], pts[-1]
    ux, uy = ex - px, ey - py
    norm = math.hypot(ux, uy) or 1.0
    ux, uy = ux / norm, uy / norm
    base = (ex - ux * head_len, ey - uy * head_len)
    head = [
        (ex, ey),
        (base[0] - uy * head_half, base[1] + ux * head_half),
        (base[0] + uy * head_half, base[1] - ux * head_half),
    ]
    shaft = [p for p in pts if (p[0] - ex) * ux + (p[1] - ey) * uy < -head_len * 0.6]
    shaft.append(base)
    pad = int(head_half + width + 6)
    xs = [p[0] for p in pts] + [p[0] for p in head]
    ys = [p[1] for p in pts] + [p[1] for p in head]
    left, top = int(min(xs)) - pad, int(min(ys)) - pad
    right, bottom = int(max(xs)) + pad, int(max(ys)) + pad
    size = ((right - left) * AA, (bottom - top) * AA)

    def mask(grow: int) -> Image.Image:
        m = Image.new("L", size, 0)
        d = ImageDraw.Draw(m)
        line = [((x - left) * AA, (y - top) * AA) for x, y in shaft]
        tri = [((x - left) * AA, (y - top) * AA) for x, y in head]
        d.line(line, fill=255, width=(width + 2 * grow) * AA, joint="curve")
        r = (width / 2 + grow) * AA
        x0, y0 = line[0]
        d.ellipse((x0 - r, y0 - r, x0 + r, y0 + r), fill=255)
        d.polygon(tri, fill=255)
        if grow:
            d.line([*tri, tri[0]], fill=255, width=2 * grow * AA, joint="curve")
        return m.reduce(AA)

    box = (left, top)
    im.paste(edge, box, mask(2))
    im.paste(color, box, mask(0))
