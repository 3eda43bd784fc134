"""The few words drawn on a board, in each language the renderer speaks.

Point labels are numbers and need no translation; everything else the picture or the text board
says comes from here. Every language has exactly the same keys (a test enforces it), and
placeholders are ``str.format`` fields.

>>> label("fr", "wins", name="Alice")
'Alice gagne'
>>> points_text("en", 1), points_text("fr", 2)
('1 point', '2 points')
"""

from __future__ import annotations

__all__ = ["LABELS", "LANGUAGES", "counted", "label", "points_text", "result_text"]

LABELS: dict[str, dict[str, str]] = {
    "en": {
        "colon": ": ",
        "pips": "pips",
        "pips_one": "pip",
        "crawford": "Crawford",
        "match_to": "{n}-point match",
        "match_to_one": "{n}-point match",
        "money_game": "money game",
        "to_play": "to play",
        "all_played": "every die played",
        "none_playable": "nothing more can be played",
        "to_take": "to take or drop",
        "to_answer": "to accept or reject",
        "rolled": "rolled",
        "doubles": "doubles",
        "cube": "cube",
        "off": "off",
        "off_one": "off",
        "score": "score",
        "offers_double": "{name} offers a double",
        "resigns": "{name} offers to resign",
        "game_over": "game over",
        "wins": "{name} wins",
        "single": "single game",
        "gammon": "gammon",
        "backgammon": "backgammon",
        "point_one": "{n} point",
        "point_other": "{n} points",
        "position_id": "Position ID",
        # In the middle of a move: the checkers moved so far (the message's IDs give the
        # position the turn started from).
        "position_id_so_far": "Position ID so far",
        "player": "player",
        "opponent": "opponent",
        "chances_of": "{name}'s chances to win the game",
        "match_chances_of": "{name}'s chances to win the match",
        "ahead": "{name} ahead",
        "game_n": "Game {n}",
        "chosen_die": "die chosen",
        "card_move": "Move {move}: {name} rolled {roll}",
        "card_cube": "Move {move}: {name}'s cube decision",
        "card_move_match": "Game {game} of the match, move {move}: {name} rolled {roll}",
        "card_cube_match": "Game {game} of the match, move {move}: {name}'s cube decision",
        "card_choices": "Played: {played} · better: {best}",
        "card_played": "Played: {played}",
        "card_better": "Better: {best} · equity lost: {lost} millipoints",
        "card_lost": "Equity lost: {lost} millipoints",
        "card_no_move": "no move",
        "cube_no double": "no double",
        "cube_double": "double",
        "cube_take": "take",
        "cube_pass": "pass",
    },
    "fr": {
        "colon": " : ",  # French typography puts a space before a colon
        "pips": "pips",
        "pips_one": "pip",
        "crawford": "Crawford",
        "match_to": "match en {n} points",
        "match_to_one": "match en {n} point",
        "money_game": "partie libre",
        "to_play": "à jouer",
        "all_played": "tous les dés joués",
        "none_playable": "plus rien n’est jouable",
        "to_take": "accepte ou refuse",
        "to_answer": "accepte ou refuse",
        "rolled": "dés",
        "doubles": "doublet",
        "cube": "videau",
        "off": "sortis",
        "off_one": "sorti",
        "score": "score",
        "offers_double": "{name} propose de doubler",
        "resigns": "{name} propose d’abandonner",
        "game_over": "partie terminée",
        "wins": "{name} gagne",
        "single": "partie simple",
        "gammon": "gammon",
        "backgammon": "backgammon",
        "point_one": "{n} point",
        "point_other": "{n} points",
        "position_id": "Position ID",  # GNU Backgammon's name, as every message says it
        "position_id_so_far": "Position ID du coup en cours",
        "player": "joueur",
        "opponent": "adversaire",
        "chances_of": "Chances de {name} de gagner la partie",
        "match_chances_of": "Chances de {name} de gagner le match",
        "ahead": "{name} en tête",
        "game_n": "Partie {n}",
        "chosen_die": "dé choisi",
        "card_move": "Coup {move} : {name} a fait {roll}",
        "card_cube": "Coup {move} : décision de videau de {name}",
        "card_move_match": "Partie {game} du match, coup {move} : {name} a fait {roll}",
        "card_cube_match": "Partie {game} du match, coup {move} : décision de videau de {name}",
        "card_choices": "Joué : {played} · mieux : {best}",
        "card_played": "Joué : {played}",
        "card_better": "Mieux : {best} · équité perdue : {lost} millipoints",
        "card_lost": "Équité perdue : {lost} millipoints",
        "card_no_move": "aucun coup",
        "cube_no double": "pas de double",
        "cube_double": "double",
        "cube_take": "accepte",
        "cube_pass": "refuse",
    },
}

LANGUAGES = frozenset(LABELS)

_RESULTS = {1: "single", 2: "gammon", 3: "backgammon"}


def label(lang: str, key: str, **fields: object) -> str:
    """The text of ``key`` in ``lang``, with ``fields`` filled in.

    >>> label("en", "offers_double", name="Bob")
    'Bob offers a double'

    :raises ValueError: for a language that has no table.
    """
    table = LABELS.get(lang)
    if table is None:
        raise ValueError(f"no labels for language {lang!r}; choose one of {sorted(LANGUAGES)}")
    text = table[key]
    return text.format(**fields) if fields else text


def counted(lang: str, key: str, n: int) -> str:
    """The label ``key`` agreeing with the count ``n`` (its ``_one`` form for a singular).

    >>> counted("fr", "off", 1), counted("fr", "off", 2), counted("fr", "match_to", 1)
    ('sorti', 'sortis', 'match en 1 point')
    >>> counted("en", "pips", 1), counted("en", "pips", 2)
    ('pip', 'pips')
    """
    singular = n in (0, 1) if lang == "fr" else n == 1
    key = f"{key}_one" if singular and f"{key}_one" in LABELS.get(lang, {}) else key
    return label(lang, key, n=n)


def points_text(lang: str, n: int) -> str:
    """``"1 point"`` or ``"n points"``: French uses the singular for 0 and 1, English for 1 only.

    >>> points_text("en", 0), points_text("fr", 0)
    ('0 points', '0 point')
    """
    singular = n in (0, 1) if lang == "fr" else n == 1
    return label(lang, "point_one" if singular else "point_other", n=n)


def result_text(lang: str, value: int) -> str:
    """The name of a result worth ``value`` times the cube: 1 single game, 2 gammon, 3 backgammon.

    >>> result_text("fr", 1)
    'partie simple'
    """
    return label(lang, _RESULTS[value])
