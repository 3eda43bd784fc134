"""The words of the tournament pictures (brackets and standings), in each language.

Kept apart from :mod:`render.labels` (the board's words) so the two grow independently; the same
rules hold: every language has the same keys and the same ``str.format`` fields (a test
enforces it).

>>> tlabel("fr", "round_n", n=2)
'2e tour'
>>> round_name("en", rounds=5, index=4), round_name("fr", rounds=5, index=1)
('Final', 'Huitièmes de finale')
"""

from __future__ import annotations

__all__ = ["TOURNAMENT_LABELS", "round_name", "tlabel"]

TOURNAMENT_LABELS: dict[str, dict[str, str]] = {
    "en": {
        "round_1": "Round 1",
        "round_n": "Round {n}",
        "round_of_16": "Round of 16",
        "quarter_finals": "Quarter-finals",
        "semi_finals": "Semi-finals",
        "final": "Final",
        "champion": "Champion",
        "bye": "bye",
        "to_be_decided": "to be decided",
        "rank": "#",
        "player": "Player",
        "played": "Played",
        "wins": "Won",
        "losses": "Lost",
        "difference": "Diff.",
        "score": "Score",
        "buchholz": "Buchholz",
        "sonneborn_berger": "SB",
        "points": "Points",
        "best_streak": "Best run",
        "performance": "Perf.",
        "rows_of": "{first}–{last} of {total}",
        "rules_round_robin": "Ties: match wins, then points difference, then head-to-head.",
        "rules_swiss": "Ties: score, then Buchholz, then Sonneborn-Berger (SB).",
        "rules_arena": (
            "Win 2, gammon 3, backgammon 4. After two wins in a row (▲), wins count double "
            "until a loss."
        ),
    },
    "fr": {
        "round_1": "1er tour",
        "round_n": "{n}e tour",
        "round_of_16": "Huitièmes de finale",
        "quarter_finals": "Quarts de finale",
        "semi_finals": "Demi-finales",
        "final": "Finale",
        "champion": "Vainqueur",
        "bye": "exempt",
        "to_be_decided": "à venir",
        "rank": "#",
        "player": "Joueur",
        "played": "Joués",
        "wins": "Gagnés",
        "losses": "Perdus",
        "difference": "Diff.",
        "score": "Score",
        "buchholz": "Buchholz",
        "sonneborn_berger": "SB",
        "points": "Points",
        "best_streak": "Meilleure série",
        "performance": "Perf.",
        "rows_of": "{first}–{last} sur {total}",
        "rules_round_robin": (
            "Départage : victoires, puis différence de points, puis confrontation directe."
        ),
        "rules_swiss": "Départage : score, puis Buchholz, puis Sonneborn-Berger (SB).",
        "rules_arena": (
            "Victoire 2, gammon 3, backgammon 4. Après deux victoires de suite (▲), les "
            "victoires comptent double jusqu'à une défaite."
        ),
    },
}


def tlabel(lang: str, key: str, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``fields`` filled in.

    :raises ValueError: for a language that has no table.
    """
    table = TOURNAMENT_LABELS.get(lang)
    if table is None:
        raise ValueError(
            f"no tournament labels for language {lang!r}; choose one of {sorted(TOURNAMENT_LABELS)}"
        )
    text = table[key]
    return text.format(**fields) if fields else text


_LAST_ROUNDS = ("final", "semi_finals", "quarter_finals", "round_of_16")


def round_name(lang: str, *, rounds: int, index: int) -> str:
    """The name of round ``index`` (0 first) of a knockout of ``rounds`` rounds: the last four
    have their names (final, semi-finals, ...), the earlier ones a number.

    >>> [round_name("en", rounds=6, index=i) for i in range(3)]
    ['Round 1', 'Round 2', 'Round of 16']
    """
    from_end = rounds - 1 - index
    if from_end < len(_LAST_ROUNDS):
        return tlabel(lang, _LAST_ROUNDS[from_end])
    return tlabel(lang, "round_1") if index == 0 else tlabel(lang, "round_n", n=index + 1)
