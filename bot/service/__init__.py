"""The Discord-free service layer: every use case, returning descriptions of replies."""

from bot.service.deps import Settings
from bot.service.facade import Service
from bot.service.people import Actor, Prefs, Where
from bot.service.refusal import Refusal
from bot.service.replies import Attachment, Button, Choice, Reply, Select

__all__ = [
    "Actor",
    "Attachment",
    "Button",
    "Choice",
    "Prefs",
    "Refusal",
    "Reply",
    "Select",
    "Service",
    "Settings",
    "Where",
]
