"""DNA import: the demo files validate; every problem is reported in German with file, line and field."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import yaml

from stores.brand.importer import DnaImportError, load_dna_file
from stores.brand.models import BrandDNA
from tests.brand_support import DEMO_DIR, DEMO_VERSIONS, dna_document


@pytest.mark.parametrize("version", DEMO_VERSIONS)
def test_demo_versions_validate(version: str) -> None:
    dna = load_dna_file(DEMO_DIR / f"kantwerk-{version}.yaml")
    assert dna.dna_version == version
    assert len(dna.topic_corridor.core) == 3
    assert {r.id for r in dna.guardrails.forbidden_patterns} == {"GR-CLAIM-001", "GR-CLAIM-002", "GR-CLAIM-003"}


def test_json_import_round_trips(tmp_path: Path) -> None:
    path = tmp_path / "probe.json"
    path.write_text(json.dumps(dna_document()), encoding="utf-8")
    dna = load_dna_file(path)
    assert dna == BrandDNA.model_validate(dna_document())


def _problems(tmp_path: Path, name: str, text: str) -> list[str]:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    with pytest.raises(DnaImportError) as caught:
        load_dna_file(path)
    assert str(caught.value).startswith(f"{name}: DNA ungültig")
    return caught.value.problems


def test_broken_regex_names_file_line_and_field(tmp_path: Path) -> None:
    document = dna_document(
        guardrails={
            "forbidden_patterns": [
                {"id": "GR-CLAIM-001", "pattern": r"\bNr\.", "description": "ok"},
                {"id": "GR-CLAIM-002", "pattern": "(Marktführer", "description": "kaputt"},
            ]
        }
    )
    text = yaml.safe_dump(document, allow_unicode=True, sort_keys=False)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if "(Marktführer" in row)
    problems = _problems(tmp_path, "kaputt.yaml", text)
    assert len(problems) == 1
    assert problems[0].startswith(
        f"kaputt.yaml, Zeile {line}, Feld guardrails.forbidden_patterns[1].pattern: "
        "regulärer Ausdruck lässt sich nicht kompilieren: missing )"
    )


def test_every_problem_is_listed_in_german(tmp_path: Path) -> None:
    document = dna_document(dna_version="1.2", brand_id="Probe GmbH", colour="blau")
    del document["identity_core"]
    document["tone_rules"] = {"style": {"max_passive_share": 1.5}}
    problems = _problems(tmp_path, "probe.yaml", yaml.safe_dump(document, allow_unicode=True, sort_keys=False))
    joined = "\n".join(problems)
    assert "Feld brand_id: hat nicht das erwartete Format" in joined
    assert "Feld dna_version: '1.2' ist keine Semver-Version" in joined
    assert "Feld identity_core: Pflichtfeld fehlt" in joined
    assert "Feld colour: unbekanntes Feld" in joined
    assert "Feld tone_rules.style.max_passive_share: darf höchstens 1 sein" in joined
    assert all(p.startswith("probe.yaml, Zeile ") for p in problems)


def test_duplicate_rule_ids_are_rejected(tmp_path: Path) -> None:
    document = dna_document(
        guardrails={
            "forbidden_terms": [{"id": "GR-TERM-001", "term": "a"}],
            "forbidden_phrases": [{"id": "GR-TERM-001", "phrase": "b c"}],
        }
    )
    text = json.dumps(document, indent=2)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if '"guardrails"' in row)
    problems = _problems(tmp_path, "doppelt.json", text)
    assert problems == [f"doppelt.json, Zeile {line}, Feld guardrails: Regel-ID GR-TERM-001 ist doppelt vergeben"]


def test_syntax_errors_name_the_line(tmp_path: Path) -> None:
    assert _problems(tmp_path, "a.json", '{\n  "brand_id": "x",\n  oops\n}') == [
        "a.json, Zeile 3: kein gültiges JSON (Expecting property name enclosed in double quotes)"
    ]
    yaml_problem = _problems(tmp_path, "b.yaml", "brand_id: x\nidentity_core: [unclosed\n")[0]
    assert yaml_problem.startswith("b.yaml, Zeile 3: kein gültiges YAML")


def test_unsupported_or_missing_files(tmp_path: Path) -> None:
    assert "wird nicht unterstützt" in _problems(tmp_path, "dna.txt", "brand_id: x")[0]
    assert "muss ein Objekt" in _problems(tmp_path, "liste.yaml", "- a\n- b\n")[0]
    with pytest.raises(DnaImportError, match="Datei nicht gefunden"):
        load_dna_file(tmp_path / "fehlt.yaml")
