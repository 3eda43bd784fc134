"""The last play drawn as arrows: where each checker came from and where it went, hits marked.

The moves are replayed from the position before the play (rebuilt by undoing them), so each
arrow starts at the exact checker that left and ends at the exact checker that arrived, even
when several checkers leave or reach one point or one checker moves twice.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from PIL import Image, ImageDraw

from engine import IllegalPlayError, Move, Position
from engine.position import apply_step
from render import geometry as g
from render.view import BoardView, Side

__all__ = ["Step", "draw_arrow", "trace", "trace_compared"]

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
    try:
        cells = list(pos.undo_steps(moves).board)
    except IllegalPlayError:
        raise _mismatch(moves, position) from None
    off = pos.borne_off()[0] - sum(1 for m in moves if m.dst == 0)
    final = pos.board
    steps = []
    arrived: set[tuple[int, int]] = set()  # slots reached during the play: no ghost there
    for m in moves:
        # The slots (0 = the first checker of a stack) the checker leaves and reaches; a blot
        # it hits leaves the destination's first slot free.
        k_src = cells[m.src] - 1
        if m.dst == 0:
            k_dst, off = off, off + 1
        else:
            k_dst = max(cells[m.dst], 0)
        apply_step(cells, m.src, m.dst)
        start = _place(by, m.src, k_src, view)
        end = _place(by, m.dst, k_dst, view)
        # The origin slot is drawn as a ghost when the checker stood there before the play and
        # nothing stands there any more.
        ghost = (m.src, k_src) not in arrived and k_src < g.MAX_STACK and final[m.src] <= k_src
        arrived.add((m.dst, k_dst))
        steps.append(Step(start, end, m.hit, start if ghost else None))
    return _uncross(moves, steps)


def trace_compared(position: Position, view: BoardView) -> tuple[list[Step], list[Step]]:
    """The arrows of ``view.last_play`` and ``view.other_play``, both played by the mover
    *from* ``position``: each traced on the position it leads to, so that its arrows start at
    the checkers that leave and end where they arrive; no ghosts (nothing has left yet). The
    other play's arrows that would lie on one of ``last_play``'s are moved aside, so both show.

    :raises ValueError: when a play cannot be played from this position.
    """
    plays = []
    for moves in (view.moves(), view.other_moves()):
        try:
            after = position.apply_steps(moves)
        except (IllegalPlayError, ValueError):
            raise _mismatch(moves, position) from None
        alone = replace(view, last_play=moves, last_play_by="mover", other_play=None)
        plays.append([replace(s, ghost=None) for s in trace(after, alone)])
    best, other = plays
    taken = {(s.start, s.end) for s in best}
    aside = [replace(s, start=_aside(s.start), end=_aside(s.end)) for s in other]
    return best, [a if (s.start, s.end) in taken else s for s, a in zip(other, aside, strict=True)]


def _aside(xy: XY) -> XY:
    """A point a little to the left: where a second arrow on the same path runs."""
    return xy[0] - 12, xy[1]


def _uncross(moves: Sequence[Move], steps: list[Step]) -> list[Step]:
    """The steps with the checkers that go from one point to one other point (``4/3(2)``) paired
    so that their arrows run side by side instead of crossing in an X.

    Between two columns, two straight segments cross exactly when their ends come in the
    opposite order to their starts, so starts and ends are matched by height. The ghost stays
    with its start and the hit with its end.
    """
    groups: dict[tuple[int, int], list[int]] = {}
    for i, m in enumerate(moves):
        groups.setdefault((m.src, m.dst), []).append(i)
    out = list(steps)
    for indices in groups.values():
        if len(indices) < 2:
            continue
        starts = sorted(((steps[i].start, steps[i].ghost) for i in indices), key=lambda s: s[0][1])
        ends = sorted(((steps[i].end, steps[i].hit) for i in indices), key=lambda e: e[0][1])
        for i, (start, ghost), (end, hit) in zip(indices, starts, ends, strict=True):
            out[i] = Step(start, end, hit, ghost)
    return out


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


def _bends_back(a: XY, b: XY) -> bool:
    """Whether an arrow from ``a`` to ``b`` bends to the right of its way (seen from ``a``):
    always toward the middle of the field."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    dx, dy = b[0] - a[0], b[1] - a[1]
    return (g.BAR_CX - mx) * -dy + (g.MID_Y - my) * dx < 0


def _control(d: XY, back: bool) -> tuple[float, float]:
    """A control point that bends an arrow from (0, 0) to ``d`` toward the middle of the field
    (``back``: see :func:`_bends_back`), so an arrow along one row arcs over the checkers
    between its ends instead of running through them."""
    mx, my = d[0] / 2, d[1] / 2
    length = math.hypot(d[0], d[1]) or 1.0
    nx, ny = -d[1] / length, d[0] / length
    if back:
        nx, ny = -nx, -ny
    bend = min(0.22 * length, 90.0)
    return mx + nx * bend, my + ny * bend


Pts = list[tuple[float, float]]


def _shape(end: XY, back: bool, width: int) -> tuple[Pts, Pts]:
    """The shaft (a curve) and the head (a triangle) of an arrow from (0, 0) whose tip is
    ``end``."""
    pts = _bezier((0, 0), _control(end, back), end)
    # Aim the head along the curve's last stretch, and stop the shaft where the head begins.
    head_len, head_half = width * 2.8, width * 1.9
    (px, py), (ex, ey) = pts[-3], pts[-1]
    norm = math.hypot(ex - px, ey - py) or 1.0
    ux, uy = (ex - px) / norm, (ey - py) / norm
    bx, by = ex - ux * head_len, ey - uy * head_len
    head = [
        (ex, ey),
        (bx - uy * head_half, by + ux * head_half),
        (bx + uy * head_half, by - ux * head_half),
    ]
    shaft = [p for p in pts if (p[0] - ex) * ux + (p[1] - ey) * uy < -head_len * 0.6]
    return [*shaft, (bx, by)], head


def _mask(shaft: Pts, head: Pts, origin: XY, size: XY, width: float) -> Image.Image:
    """An anti-aliased mask of the arrow, drawn :data:`AA` times larger and scaled down."""
    m = Image.new("L", (size[0] * AA, size[1] * AA), 0)
    d = ImageDraw.Draw(m)
    line = [((x - origin[0]) * AA, (y - origin[1]) * AA) for x, y in shaft]
    tri = [((x - origin[0]) * AA, (y - origin[1]) * AA) for x, y in head]
    d.line(line, fill=255, width=round(width * AA), joint="curve")
    r = width * AA / 2  # a round tail
    d.ellipse((line[0][0] - r, line[0][1] - r, line[0][0] + r, line[0][1] + r), fill=255)
    d.polygon(tri, fill=255)
    return m.reduce(AA)


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
    origin, outline, body = _arrow_masks(start, end, width)
    im.paste(edge, origin, outline)
    im.paste(color, origin, body)


def _arrow_masks(start: XY, end: XY, width: int) -> tuple[XY, Image.Image, Image.Image]:
    """Where the arrow's masks go, its outline's and its body's (read only, shared): the masks
    of its shape (:func:`_masks`) moved to its start."""
    d = (end[0] - start[0], end[1] - start[1])
    (x, y), outline, body = _masks(d, _bends_back(start, end), width)
    return (start[0] + x, start[1] + y), outline, body


@lru_cache(maxsize=256)
def _masks(d: XY, back: bool, width: int) -> tuple[XY, Image.Image, Image.Image]:
    """The masks of an arrow from (0, 0) to ``d`` (bending ``back`` or not) and where they go.

    Drawing them (supersampled, a curved line with round joints) costs about 1 ms each. An
    arrow's shape is the same wherever it lies (a move of 5 pips from the 13-point as from
    the 11-point), so a few hundred shapes make nearly every arrow of a game: the same moves
    recur from game to game, and a play's arrows are drawn again on the next press. 256 of
    them take about 20 MB (a long arrow's two masks 250 KB, a short one's 30 KB)."""
    shaft, head = _shape(d, back, width)
    # The outline is the same arrow drawn fatter underneath: a wider shaft and a head grown by
    # the same margin (its corners pushed out from its centre).
    grow = 2
    cx, cy = sum(p[0] for p in head) / 3, sum(p[1] for p in head) / 3
    fat_head = [(x + (x - cx) * 0.35, y + (y - cy) * 0.35) for x, y in head]
    pad = int(width * 3 + 8)
    xs = [p[0] for p in shaft + fat_head]
    ys = [p[1] for p in shaft + fat_head]
    origin = (math.floor(min(xs)) - pad, math.floor(min(ys)) - pad)
    size = (math.floor(max(xs)) + pad - origin[0], math.floor(max(ys)) + pad - origin[1])
    outline = _mask(shaft, fat_head, origin, size, width + 2 * grow)
    return origin, outline, _mask(shaft, head, origin, size, width)
