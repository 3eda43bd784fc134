"""The Discord-free service layer: every use case, returning descriptions of replies."""

from bot.service.core import Refusal, Service, Settings
from bot.service.people import Actor, Prefs, Where
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
