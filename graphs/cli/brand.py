"""``belegt brand import|list|show`` keeps DNA versions; ``belegt scorecard`` checks content against a DNA."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.panel import Panel
from rich.table import Table

from graphs.cli.runtime import console, fail, settings_or_exit
from nodes.scorecard.results import CRITERIA, CRITERION_NAMES, VERDICT_SYMBOLS, ContentType, DnaMaturity, Validation

if TYPE_CHECKING:
    from graphs.resources import AppResources
    from nodes.scorecard.context import ScorecardContext
    from nodes.scorecard.state import ScorecardInput

app = typer.Typer(help="Marken-DNA importieren, versionieren und ansehen.", no_args_is_help=True)
BLOCK_NAMES = {
    "identity_core": "Identitätskern",
    "positioning_logic": "Positionierung",
    "tone_rules": "Sprache & Ton",
    "topic_corridor": "Themenrahmen",
    "guardrails": "Grenzregeln",
}


@app.command("import")
def import_dna(file: Annotated[Path, typer.Argument(metavar="FILE", help="DNA als YAML- oder JSON-Datei.")]) -> None:
    """Eine DNA-Version prüfen und speichern; zeigt danach ihren Reifegrad."""
    from graphs.resources import AppResources
    from nodes.scorecard.maturity import assess_dna_maturity
    from stores.brand.importer import DnaImportError, load_dna_file
    from stores.brand.store import DnaVersionRejected

    try:
        dna = load_dna_file(file)
    except DnaImportError as exc:
        fail(str(exc))
    resources = AppResources(settings_or_exit())
    try:
        info, created = resources.brands.save(dna, source_name=file.name)
    except DnaVersionRejected as exc:
        fail(str(exc))
    finally:
        resources.close()
    kind = f", Änderung: {info.change_kind}" if info.change_kind else ""
    done = "gespeichert" if created else "war schon mit gleichem Inhalt gespeichert; unverändert"
    console.print(f"DNA [bold]{info.brand_id} {info.dna_version}[/] {done}{kind}.")
    _print_maturity(assess_dna_maturity(dna))


@app.command("list")
def list_brands(
    as_json: Annotated[bool, typer.Option("--json", help="Als JSON ausgeben.")] = False,
) -> None:
    """Alle Marken mit gespeicherter DNA und ihrer neuesten Version."""
    from graphs.resources import AppResources

    resources = AppResources(settings_or_exit())
    try:
        brands = resources.brands.brands()
    finally:
        resources.close()
    if as_json:
        console.print_json(json.dumps([b.model_dump(mode="json") for b in brands]))
        return
    if not brands:
        console.print("Noch keine Marken-DNA gespeichert: [bold]belegt brand import DATEI[/].")
        return
    table = Table("Marke", "Neueste Version", "Versionen", "Importiert")
    for summary in brands:
        imported = f"{summary.latest_imported_at:%Y-%m-%d %H:%M}"
        table.add_row(summary.brand_id, summary.latest_version, str(summary.versions), imported)
    console.print(table)


@app.command("show")
def show_brand(
    brand_id: Annotated[str, typer.Argument(metavar="BRAND", help="Marke.")],
    dna_version: Annotated[str | None, typer.Option(help="DNA-Version; Standard: die neueste.")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="DNA, Versionen und Reifegrad als JSON.")] = False,
) -> None:
    """Eine DNA-Version mit Versionsgeschichte, Regelumfang und Reifegrad zeigen."""
    from graphs.resources import AppResources
    from nodes.scorecard.maturity import assess_dna_maturity
    from stores.brand.store import BrandNotFound, DnaVersionNotFound

    resources = AppResources(settings_or_exit())
    try:
        dna = resources.brands.get(brand_id, dna_version)
        history = resources.brands.history(brand_id)
    except (BrandNotFound, DnaVersionNotFound) as exc:
        fail(str(exc))
    finally:
        resources.close()
    maturity = assess_dna_maturity(dna)
    if as_json:
        document = {
            "dna": dna.model_dump(mode="json"),
            "history": [info.model_dump(mode="json") for info in history],
            "maturity": maturity.model_dump(mode="json"),
        }
        console.print_json(json.dumps(document))
        return
    versions = Table("Version", "Änderung", "Importiert", title=f"Marke {brand_id}")
    for info in history:
        marker = " ◀" if info.dna_version == dna.dna_version else ""
        imported = f"{info.imported_at:%Y-%m-%d %H:%M}"
        versions.add_row(info.dna_version + marker, info.change_kind or "–", imported)
    console.print(versions)
    rails, topics = dna.guardrails, dna.topic_corridor
    console.print(
        Panel(
            f"{dna.identity_core.statement}\n\n"
            f"Kernthemen: {', '.join(t.name for t in topics.core) or '–'} · "
            f"Tabu: {', '.join(t.name for t in topics.taboo) or '–'}\n"
            f"Grenzregeln: {len(rails.forbidden_terms)} Begriffe, {len(rails.forbidden_phrases)} Wendungen, "
            f"{len(rails.forbidden_patterns)} Muster, {len(rails.allowed_exceptions)} Ausnahmen · "
            f"Tonregeln: {len(dna.tone_rules.do)} Do, {len(dna.tone_rules.dont)} Don't",
            title=f"DNA {dna.brand_id} {dna.dna_version}",
        )
    )
    _print_maturity(maturity)


def _print_maturity(maturity: DnaMaturity) -> None:
    table = Table("Baustein", "Reifegrad", "Lücken", title=f"DNA-Reifegrad {maturity.overall}/100")
    for block in maturity.blocks.values():
        table.add_row(BLOCK_NAMES[block.block], f"{block.maturity_score}/100", "\n".join(block.gaps) or "–")
    console.print(table)
    for finding in maturity.lint:
        console.print(f"[yellow]Regelwerk:[/] {finding}")


def scorecard(
    source: Annotated[str, typer.Argument(metavar="TEXT_OR_FILE", help="Datei (.txt/.md) oder der Text selbst.")],
    brand: Annotated[str, typer.Option("--brand", help="Marke, deren DNA gilt.")],
    dna_version: Annotated[str | None, typer.Option(help="DNA-Version; Standard: die neueste.")] = None,
    dna_version_ref: Annotated[
        str | None, typer.Option("--ref", help="DNA-Version, auf die sich der Inhalt bisher bezog (K7).")
    ] = None,
    content_id: Annotated[str | None, typer.Option(help="Stabile Inhalts-ID; Standard: Hash des Texts.")] = None,
    content_type: Annotated[ContentType, typer.Option(help="linkedin_post, website, offer oder other.")] = "other",
    audience: Annotated[str | None, typer.Option(help="Zielgruppe.")] = None,
    topic: Annotated[str | None, typer.Option(help="Thema laut Redaktionsplan.")] = None,
    channel: Annotated[str | None, typer.Option(help="Kanal.")] = None,
    owner: Annotated[
        str | None, typer.Option(help="Als Marken-Owner Grenzfälle hier freigeben oder ablehnen (interrupt).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Das Validierungsobjekt als JSON ausgeben.")] = False,
) -> None:
    """Einen Text gegen die Marken-DNA prüfen (K1–K7, Status, Begründungen)."""
    from graphs.resources import AppResources
    from graphs.scorecard import build_scorecard
    from nodes.scorecard.context import ScorecardContext
    from nodes.scorecard.intake import ScorecardInputError
    from nodes.shared.llm import ProviderError
    from stores.brand.store import BrandNotFound, DnaVersionNotFound

    path = Path(source)
    text = path.read_text(encoding="utf-8") if path.is_file() else source
    payload: ScorecardInput = {"text": text, "content_type": content_type}
    if content_id is not None:
        payload["content_id"] = content_id
    if audience is not None:
        payload["audience"] = audience
    if topic is not None:
        payload["topic"] = topic
    if channel is not None:
        payload["channel"] = channel
    if dna_version_ref is not None:
        payload["dna_version_ref"] = dna_version_ref
    settings = settings_or_exit()
    resources = AppResources(settings)
    context = ScorecardContext(
        brand_id=brand, dna_version=dna_version, review="bucket" if owner is None else "interrupt"
    )
    try:
        if owner is None:
            with console.status("Prüfe gegen die Marken-DNA …", spinner="dots"):
                output = build_scorecard(resources).compile(name="scorecard").invoke(payload, context=context)
        else:
            output = _with_owner_gate(resources, payload, context, owner, settings.data_dir / "checkpoints.sqlite")
    except (BrandNotFound, DnaVersionNotFound, ScorecardInputError) as exc:
        fail(str(exc))
    except ProviderError as exc:
        fail(f"LLM-Anbieter nicht nutzbar: {exc}")
    finally:
        resources.close()
    validation: Validation = output["validation"]
    if as_json:
        console.print_json(validation.model_dump_json())
        return
    _print_validation(validation)


def _with_owner_gate(
    resources: AppResources, payload: ScorecardInput, context: ScorecardContext, owner: str, path: Path
) -> dict[str, Any]:
    """Run with a SQLite checkpointer so the human gate can pause for the brand owner at the terminal."""
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command

    from graphs.cli.review import prompt_response
    from graphs.scorecard import build_scorecard

    path.parent.mkdir(parents=True, exist_ok=True)
    with SqliteSaver.from_conn_string(str(path)) as checkpointer:
        graph = build_scorecard(resources).compile(checkpointer=checkpointer, name="scorecard")
        config: RunnableConfig = {"configurable": {"thread_id": uuid.uuid4().hex}}
        result: dict[str, Any] = graph.invoke(payload, config, context=context)
        while "__interrupt__" in result:
            (request,) = result["__interrupt__"][0].value
            response = prompt_response(request, "scorecard", reviewer=owner)
            result = graph.invoke(Command(resume=[response]), config, context=context)
        return result


def _print_validation(validation: Validation) -> None:
    table = Table("", "Kriterium", "Methoden", "Begründung", title=f"Scorecard {validation.content_id}")
    for criterion in CRITERIA:
        result = validation.criteria[criterion]
        first = result.reasons[0].explanation if result.reasons else ""
        table.add_row(
            VERDICT_SYMBOLS[result.verdict],
            f"{criterion} {CRITERION_NAMES[criterion]}",
            ", ".join(result.methods) or "–",
            first,
        )
    console.print(table)
    gate = " · Freigabe nur durch den Marken-Owner" if validation.requires_owner_approval else ""
    decided = f" · freigegeben von {validation.owner_decision.owner}" if validation.owner_decision else ""
    console.print(
        f"[bold]{validation.status}[/] · Score {validation.score:g}/7 · DNA {validation.brand_id} "
        f"{validation.dna_version} · Reifegrad {validation.maturity.overall}/100{gate}{decided}"
    )
    for reason in validation.top_reasons:
        where = f" (Satz {reason.evidence.sentence_index + 1}: „{reason.evidence.quote}“)" if reason.evidence else ""
        fix = f" → {reason.fix_suggestion}" if reason.fix_suggestion else ""
        console.print(f"  • {reason.rule_id}: {reason.explanation}{where}{fix}")
