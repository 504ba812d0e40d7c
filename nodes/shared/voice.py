"""The bot's own sentences (refusal, notices, follow-up questions) in its voice: formal "Sie" or "du".

A sentence that invites users to get in touch exists only when the bot names a contact.
"""

from __future__ import annotations

from typing import Final, Literal

from pydantic import BaseModel, ConfigDict

Voice = Literal["sie", "du"]
# "bezug": the question points back to a matter it does not name („… dafür?")
Dimension = Literal["bundesland", "branche", "zeitraum", "arbeitszeit", "ort", "fall", "bezug"]

KB_REFUSAL: Final = "Dazu enthält die Wissensbasis keine Aussage."

_TEXTS: Final[dict[Voice, dict[str, str]]] = {
    "sie": {
        "contact": "Bitte wenden Sie sich an {contact}.",
        "disclaimer": "Bitte prüfen Sie die Angaben im Einzelfall.",
        "disclaimer_contact": "Für genaue Details wenden Sie sich bitte an {contact}.",
        "soft_hint": "Die Wissensbasis deckt diese Frage nur teilweise ab; prüfen Sie die Angaben im Zweifel nach.",
        "empty_question": "Bitte stellen Sie eine Frage.",
        "question_too_long": (
            "Die Frage ist zu lang ({length} Zeichen, höchstens {limit}). Bitte fassen Sie sie kürzer."
        ),
        "bundesland": "Für welches Bundesland möchten Sie es wissen?",
        "branche": "In welcher Branche sind Sie tätig?",
        "zeitraum": "Für welchen Zeitraum möchten Sie es wissen?",
        "arbeitszeit": "Arbeiten Sie in Vollzeit oder in Teilzeit?",
        "ort": "Für welchen Ort möchten Sie es wissen?",
        "fall": "Welcher dieser Fälle trifft auf Sie zu?",
        "fall_meant": "Welchen dieser Fälle meinen Sie?",
        "bezug": "Worauf genau bezieht sich Ihre Frage?",
    },
    "du": {
        "contact": "Bitte wende dich an {contact}.",
        "disclaimer": "Bitte prüfe die Angaben im Einzelfall.",
        "disclaimer_contact": "Für genaue Details wende dich bitte an {contact}.",
        "soft_hint": "Die Wissensbasis deckt diese Frage nur teilweise ab; prüfe die Angaben im Zweifel nach.",
        "empty_question": "Bitte stelle eine Frage.",
        "question_too_long": "Die Frage ist zu lang ({length} Zeichen, höchstens {limit}). Bitte fasse sie kürzer.",
        "bundesland": "Für welches Bundesland möchtest du es wissen?",
        "branche": "In welcher Branche bist du tätig?",
        "zeitraum": "Für welchen Zeitraum möchtest du es wissen?",
        "arbeitszeit": "Arbeitest du in Vollzeit oder in Teilzeit?",
        "ort": "Für welchen Ort möchtest du es wissen?",
        "fall": "Welcher dieser Fälle trifft auf dich zu?",
        "fall_meant": "Welchen dieser Fälle meinst du?",
        "bezug": "Worauf genau bezieht sich deine Frage?",
    },
}


class BotVoice(BaseModel):
    """How a bot addresses its users, and whom they may contact (None: no text mentions contacting anyone)."""

    model_config = ConfigDict(frozen=True)

    voice: Voice = "sie"
    contact: str | None = None

    def _text(self, key: str) -> str:
        return _TEXTS[self.voice][key]

    @property
    def refusal(self) -> str:
        """The KB refusal sentence, followed by the contact sentence where the bot has a contact."""
        if self.contact:
            return f"{KB_REFUSAL} {self._text('contact').format(contact=self.contact)}"
        return KB_REFUSAL

    @property
    def disclaimer(self) -> str:
        if self.contact:
            return self._text("disclaimer_contact").format(contact=self.contact)
        return self._text("disclaimer")

    @property
    def soft_hint(self) -> str:
        return self._text("soft_hint")

    @property
    def empty_question(self) -> str:
        return self._text("empty_question")

    def question_too_long(self, length: int, limit: int) -> str:
        return self._text("question_too_long").format(length=length, limit=limit)

    def follow_up(self, dimension: Dimension, *, personal: bool = True) -> str:
        """The one short follow-up question that asks for missing context; of a question not about the asker's own
        case („Kann der Bundestag sich selbst auflösen?") it asks which case is meant, not which one applies."""
        return self._text("fall_meant" if dimension == "fall" and not personal else dimension)


DEFAULT_VOICE: Final = BotVoice()
