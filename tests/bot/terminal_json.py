"""What the terminal tests share: type lines into a ``--json`` terminal and read its replies."""

from __future__ import annotations

import io
import json

from bot.terminal import Terminal


def replies(term: Terminal, *lines: str) -> list[dict[str, object]]:
    """Type ``lines``; the JSON replies they printed."""
    out = term.out
    assert isinstance(out, io.StringIO)
    start = len(out.getvalue().splitlines())
    term.run(lines)
    return [json.loads(line) for line in out.getvalue().splitlines()[start:]]
