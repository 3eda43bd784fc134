"""The variant of a game where players see it: chosen by name (``/play variant:hypergammon``),
written beside the kind of game (*5-point match · hypergammon*) on the board, in ``/games``, the
history and a challenge; the standard game says nothing more than before."""

from __future__ import annotations

from bot.i18n import t
from bot.service.refusal import Refusal
from engine import UnknownVariantError, Variant

__all__ = ["kind_text", "said_of_kind", "variant_named", "variant_text"]


def variant_named(value: str | Variant | None) -> Variant:
    """The variant an option gives (its value, or a prefix: ``nack``); None is the standard.

    :raises Refusal: an unknown name, with the variants there are.
    """
    if value is None or isinstance(value, Variant):
        return value or Variant.STANDARD
    try:
        return Variant.parse(value)
    except UnknownVariantError:
        raise Refusal("error.variant_unknown", value=value) from None


def variant_text(variant: str | Variant, lang: str) -> str:
    """The variant's name in ``lang``."""
    return t(f"variant.{Variant(variant).value}", lang)


def kind_text(length: int, variant: str | Variant, lang: str) -> str:
    """*5-point match*, *money game*, with the variant after it unless it is the standard."""
    kind = t("game.kind_match", lang, points=length) if length else t("game.kind_money", lang)
    if Variant(variant) is Variant.STANDARD:
        return kind
    return t("game.kind_variant", lang, kind=kind, variant=variant_text(variant, lang))


def said_of_kind(key: str, length: int, lang: str) -> str:
    """The word of ``key`` said of the game (*rated*), in its match form (``key_match``) for a
    match: French agrees it, *un match classé*, *une partie libre classée*."""
    return t(f"{key}_match" if length else key, lang)
