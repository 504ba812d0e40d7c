"""The audit hash: canonical, chained, and sensitive to every field it covers."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from stores.scan.audit import AuditedFinding, AuditHeader, FindingContent, audit_hash, chain_hashes, seal
from tests.scan_support import AUDIT_KEY

HEADER = AuditHeader(
    scan_id="s1",
    document_sha256="d" * 64,
    catalog_version_id=3,
    model_ids={"findings": "m", "critic": "c"},
    prompt_version="p1",
)
FINDING = AuditedFinding(
    position=1,
    stable_id="A-1",
    page_number=2,
    exact_quote="Sensitivität 96,4 %",
    finding_text="KI fehlt.",
    proposed_severity="MAJOR",
    severity="MAJOR",
    bucket="report",
    confidence=0.8,
    human_reviewed=False,
)


def _hash(header: AuditHeader, findings: list[AuditedFinding]) -> str:
    return audit_hash(header, findings, key=AUDIT_KEY)


def test_hash_is_deterministic_and_independent_of_dict_order() -> None:
    reordered = HEADER.model_copy(update={"model_ids": {"critic": "c", "findings": "m"}})
    assert _hash(HEADER, [FINDING]) == _hash(reordered, [FINDING])
    assert len(_hash(HEADER, [])) == 64


def test_confidence_is_hashed_with_four_decimals() -> None:
    assert _hash(HEADER, [FINDING]) == _hash(HEADER, [FINDING.model_copy(update={"confidence": 0.80001})])
    assert _hash(HEADER, [FINDING]) != _hash(HEADER, [FINDING.model_copy(update={"confidence": 0.8001})])


@pytest.mark.parametrize(
    "change",
    [
        {"stable_id": "A-2"},
        {"page_number": 3},
        {"exact_quote": "Sensitivität 96,4 %."},
        {"finding_text": "KI fehlt"},
        {"proposed_severity": "MINOR"},
        {"severity": "HINT"},
        {"bucket": "human_review"},
        {"human_reviewed": True, "reviewed_by": "eva"},
    ],
)
def test_every_finding_field_is_covered(change: dict[str, object]) -> None:
    assert _hash(HEADER, [FINDING]) != _hash(HEADER, [FINDING.model_copy(update=change)])


@pytest.mark.parametrize(
    "change",
    [
        {"scan_id": "s2"},
        {"document_sha256": "e" * 64},
        {"catalog_version_id": 4},
        {"model_ids": {"findings": "x"}},
        {"prompt_version": "p2"},
    ],
)
def test_every_header_field_is_covered(change: dict[str, object]) -> None:
    assert _hash(HEADER, [FINDING]) != _hash(HEADER.model_copy(update=change), [FINDING])


def test_each_link_depends_on_all_before_it() -> None:
    second = FINDING.model_copy(update={"position": 2, "stable_id": "A-2"})
    changed_first = FINDING.model_copy(update={"finding_text": "anders"})
    original, altered = (
        chain_hashes(HEADER, [FINDING, second], key=AUDIT_KEY),
        chain_hashes(HEADER, [changed_first, second], key=AUDIT_KEY),
    )
    assert original[0] != altered[0] and original[1] != altered[1]


def test_seal_numbers_findings_in_order() -> None:
    sealed = seal(HEADER, [FINDING, FINDING.model_copy(update={"stable_id": "B"})], key=AUDIT_KEY)
    assert [f.position for f in sealed.findings] == [1, 2]
    assert sealed.audit_hash == sealed.finding_hashes[-1]


def test_hash_depends_on_the_key() -> None:
    """Without the key nobody recomputes a valid chain: the same content under another key hashes differently."""
    other = b"another-installation-key-0123456789"
    assert audit_hash(HEADER, [FINDING], key=other) != _hash(HEADER, [FINDING])
    assert chain_hashes(HEADER, [FINDING], key=other) != chain_hashes(HEADER, [FINDING], key=AUDIT_KEY)


def test_a_reviewed_finding_names_its_reviewer() -> None:
    with pytest.raises(ValidationError, match="reviewed_by"):
        FindingContent.model_validate(FINDING.model_dump() | {"human_reviewed": True})
    with pytest.raises(ValidationError, match="reviewed_by"):
        FindingContent.model_validate(FINDING.model_dump() | {"reviewed_by": "eva"})
    reviewed = FindingContent.model_validate(FINDING.model_dump() | {"human_reviewed": True, "reviewed_by": "eva"})
    assert reviewed.reviewed_by == "eva"
