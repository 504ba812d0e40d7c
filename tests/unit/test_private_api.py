"""The private library APIs belegt relies on, each confined to one module: fail loudly when an upgrade moves them."""

from __future__ import annotations

import re
import tomllib
from importlib.metadata import version
from pathlib import Path

import pytest
from langchain_core.messages import HumanMessage
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet

from nodes.shared.brand import regex_internals
from nodes.shared.ollama_penalties import LANGCHAIN_OLLAMA_VERSIONS, ChatOllamaWithPenalties

ROOT = Path(__file__).resolve().parents[2]
PINS = {"regex": regex_internals.REGEX_VERSIONS, "langchain-ollama": LANGCHAIN_OLLAMA_VERSIONS}


def _declared() -> dict[str, SpecifierSet]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    requirements = [Requirement(line) for line in project["dependencies"]]
    return {requirement.name: requirement.specifier for requirement in requirements}


@pytest.mark.parametrize("package", sorted(PINS))
def test_pyproject_pins_the_range_the_module_was_checked_against(package: str) -> None:
    assert _declared()[package] == SpecifierSet(PINS[package])


@pytest.mark.parametrize("package", sorted(PINS))
def test_the_installed_version_is_inside_the_pinned_range(package: str) -> None:
    installed = version(package)
    assert installed in SpecifierSet(PINS[package]), (
        f"{package} {installed} is outside {PINS[package]}: re-check the private API use before widening the pin"
    )


def test_the_stdlib_parser_still_gives_the_tree_claim_patterns_read() -> None:
    parse = regex_internals.parse_pattern
    assert list(parse("ab")) == [(regex_internals.LITERAL, ord("a")), (regex_internals.LITERAL, ord("b"))]
    (group,) = parse("(ab)")
    assert group[0] is regex_internals.SUBPATTERN and len(list(group[1][-1])) == 2
    (atomic,) = parse("(?>ab)")
    assert atomic[0] is regex_internals.ATOMIC_GROUP
    (repeat,) = parse("x+")
    assert repeat[0] in regex_internals.REPEATS and repeat[1][0] == 1
    (branch,) = parse("ab|cd")
    assert branch[0] is regex_internals.BRANCH and len(branch[1][1]) == 2
    (merged,) = parse("[Nn]")
    assert merged[0] is regex_internals.IN
    with pytest.raises(re.error):
        parse("(unclosed")


def test_regex_full_case_folding_is_still_reachable() -> None:
    assert regex_internals.regex_fold_case("Straße ẞ \u01f0 ﬁ") == "strasse ss j\u030c fi"


def test_chat_ollama_still_builds_options_in_the_method_that_adds_the_penalties() -> None:
    model = ChatOllamaWithPenalties(
        model="qwen3:8b",
        base_url="http://127.0.0.1:9",
        temperature=0.2,
        num_ctx=4096,
        frequency_penalty=0.3,
        presence_penalty=0.0,
    )
    params = model._chat_params([HumanMessage("Hallo")])
    assert params["options"] == {"temperature": 0.2, "num_ctx": 4096, "frequency_penalty": 0.3, "presence_penalty": 0.0}
    assert params["model"] == "qwen3:8b" and params["messages"][0]["content"] == "Hallo"
