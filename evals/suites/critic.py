"""Suite ``critic``: does the claim critic tell supported from unsupported claims on data nobody here wrote?

XNLI-de dev (entailment = supported; neutral and contradiction = not), WiCE test on its oracle chunks
(English; supported = supported; partially and not supported = not; a claim counts as supported when any
of its chunks supports it), and HaluEval QA (English; right answer = supported, hallucinated = not), with
a length-only baseline beside it because its hallucinated answers are much longer than the right ones.
Methods: the deterministic critic of the answer graph and, when an LLM is configured, the LLM critic.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from evals.bench.data import BenchmarkDataError, read_jsonl
from evals.evaluators.classification import unsupported_detection
from evals.plots import grouped_bars
from evals.suite import Dataset, Metric, Plot, Suite, SuiteContext, SuiteResult, Table, dataset_version, stratified
from nodes.answer.critique import ask_critic, check_claim_deterministically
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config
from stores.kb.models import Hit

XNLI = "xnli_de/dev-de.tsv"
WICE = "wice/oracle_chunks_claim_test.jsonl"
HALUEVAL = {
    "halueval_one_turn": "halueval/qa_one-turn_data.json",
    "halueval_multi_turn": "halueval/qa_multi-turn_data.json",
}
DEFAULT_STRICTNESS = 3


@dataclass(frozen=True)
class ClaimExample:
    """A claim, the evidence chunks it is checked against, the gold label and the dataset's own label."""

    claim: str
    chunks: tuple[str, ...]
    supported: bool
    label: str


Predict = Callable[[ClaimExample], bool]


def load_xnli(path: Path) -> list[ClaimExample]:
    examples = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        fields = line.rstrip("\r").split("\t")
        if len(fields) != 3:
            raise BenchmarkDataError(f"{path}:{number}: drei Spalten erwartet, {len(fields)} gefunden")
        premise, hypothesis, label = fields
        examples.append(ClaimExample(hypothesis, (premise,), label == "entailment", label))
    return examples


def load_wice(path: Path) -> list[ClaimExample]:
    """One example per claim; its oracle chunks are the rows of that claim (labels are per claim)."""
    chunks: dict[str, list[str]] = defaultdict(list)
    claims: dict[str, tuple[str, str]] = {}
    for row in read_jsonl(path):
        claim_id = row["meta"]["id"]
        chunks[claim_id].append(" ".join(row["evidence"]))
        claims[claim_id] = (row["claim"], row["label"])
    return [ClaimExample(claim, tuple(chunks[i]), label == "supported", label) for i, (claim, label) in claims.items()]


def load_halueval(path: Path) -> list[ClaimExample]:
    """Two examples per question: the right answer (supported) and the hallucinated one (not)."""
    examples = []
    for row in read_jsonl(path):
        evidence = (row["knowledge"],)
        examples.append(ClaimExample(row["right_answer"], evidence, True, "right_answer"))
        examples.append(ClaimExample(row["hallucinated_answer"], evidence, False, "hallucinated_answer"))
    return examples


def evidence_hit(text: str) -> Hit:
    """Evidence as the critic sees a cited KB block (no title, stand or work to lean on)."""
    return Hit(
        entry_id="beleg",
        chunk_id="beleg#1",
        kb_id="eval",
        title="",
        section="",
        text=text,
        stand="",
        work="",
        official=True,
        source_ref=None,
        cross_refs=(),
        score=1.0,
        rank=1,
    )


def deterministic_critic(example: ClaimExample) -> bool:
    return any(check_claim_deterministically(example.claim, [evidence_hit(c)], []) for c in example.chunks)


def llm_critic(ctx: SuiteContext) -> Predict:
    level = ctx.settings.strictness or DEFAULT_STRICTNESS
    model = create_chat_model(ctx.settings.provider, get_strictness_config(level), ctx.settings.app)

    def predict(example: ClaimExample) -> bool:
        verdicts = (
            ask_critic(example.claim, [evidence_hit(c)], model, ctx.settings.provider)[0] for c in example.chunks
        )
        return any(v.verdict == "supported" for v in verdicts)

    return predict


def length_baseline(examples: Sequence[ClaimExample]) -> Predict:
    """Unsupported when the answer has more words than the median answer of the sample (no labels used)."""
    median = statistics.median(len(e.claim.split()) for e in examples)
    return lambda example: len(example.claim.split()) <= median


def run(ctx: SuiteContext) -> SuiteResult:
    datasets = {
        "xnli_de": (XNLI, load_xnli(ctx.data(XNLI))),
        "wice": (WICE, load_wice(ctx.data(WICE))),
        **{name: (path, load_halueval(ctx.data(path))) for name, path in HALUEVAL.items()},
    }
    methods: dict[str, Predict] = {"deterministic": deterministic_critic}
    if ctx.settings.llm_configured:
        methods["llm"] = llm_critic(ctx)
    metrics: list[Metric] = []
    label_rows = []
    accuracy: dict[str, dict[str, float]] = defaultdict(dict)
    total = 0
    for name, (_, examples) in datasets.items():
        supported, unsupported = stratified(
            [[e for e in examples if e.supported], [e for e in examples if not e.supported]], ctx.settings.limit
        )
        sample = supported + unsupported
        total += len(sample)
        predictors = dict(methods)
        if name.startswith("halueval"):
            predictors["length_baseline"] = length_baseline(sample)
        for method, predict in predictors.items():
            predictions = [predict(e) for e in ctx.progress.track(sample, f"{name}: {method}")]
            scores = unsupported_detection(
                [{"claim": e.claim} for e in sample],
                [{"supported": p} for p in predictions],
                [{"supported": e.supported} for e in sample],
            )
            for score in scores:
                headline = score["key"] == "balanced_accuracy" and method != "llm"
                metrics.append(
                    Metric(f"{name}.{method}.{score['key']}", score["score"], len(sample), score["comment"], headline)
                )
            accuracy[method][name] = scores[0]["score"]
            for label in sorted({e.label for e in sample}):
                flagged = [not p for e, p in zip(sample, predictions, strict=True) if e.label == label]
                label_rows.append((name, method, label, len(flagged), round(sum(flagged) / len(flagged), 4)))
    names = list(datasets)
    return SuiteResult(
        dataset=Dataset(
            "xnli_de dev + wice test (oracle chunks) + halueval qa",
            dataset_version(*(ctx.data(path) for path, _ in datasets.values())),
            total,
        ),
        metrics=metrics,
        settings={"methods": list(methods), "llm_strictness": ctx.settings.strictness or DEFAULT_STRICTNESS},
        tables=[
            Table(
                "Als „nicht belegt“ markiert je Originallabel", ("Daten", "Methode", "Label", "n", "Anteil"), label_rows
            )
        ],
        plots=[
            Plot(
                "balanced_accuracy.png",
                "Balanced Accuracy der Erkennung „nicht belegt“",
                grouped_bars(
                    names, {m: [accuracy[m].get(n, 0.0) for n in names] for m in accuracy}, ylabel="Balanced Accuracy"
                ),
            )
        ],
        notes=[
            "Positive Klasse: nicht belegt. Deterministischer Kritiker: höchstens ein neuer Inhaltsbegriff "
            "(oder 15 %) und keine Zahl, die der Beleg nicht enthält.",
            "WiCE ist Englisch und wird mit dem deutschen Analyzer verglichen; WiCE-Werte beruhen auf den "
            "Oracle-Chunks, nicht auf dem ursprünglichen WiCE-Datensatz.",
            "HaluEval-Längenbaseline: nicht belegt, wenn die Antwort mehr Wörter hat als der Median der Stichprobe.",
            "LLM-Kritiker: „supported“ gilt als belegt, „partially“ und „unsupported“ als nicht belegt.",
        ],
    )


SUITE = Suite(
    name="critic",
    description="Kritiker auf XNLI-de, WiCE und HaluEval: Balanced Accuracy, Präzision/Recall von „nicht belegt“",
    run=run,
    requires=(XNLI, WICE, *HALUEVAL.values()),
)
