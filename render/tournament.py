"""Tournament pictures: a knockout bracket and a standings table, as PNG bytes.

The renderer knows nothing of tournaments' rules: the caller (the bot) turns its brackets and
standings into the plain values below (:class:`BracketPicture`, :class:`StandingsTable`) and
gets a picture back, in the viewer's language.

The pictures live in :mod:`render.tournament_bracket` and :mod:`render.tournament_table`, what
they share in :mod:`render.tournament_draw`, their words in :mod:`render.tournament_labels`.

Names are fitted by design: a long name first gets a smaller type, then two lines, and only a
name too long even for that ends with an ellipsis (between letters, never through one). Both
pictures are at most :data:`PHONE_WIDTH` wide and names never smaller than :data:`NAME_SIZE`:
scaled to a phone's 380 pixels, a name is at least 10 pixels high.

>>> final = BracketGame(Entrant("Ann", seed=1, score=5), Entrant("Bob", seed=2, score=3), winner=0)
>>> png = render_bracket(BracketPicture(rounds=((final,),), champion="Ann"))
>>> png[:4]
b'\\x89PNG'
>>> row = StandingsRow(1, "Ann", ("2", "4", "3", "2"))
>>> render_standings(StandingsTable("swiss", (row,), lang="fr"))[:4]
b'\\x89PNG'
"""

from __future__ import annotations

from render.tournament_bracket import (
    PHONE_WIDTH,
    BracketGame,
    BracketPicture,
    Entrant,
    render_bracket,
)
from render.tournament_draw import NAME_SIZE, FittedName, fit_name
from render.tournament_table import (
    COLUMNS,
    StandingsRow,
    StandingsTable,
    TableFormat,
    render_standings,
)

__all__ = [
    "COLUMNS",
    "NAME_SIZE",
    "PHONE_WIDTH",
    "BracketGame",
    "BracketPicture",
    "Entrant",
    "FittedName",
    "StandingsRow",
    "StandingsTable",
    "TableFormat",
    "fit_name",
    "render_bracket",
    "render_standings",
]
