"""``backgammon-bot``: the console entry point."""

from __future__ import annotations

import sys


def main(argv: list[str] | None = None) -> int:
    """Run the bot. (The Discord and terminal adapters land with the bot issue.)"""
    print("backgammon-bot: the Discord and terminal adapters are not built yet.", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
