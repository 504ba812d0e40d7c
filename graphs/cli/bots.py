"""``belegt bots``: create, list and tune bots."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from graphs.cli.runtime import console, database_or_exit, fail, settings_or_exit

if TYPE_CHECKING:
    from stores.sql.bots import BotStore

app = typer.Typer(help="Bots anlegen, auflisten und ihre Strictness-Stufe setzen.", no_args_is_help=True)

# the store checks the range, in German (typer's own range errors are English)
Level = Annotated[int, typer.Option(help="Strictness 1 (nur KB) … 5 (kreativ).")]


def _store() -> BotStore:
    from stores.sql.bots import BotStore

    return BotStore(database_or_exit(settings_or_exit()))


@app.command("create")
def create(
    bot_id: Annotated[str, typer.Argument(metavar="BOT_ID", help="Stabile Bot-ID, z. B. 'hr-bot'.")],
    kb: Annotated[str, typer.Option("--kb", help="Wissensbasis, aus der der Bot antwortet.")],
    name: Annotated[str | None, typer.Option(help="Anzeigename; Standard: die ID.")] = None,
    strictness: Level = 3,
    refusal_message: Annotated[str | None, typer.Option(help="Eigener Ablehnungssatz.")] = None,
    disclaimer_message: Annotated[str | None, typer.Option(help="Eigener Hinweissatz.")] = None,
    voice: Annotated[
        str, typer.Option("--voice", help="Anrede in Ablehnungs- und Hinweistexten: 'sie' (Standard) oder 'du'.")
    ] = "sie",
    contact: Annotated[
        str | None,
        typer.Option(help="Kontakt für Rückfragen, z. B. 'die Personalabteilung'; ohne: kein Verweis auf Kontakt."),
    ] = None,
    exist_ok: Annotated[bool, typer.Option("--exist-ok", help="Kein Fehler, wenn es den Bot schon gibt.")] = False,
) -> None:
    """Einen Bot anlegen."""
    from stores.sql.bots import BotExists, InvalidStrictness, InvalidVoice

    try:
        bot = _store().create(
            bot_id,
            name=name or bot_id,
            kb_id=kb,
            knowledge_strictness=strictness,
            refusal_message=refusal_message,
            disclaimer_message=disclaimer_message,
            voice=voice,
            contact=contact,
        )
    except BotExists as exc:
        if exist_ok:
            console.print(f"Bot [bold]{bot_id}[/] gibt es schon; unverändert.")
            return
        fail(str(exc))
    except (InvalidStrictness, InvalidVoice) as exc:
        fail(str(exc), code=2)
    console.print(
        f"Bot [bold]{bot.id}[/] angelegt (KB {bot.kb_id}, Stufe {bot.knowledge_strictness}, Anrede {bot.voice})."
    )


@app.command("list")
def list_bots() -> None:
    """Alle Bots mit Wissensbasis und Stufe zeigen."""
    from nodes.shared.strictness import get_strictness_config

    table = Table("ID", "Name", "KB", "Stufe", "Anrede", "Kontakt")
    for bot in _store().list():
        config = get_strictness_config(bot.knowledge_strictness)
        table.add_row(
            bot.id, bot.name, bot.kb_id, f"{config.level} {config.name} ({config.key})", bot.voice, bot.contact or "–"
        )
    console.print(table)


@app.command("set-strictness")
def set_strictness(
    bot_id: Annotated[str, typer.Argument(metavar="BOT_ID", help="ID des Bots.")],
    level: Annotated[int, typer.Argument(metavar="LEVEL", help="Neue Stufe 1–5.")],
) -> None:
    """Die Strictness-Stufe eines Bots ändern."""
    from nodes.shared.strictness import get_strictness_config
    from stores.sql.bots import BotNotFound, InvalidStrictness

    try:
        bot = _store().set_strictness(bot_id, level)
    except BotNotFound as exc:
        fail(str(exc))
    except InvalidStrictness as exc:
        fail(str(exc), code=2)
    config = get_strictness_config(bot.knowledge_strictness)
    console.print(f"Bot [bold]{bot.id}[/]: Stufe {config.level} {config.name} ({config.key}).")
