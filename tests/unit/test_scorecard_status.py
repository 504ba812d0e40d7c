"""Status mapping for every branch (overrides, thresholds, 4.5, human gate, missing LLM), levers and coupling."""

from __future__ import annotations

from typing import Final, Literal

import pytest

from nodes.scorecard.context import Thresholds
from nodes.scorecard.maturity import assess_dna_maturity
from nodes.scorecard.results import CRITERIA, CriterionResult, Status, Verdict
from nodes.scorecard.status import couple_low_maturity, map_status, top_levers
from nodes.shared.brand.reasons import CriterionId, Reason
from tests.brand_support import build_dna, demo_dna

P: Final = "pass"
W: Final = "warn"
F: Final = "fail"
N: Final = "not_assessed"


def verdicts(spec: str) -> dict[CriterionId, Verdict]:
    """'PPWPFPP' → K1..K7 (P pass, W warn, F fail, N not assessed)."""
    letters: dict[str, Verdict] = {"P": P, "W": W, "F": F, "N": N}
    return {c: letters[s] for c, s in zip(CRITERIA, spec, strict=True)}


@pytest.mark.parametrize(
    ("spec", "score", "status", "gate", "overrides"),
    [
        ("PPPPPPP", 7.0, "PASS", False, ()),
        ("WWPPPPP", 6.0, "PASS", False, ()),  # exactly 6 passes, even with ⚠ at K1 and K2
        ("PPWWWPP", 5.5, "REVISE", False, ()),  # 5.5 without ⚠ at K1/K2: no gate
        ("WPPWWPP", 5.5, "REVISE", True, ()),  # human gate: 5.5, ⚠ at K1
        ("PWPPFPP", 5.5, "REVISE", True, ()),  # human gate: 5.5, ⚠ at K2
        ("WPPPFPP", 5.5, "REVISE", True, ()),
        ("WPPWFPP", 5.0, "REVISE", True, ()),  # human gate at 5.0
        ("WPPFFPP", 4.5, "REVISE", False, ()),  # 4.5 → REVISE, no gate
        ("PPFFFPP", 4.0, "REVISE", False, ()),  # exactly 4 is REVISE
        ("PPFFFWP", 3.5, "FAIL", False, ()),
        ("FPPPPPP", 6.0, "REVISE", False, ("K1",)),  # ❌ at K1 caps a PASS score
        ("PFPPPPW", 5.5, "REVISE", False, ("K2",)),  # ❌ at K2: no gate even at 5.5 with ⚠ elsewhere
        ("FWPPPPP", 5.5, "REVISE", False, ("K1",)),  # ⚠ at K2 but ❌ at K1: the cap wins, no gate
        ("FFPPFPP", 4.0, "REVISE", False, ("K1", "K2")),
        ("FFFPFPP", 3.0, "FAIL", False, ("K1", "K2")),
        ("PPPPPFP", 6.0, "FAIL", False, ("K6",)),  # K6 is absolute
        ("WPPWWFP", 4.5, "FAIL", False, ("K6",)),
        ("NNNPNPP", 3.0, "INSUFFICIENT_INFORMATION", False, ()),  # no LLM: never PASS
        ("NNPPNPP", 4.0, "INSUFFICIENT_INFORMATION", False, ()),
        ("NNFPNFP", 2.0, "FAIL", False, ("K6",)),  # a deterministic rule already fails it
        ("NFFFFPF", 1.0, "FAIL", False, ()),  # even with ✔ for the open criterion it stays below 4
        ("NNNFNPF", 1.0, "INSUFFICIENT_INFORMATION", False, ()),  # four open criteria could still reach 5
        ("PPPPPNP", 6.0, "INSUFFICIENT_INFORMATION", False, ()),  # K6 not assessed (regex timeout)
    ],
)
def test_status_mapping(spec: str, score: float, status: Status, gate: bool, overrides: tuple[str, ...]) -> None:
    decision = map_status(verdicts(spec))
    assert (decision.score, decision.status, decision.requires_owner_approval, decision.overrides) == (
        score,
        status,
        gate,
        overrides,
    )


def _result(
    criterion: CriterionId, verdict: Verdict, *rule_ids: str, confidence: float | None = None
) -> CriterionResult:
    reasons = tuple(
        Reason(rule_id=r, rule_text="Regel", criterion=criterion, explanation=f"{criterion} {r}") for r in rule_ids
    )
    return CriterionResult(criterion=criterion, verdict=verdict, reasons=reasons, confidence=confidence)


def _results(**changed: CriterionResult) -> dict[CriterionId, CriterionResult]:
    return {c: changed.get(c) or _result(c, P) for c in CRITERIA}


def test_four_and_a_half_points_show_the_three_biggest_levers() -> None:
    results = _results(
        K1=_result("K1", W, "ID-COH-001"),
        K3=_result("K3", W, "TONE-DO-001", "TONE-LEN-001"),
        K5=_result("K5", W, "DEC-002"),
        K7=_result("K7", F, "VER-001"),
    )
    assert map_status({c: r.verdict for c, r in results.items()}).score == 4.5
    assert [r.rule_id for r in top_levers(results, "REVISE")] == ["VER-001", "ID-COH-001", "TONE-DO-001"]
    assert top_levers(results, "PASS") == ()


def test_levers_put_k6_first_and_fill_up_from_the_strongest() -> None:
    results = _results(K6=_result("K6", F, "GR-TERM-001", "GR-CLAIM-001"), K2=_result("K2", F, "POS-001"))
    assert [r.rule_id for r in top_levers(results, "FAIL")] == ["GR-TERM-001", "POS-001", "GR-CLAIM-001"]


def test_insufficient_information_names_what_was_not_assessed() -> None:
    results = _results(K1=_result("K1", N, "NOT-ASSESSED"), K4=_result("K4", W, "TOPIC-001"))
    assert [r.rule_id for r in top_levers(results, "INSUFFICIENT_INFORMATION")] == ["TOPIC-001", "NOT-ASSESSED"]


Coupled = Literal["K1", "K2"]


@pytest.mark.parametrize(
    ("criterion", "block", "confidence", "blurry", "coupled"),
    [
        ("K1", "identity_core", 0.4, True, True),
        ("K2", "positioning_logic", 0.5, True, True),
        ("K1", "identity_core", 0.9, True, False),  # confident judge: the content is the problem
        ("K1", "identity_core", 0.4, False, False),  # sharp DNA block: the content is the problem
    ],
)
def test_low_confidence_on_a_blurry_block_blames_the_block(
    criterion: Coupled, block: str, confidence: float, blurry: bool, coupled: bool
) -> None:
    dna = (
        build_dna(
            identity_core={"statement": "Wir steigern Umsatz und Wachstum unserer Kunden im Markt."},
            positioning_logic={
                "problem": "Alle brauchen Hilfe.",
                "logic": "Wir helfen flexibel für alle und ganzheitlich.",
            },
        )
        if blurry
        else demo_dna()
    )
    maturity = assess_dna_maturity(dna)
    results = {c: _result(c, P) for c in CRITERIA} | {
        criterion: _result(criterion, W, "ID-COH-001", confidence=confidence)
    }
    after = couple_low_maturity(results, maturity, Thresholds())
    reasons = after[criterion].reasons
    if coupled:
        assert [(r.rule_id, r.block_ref) for r in reasons] == [("LOW-DNA-MATURITY", block)]
        assert after[criterion].verdict == W
        assert f"Reifegrad {maturity.blocks[block].maturity_score}/100" in reasons[0].explanation  # type: ignore[index]
    else:
        assert [r.rule_id for r in reasons] == ["ID-COH-001"]
