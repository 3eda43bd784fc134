"""Names inside Discord markdown: a person's name is his to choose, and must stay plain text.

A nickname like ``@everyone [Free Nitro](https://evil.example/x) <@&555> # BIG`` would
otherwise show as a clickable masked link and a fake role mention in the bot's public messages,
and ``**``, ``||`` or backticks would break the lines around it. :func:`escape_name` makes any
name read literally wherever a message puts it (the message catalog applies it to every name
parameter, :data:`NAME_PARAMS`); pictures and code blocks, where markdown does not apply, keep
the name as it is (:data:`RAW_MESSAGES`). Pure standard library: the service has no Discord.
"""

from __future__ import annotations

import re

__all__ = ["NAME_PARAMS", "RAW_MESSAGES", "escape_code", "escape_name", "escape_play"]

NAME_PARAMS = frozenset(
    {"name", "p0", "p1", "challenger", "opponent", "offerer", "loser", "winner", "champion"}
)
"""The message parameters that hold a person's name."""

# Captions drawn in pictures: a play made by itself (caption.numbered holds one), and the
# frames of /replay.
_CAPTIONS = ("caption.played", "caption.forced", "caption.numbered")
_REPLAY_CAPTIONS: tuple[str, ...] = ("line", "line_game", "opening", "opening_tie", "roll")
_REPLAY_CAPTIONS += ("move", "cannot_move", "double", "take", "drop", "resign", "accept", "reject")
_REPLAY_CAPTIONS += ("forfeit", "end")

RAW_MESSAGES = frozenset(
    {"board.row", "stats.chart_title", "terminal.welcome", "terminal.as", "tournament.thread_name"}
    | set(_CAPTIONS)
    | {f"replay.{key}" for key in _REPLAY_CAPTIONS}
)
"""Messages whose names are not read as markdown: inside a code block (the leaderboard's rows,
which only replace backticks), drawn in a picture, printed by the terminal to its user, or a
thread's name (never read as markdown)."""

# Marks that format text anywhere in a line (Discord's markdown: bold, italics, underline,
# strike, spoilers, code, masked links, mentions and custom emoji in <...>), and the escape.
_INLINE = re.compile(r"([\\*_~`|\[\]<>])")
# Marks that format a whole line when they begin it: headings, subtext, quotes, lists.
_LINE_START = re.compile(r"^(\s*)([#>\-+])")
_NUMBERED = re.compile(r"^(\s*\d+)\.")  # "1. " begins a numbered list: escape its dot
_MASS_MENTION = re.compile(r"@(everyone|here)", re.IGNORECASE)


def escape_name(name: str) -> str:
    """``name`` as plain text in Discord markdown: every mark escaped with a backslash (which
    Discord shows as nothing), ``@everyone`` and ``@here`` broken by a zero-width space, links
    made inert, and the name on one line.

    >>> print(escape_name("**Bold** [x](https://e.example) <@&5> # BIG"))
    \\*\\*Bold\\*\\* \\[x\\](https\\://e.example) \\<@&5\\> # BIG
    >>> print(escape_name("# Heading"), escape_name("1. First"), escape_name("Alice"))
    \\# Heading 1\\. First Alice
    >>> escape_name("@everyone") == "@\\u200beveryone"
    True
    """
    text = " ".join(str(name).splitlines())
    text = _INLINE.sub(r"\\\1", text)
    text = _MASS_MENTION.sub("@\u200b\\1", text)
    text = text.replace("://", "\\://")  # no bare link: https\:// is not a URL to Discord
    text = _NUMBERED.sub(r"\1\\.", text)
    return _LINE_START.sub(r"\1\\\2", text)


def escape_code(text: str) -> str:
    """``text`` (a person's input) safe inside a code span: a backtick would close it.

    >>> escape_code("8/5`@everyone`")
    "8/5'@everyone'"
    """
    return str(text).replace("`", "'")


def escape_play(play: str) -> str:
    """A play in notation, its hits' ``*`` kept in Discord markdown: two of them on a message's
    lines (``20/17 7/5*`` and ``7/5* 7/4``) would be read as italics and vanish.

    >>> print(escape_play("bar/22* 21/20"))
    bar/22\\* 21/20
    """
    return play.replace("*", "\\*")
