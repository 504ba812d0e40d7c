"""The audit hash: canonical, chained, and sensitive to every field it covers."""

from __future__ import annotations

import pytest

from stores.scan.audit import AuditedFinding, AuditHeader, audit_hash, chain_hashes, seal

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


def test_hash_is_deterministic_and_independent_of_dict_order() -> None:
    reordered = HEADER.model_copy(update={"model_ids": {"critic": "c", "findings": "m"}})
    assert audit_hash(HEADER, [FINDING]) == audit_hash(reordered, [FINDING])
    assert len(audit_hash(HEADER, [])) == 64


def test_confidence_is_hashed_with_four_decimals() -> None:
    assert audit_hash(HEADER, [FINDING]) == audit_hash(HEADER, [FINDING.model_copy(update={"confidence": 0.80001})])
    assert audit_hash(HEADER, [FINDING]) != audit_hash(HEADER, [FINDING.model_copy(update={"confidence": 0.8001})])


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
        {"human_reviewed": True},
    ],
)
def test_every_finding_field_is_covered(change: dict[str, object]) -> None:
    assert audit_hash(HEADER, [FINDING]) != audit_hash(HEADER, [FINDING.model_copy(update=change)])


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
    assert audit_hash(HEADER, [FINDING]) != audit_hash(HEADER.model_copy(update=change), [FINDING])


def test_each_link_depends_on_all_before_it() -> None:
    second = FINDING.model_copy(update={"position": 2, "stable_id": "A-2"})
    changed_first = FINDING.model_copy(update={"finding_text": "anders"})
    original, altered = chain_hashes(HEADER, [FINDING, second]), chain_hashes(HEADER, [changed_first, second])
    assert original[0] != altered[0] and original[1] != altered[1]


def test_seal_numbers_findings_in_order() -> None:
    sealed = seal(HEADER, [FINDING, FINDING.model_copy(update={"stable_id": "B"})])
    assert [f.position for f in sealed.findings] == [1, 2]
    assert sealed.audit_hash == sealed.finding_hashes[-1]
