"""Draw the README's sample pictures: ``python -m render.write_samples docs/``."""

from __future__ import annotations

import sys
from pathlib import Path

from render.picture import render_board
from render.samples import SAMPLES

__all__ = ["main"]


def main(argv: list[str] | None = None) -> int:
    """Write every sample as ``board-<name>.png`` into the folder given (default ``docs``)."""
    args = sys.argv[1:] if argv is None else argv
    folder = Path(args[0] if args else "docs")
    folder.mkdir(parents=True, exist_ok=True)
    for name, make in SAMPLES.items():
        position, view = make()
        data = render_board(position, view=view)
        (folder / f"board-{name}.png").write_bytes(data)
        print(f"{folder / f'board-{name}.png'}: {len(data):,} bytes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
