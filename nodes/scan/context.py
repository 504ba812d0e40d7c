"""Per-run settings of the ``scan`` graph and the services its nodes use (database, clause index, models)."""

from __future__ import annotations

from functools import lru_cache

from langchain_core.language_models import BaseChatModel
from langgraph.runtime import Runtime
from pydantic import BaseModel, ConfigDict, Field
from pydantic.json_schema import SkipJsonSchema

from nodes.settings import ModelSettings
from nodes.shared.llm import create_chat_model
from nodes.shared.strictness import get_strictness_config
from stores.scan.clause_index import ClauseIndex
from stores.settings import StoreSettings
from stores.sql.engine import Database, open_database
from stores.vector.embedders import create_embedder
from stores.vector.qdrant import open_qdrant

CONFIDENCE_THRESHOLD = 0.70
CLAUSES_PER_CHUNK = 5
SCAN_STRICTNESS_LEVEL = 1  # the most literal decoding: low temperature, fixed seed
FINDINGS_MAX_TOKENS = 2048
CRITIC_MAX_TOKENS = 512


class NoScanModel(RuntimeError):
    def __init__(self) -> None:
        super().__init__(
            "Für die Dokumentprüfung wird ein Sprachmodell gebraucht, es ist aber keins eingestellt "
            "(Anbieter 'extractive'). Bitte BELEGT_LLM_PROVIDER=ollama (mit OLLAMA_BASE_URL) oder "
            "BELEGT_LLM_PROVIDER=mistral (mit MISTRAL_API_KEY) setzen. Es wurde nichts geprüft oder gespeichert."
        )


def model_id(provider: str, model: BaseChatModel) -> str:
    """``provider:model`` as recorded in reports and audit hashes."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    return f"{provider}:{name}"


class ScanServices:
    """What the nodes reach outside the graph: the SQL database, the clause index and the two models."""

    def __init__(
        self,
        *,
        database: Database,
        clauses: ClauseIndex,
        finding_model: BaseChatModel,
        critic_model: BaseChatModel,
        provider: str,
    ) -> None:
        self.database = database
        self.clauses = clauses
        self.finding_model = finding_model
        self.critic_model = critic_model
        self.provider = provider

    @property
    def model_ids(self) -> dict[str, str]:
        return {
            "findings": model_id(self.provider, self.finding_model),
            "critic": model_id(self.provider, self.critic_model),
        }


def create_scan_models(settings: ModelSettings) -> tuple[BaseChatModel, BaseChatModel]:
    """The finding and critic models of the configured provider; NoScanModel without an LLM."""
    strictness = get_strictness_config(SCAN_STRICTNESS_LEVEL)
    provider = settings.provider
    finding_model = create_chat_model(provider, strictness, settings, max_tokens=FINDINGS_MAX_TOKENS)
    critic_model = create_chat_model(provider, strictness, settings, max_tokens=CRITIC_MAX_TOKENS)
    if finding_model is None or critic_model is None:
        raise NoScanModel()
    return finding_model, critic_model


def build_scan_services(
    store_settings: StoreSettings, model_settings: ModelSettings, *, database: Database
) -> ScanServices:
    """Models first, so that without an LLM nothing else is opened (NoScanModel)."""
    finding_model, critic_model = create_scan_models(model_settings)
    clauses = ClauseIndex.from_settings(
        store_settings, client=open_qdrant(store_settings), embedder=create_embedder(store_settings)
    )
    return ScanServices(
        database=database,
        clauses=clauses,
        finding_model=finding_model,
        critic_model=critic_model,
        provider=model_settings.provider,
    )


@lru_cache(maxsize=1)
def services_from_environment() -> ScanServices:
    """Services built from ``BELEGT_*`` settings, once per process (Qdrant local mode locks its folder)."""
    store_settings = StoreSettings()
    return build_scan_services(
        store_settings, ModelSettings(), database=open_database(store_settings.resolved_database_url)
    )


class ScanContext(BaseModel):
    """Per-run settings; ``services`` is set by the CLI and by tests, else built from the environment."""

    model_config = ConfigDict(frozen=True, arbitrary_types_allowed=True)

    confidence_threshold: float = Field(
        CONFIDENCE_THRESHOLD, ge=0.0, le=1.0, description="Findings below it go to the human-review bucket."
    )
    chunk_chars: int = Field(1000, ge=300, le=8000, description="Longest chunk sent to the model, in characters.")
    human_review: bool = Field(False, description="Pause for a reviewer (interrupt) when the bucket is not empty.")
    services: SkipJsonSchema[ScanServices | None] = Field(None, exclude=True, repr=False)


def scan_runtime(runtime: Runtime[ScanContext]) -> tuple[ScanContext, ScanServices]:
    ctx = runtime.context or ScanContext()
    return ctx, ctx.services or services_from_environment()
