"""``belegt ask``: answer a question from the CLI with the same graph that ``langgraph dev`` serves."""

from __future__ import annotations

import json
import uuid
from datetime import date, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape
from rich.panel import Panel

from graphs.cli.runtime import console, fail, settings_or_exit

if TYPE_CHECKING:
    from nodes.answer.context import AnswerContext
    from nodes.answer.services import AnswerServices


def ask(
    question: Annotated[str, typer.Argument(metavar="QUESTION", help="Die Frage.")],
    bot: Annotated[str | None, typer.Option("--bot", help="Bot-ID (liefert KB und Stufe).")] = None,
    kb: Annotated[str | None, typer.Option("--kb", help="Wissensbasis direkt wählen.")] = None,
    strictness: Annotated[int | None, typer.Option(help="Stufe 1–5 für diesen Lauf.")] = None,
    review: Annotated[bool, typer.Option("--review", help="Unsichere Antworten hier prüfen (interrupt).")] = False,
    as_of: Annotated[
        str | None,
        typer.Option("--as-of", help="Stichtag JJJJ-MM-TT: nur Einträge, die dann gelten; Vorgabe heute."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Den vollständigen Ausgabesatz als JSON ausgeben.")] = False,
) -> None:
    """Eine Frage belegt aus der Wissensbasis beantworten."""
    if bot is None and kb is None:
        fail("Bitte --bot oder --kb angeben.", code=2)
    if strictness is not None and not 1 <= strictness <= 5:
        fail(f"--strictness muss zwischen 1 und 5 liegen (war {strictness}).", code=2)
    day = _day(as_of) if as_of is not None else None
    from graphs.answer import build_answer_graph
    from graphs.resources import AppResources
    from nodes.answer.context import AnswerContext
    from nodes.shared.llm import ProviderError

    settings = settings_or_exit()
    resources = AppResources(settings)
    context = AnswerContext(
        bot_id=bot,
        kb_id=kb,
        strictness=strictness,
        review="interrupt" if review else "bucket",
        as_of=day,
    )
    try:
        if review:
            output = ask_with_review(resources, question, context, settings.data_dir / "checkpoints.sqlite")
        else:
            output = (
                build_answer_graph(resources).compile(name="answer").invoke({"question": question}, context=context)
            )
    except ProviderError as exc:
        fail(f"LLM-Anbieter nicht nutzbar: {exc}")
    finally:
        resources.close()
    invalid = output.get("bucket") == "invalid_input"  # empty or overlong question, unknown bot, no KB
    if as_json:
        console.print_json(json.dumps(output, default=_plain, ensure_ascii=False))
        raise typer.Exit(2 if invalid else 0)
    if invalid:
        fail(escape(output["answer"]), code=2)
    from rich.markdown import Markdown

    title = f"{output.get('bucket')} · Konfidenz {output.get('confidence', 0):.2f} · {output.get('model', '')}"
    console.print(Panel(Markdown(output["answer"]), title=title))
    for source in output.get("sources", []):
        marker = "" if source.official or "nicht amtlich" in source.work else " (nicht amtlich)"
        line = f"  [{source.id}] {source.title} · {source.section} · Stand {source.stand} · {source.work}{marker}"
        console.print(escape(line))
    if output.get("bucket") == "human_review":
        console.print("Der Entwurf liegt in der Prüfablage: belegt review list")


def ask_with_review(services: AnswerServices, question: str, context: AnswerContext, path: Path) -> dict[str, Any]:
    """Run with a SQLite checkpointer so ``interrupt()`` can pause for the reviewer at the terminal."""
    from langchain_core.runnables import RunnableConfig
    from langgraph.checkpoint.sqlite import SqliteSaver
    from langgraph.types import Command

    from graphs.answer import build_answer_graph
    from graphs.cli.review import prompt_response

    path.parent.mkdir(parents=True, exist_ok=True)
    with SqliteSaver.from_conn_string(str(path)) as checkpointer:
        graph = build_answer_graph(services).compile(checkpointer=checkpointer, name="answer")
        config: RunnableConfig = {"configurable": {"thread_id": uuid.uuid4().hex}}
        result: dict[str, Any] = graph.invoke({"question": question}, config, context=context)
        while "__interrupt__" in result:
            (request,) = result["__interrupt__"][0].value
            resume: Command[Any] = Command(resume=[prompt_response(request, "answer")])
            result = graph.invoke(resume, config, context=context)
        return result


def _day(text: str) -> date:
    """The ``--as-of`` day, or a German exit: typer's own date errors are English."""
    try:
        return datetime.strptime(text, "%Y-%m-%d").date()
    except ValueError:
        fail(escape(f"--as-of braucht einen Kalendertag als JJJJ-MM-TT, z. B. 2026-03-31 (war „{text}“)."), code=2)


def _plain(value: Any) -> Any:
    return value.model_dump() if hasattr(value, "model_dump") else str(value)
