"""Summary evaluator for "unsupported" detection: ``outputs[i]["supported"]`` against the reference.

The positive class is *unsupported*, which is what a critic has to catch. Signature of a LangSmith
summary evaluator: lists of inputs, outputs and reference outputs of all examples.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from evals.evaluators import EvaluationResult, result


def unsupported_detection(
    inputs: Sequence[Mapping[str, Any]],
    outputs: Sequence[Mapping[str, Any]],
    reference_outputs: Sequence[Mapping[str, Any]],
) -> list[EvaluationResult]:
    """Balanced accuracy, precision and recall of the predicted label "unsupported"."""
    pairs = [(not o["supported"], not r["supported"]) for o, r in zip(outputs, reference_outputs, strict=True)]
    true_pos = sum(p and t for p, t in pairs)
    false_pos = sum(p and not t for p, t in pairs)
    false_neg = sum(not p and t for p, t in pairs)
    true_neg = sum(not p and not t for p, t in pairs)
    recall = true_pos / (true_pos + false_neg) if true_pos + false_neg else 0.0
    specificity = true_neg / (true_neg + false_pos) if true_neg + false_pos else 0.0
    precision = true_pos / (true_pos + false_pos) if true_pos + false_pos else 0.0
    counts = f"TP {true_pos}, FP {false_pos}, FN {false_neg}, TN {true_neg}"
    return [
        result("balanced_accuracy", round((recall + specificity) / 2, 4), counts),
        result("precision_unsupported", round(precision, 4), counts),
        result("recall_unsupported", round(recall, 4), counts),
    ]
