"""German usage errors: click and typer word a mistyped command line in English; the CLI answers in German.

Each error becomes one line naming what is wrong and where the help is. Messages the table does not know
(a future click wording) pass through unchanged rather than being lost.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import regex
import typer

# typer brings its own copy of click; its usage errors are not exported under a public name
from typer._click import exceptions as click_errors

# click's (and typer's) wording of a value or usage problem → the German sentence; first match wins
_MESSAGES: Final[tuple[tuple[regex.Pattern[str], str], ...]] = tuple(
    (regex.compile(pattern), german)
    for pattern, german in (
        (r"^Option '(.+)' requires (?:an argument|\d+ arguments)\.$", "Die Option {0} braucht einen Wert."),
        (r"^Option '(.+)' does not take a value\.$", "Die Option {0} nimmt keinen Wert."),
        (r"^Got unexpected extra argument(?:s|\(s\))? \((.+)\)$", "Überzählige Angabe: {0}."),
        (r"^No such command '(.+)'\.$", "Unbekannter Befehl „{0}“."),
        (r"^Missing command\.$", "Es fehlt ein Befehl."),
        (r"^(?:Value )?'(.*)' is not a valid int(?:eger)?(?: range)?\.$", "„{0}“ ist keine ganze Zahl."),
        (r"^(?:Value )?'(.*)' is not a valid float(?: range)?\.$", "„{0}“ ist keine Zahl."),
        (r"^Input should be a valid integer\b.*$", "Erwartet wird eine ganze Zahl."),
        (r"^Input should be a valid number\b.*$", "Erwartet wird eine Zahl."),
        (r"^Input should be a valid boolean\b.*$", "Erwartet wird ja oder nein (true/false)."),
        (r"^Input should be greater than or equal to (.+)$", "Der Wert muss mindestens {0} sein."),
        (r"^Input should be less than or equal to (.+)$", "Der Wert darf höchstens {0} sein."),
        (r"^Input should be (.+) or (.+)$", "Möglich: {0} oder {1}."),
        (r"^'(.*)' is not a valid boolean\b.*$", "„{0}“ ist weder ja noch nein (true/false)."),
        (r"^'(.*)' is not (?:one of )?(.+)\.$", "„{0}“ ist nicht möglich; möglich: {1}."),
        (r"^(.+) is not in the range (.+)\.$", "{0} liegt nicht im Bereich {1}."),
        (r"^File '(.*)' does not exist\.$", "Die Datei „{0}“ gibt es nicht."),
        (r"^Directory '(.*)' does not exist\.$", "Den Ordner „{0}“ gibt es nicht."),
        (r"^Path '(.*)' does not exist\.$", "Den Pfad „{0}“ gibt es nicht."),
        (r"^(?:File|Path) '(.*)' is a directory\.$", "„{0}“ ist ein Ordner, keine Datei."),
        (r"^(?:Directory|Path) '(.*)' is a file\.$", "„{0}“ ist eine Datei, kein Ordner."),
        (r"^'(.*)' does not match the formats? (.+)\.$", "„{0}“ passt nicht zum Format {1}."),
    )
)


def command_line_error(error: Exception) -> tuple[str, int] | None:
    """How the CLI ends on a click error: the German line to show ("" where click has shown the help already) and
    the exit code; None for any other error."""
    if isinstance(error, click_errors.NoArgsIsHelpError):
        return "", error.exit_code
    if isinstance(error, click_errors.UsageError):
        return usage_message(error), error.exit_code
    if isinstance(error, typer.Abort):
        return "Abgebrochen.", 1
    if isinstance(error, click_errors.ClickException):
        return german(error.format_message()), error.exit_code
    return None


def usage_message(error: click_errors.UsageError) -> str:
    """The German line for a command-line mistake, ending with the command's help call."""
    if isinstance(error, click_errors.NoSuchOption):
        text = f"Unbekannte Option {error.option_name}."
        if error.possibilities:
            text += f" Gemeint: {' oder '.join(sorted(error.possibilities))}?"
    elif isinstance(error, click_errors.MissingParameter) and error.param is not None:
        kind = "die Angabe" if error.param.param_type_name == "argument" else "die Option"
        text = f"Es fehlt {kind} {_unquoted(error.param.get_error_hint())}."
    elif isinstance(error, click_errors.BadParameter):
        hint = error.param_hint or (error.param.get_error_hint() if error.param is not None else "")
        where = f" für {_unquoted(hint)}" if hint else ""
        text = f"Ungültiger Wert{where}: {german(error.message)}"
    else:
        text = german(error.message)
    command = error.ctx.command_path if error.ctx is not None else ""
    return f"{text} Hilfe: {command} --help" if command else text


def german(message: str) -> str:
    """click's English message in German, where the table knows it."""
    for pattern, sentence in _MESSAGES:
        found = pattern.match(message)
        if found:
            return sentence.format(*found.groups())
    return message


def _unquoted(hint: str | Sequence[str]) -> str:
    hints = [hint] if isinstance(hint, str) else hint
    return " / ".join(h.replace("'", "") for h in hints)
