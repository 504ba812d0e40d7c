"""``belegt keys``: API keys of the served graphs — create (shown once), list, revoke."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table

from graphs.cli.runtime import console, database_or_exit, fail, settings_or_exit

if TYPE_CHECKING:
    from stores.sql.api_keys import ApiKeyStore

app = typer.Typer(help="API-Schlüssel für den Server anlegen, auflisten und widerrufen.", no_args_is_help=True)


def _store() -> ApiKeyStore:
    from stores.sql.api_keys import ApiKeyStore

    return ApiKeyStore(database_or_exit(settings_or_exit()))


@app.command("create")
def create(
    bot: Annotated[str, typer.Option("--bot", help="Bot, für den der Schlüssel spricht (legt KB und Stufe fest).")],
    role: Annotated[str, typer.Option("--role", help="user, reviewer oder admin.")] = "user",
    label: Annotated[str | None, typer.Option("--label", help="Wofür der Schlüssel ist, z. B. 'Intranet'.")] = None,
) -> None:
    """Einen Schlüssel anlegen; er wird nur dieses eine Mal angezeigt."""
    from stores.sql.api_keys import ROLES, Role, UnknownBotForKey

    if role not in ROLES:
        fail(f"Unbekannte Rolle '{role}': erlaubt sind {', '.join(ROLES)}.", code=2)
    checked: Role = role  # narrowed to the literal by the membership test above
    try:
        key, secret = _store().create(bot, checked, label=label)
    except UnknownBotForKey as exc:
        fail(str(exc))
    console.print(f"Schlüssel [bold]{key.id}[/] für Bot {key.bot_id} ({key.role}) angelegt. Nur jetzt sichtbar:")
    print(secret)


@app.command("list")
def list_keys() -> None:
    """Alle Schlüssel ohne Geheimnis zeigen."""
    table = Table("ID", "Bot", "Rolle", "Bezeichnung", "Angelegt", "Widerrufen")
    for key in _store().list():
        revoked = key.revoked_at.isoformat(timespec="seconds") if key.revoked_at else ""
        table.add_row(
            key.id, key.bot_id, key.role, key.label or "", key.created_at.isoformat(timespec="seconds"), revoked
        )
    console.print(table)


@app.command("revoke")
def revoke(
    key_id: Annotated[
        str, typer.Argument(metavar="KEY_ID", help="ID des Schlüssels (Spalte ID in `belegt keys list`).")
    ],
) -> None:
    """Einen Schlüssel widerrufen; ein laufender Server lehnt ihn nach höchstens 5 s ab."""
    from stores.sql.api_keys import ApiKeyNotFound

    try:
        key = _store().revoke(key_id)
    except ApiKeyNotFound as exc:
        fail(str(exc))
    console.print(f"Schlüssel [bold]{key.id}[/] (Bot {key.bot_id}) widerrufen.")
