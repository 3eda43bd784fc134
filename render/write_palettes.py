"""Store each theme's palette: ``python -m render.write_palettes`` (after a change to what the
board draws or to a theme's colours; a test says when the stored ones are out of date)."""

from __future__ import annotations

import json

from render.board import PALETTES, sample_palette
from render.theme import THEMES

__all__ = ["main"]


def main() -> int:
    """Find each theme's palette from the samples and write them to :data:`PALETTES`."""
    found = {name: sample_palette(name).getpalette() for name in sorted(THEMES)}
    PALETTES.write_text(json.dumps(found, separators=(",", ":")) + "\n")
    print(f"{PALETTES}: {len(found)} palettes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
