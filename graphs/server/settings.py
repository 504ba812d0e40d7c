"""Settings of the served API (env prefix ``BELEGT_``): runtime, limits and the local development key."""

from __future__ import annotations

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings

from stores.settings import SETTINGS_CONFIG

LOCAL_STUDIO_ORIGIN = "https://smith.langchain.com"


class ServerSettings(BaseSettings):
    """Defaults fit one machine: loopback only, Studio's origin only, limits as in the answer graph's context."""

    model_config = SETTINGS_CONFIG

    server_host: str = Field("127.0.0.1", description="Bind address of the served API.")
    server_port: int = Field(8123, ge=1, le=65535)
    server_jobs: int = Field(8, ge=1, le=256, description="Runs executed at the same time per server process.")
    server_database_url: str | None = Field(
        None, description="PostgreSQL URL of the production runtime; default BELEGT_DATABASE_URL."
    )
    server_heartbeat_s: float = Field(
        30.0, ge=1.0, description="Run heartbeat; a run cut off by a crash is taken up again after about 2-4x this."
    )
    redis_url: str = Field("redis://127.0.0.1:6379/0", description="Redis of the production runtime.")
    server_cors_origins: str = Field(
        LOCAL_STUDIO_ORIGIN, description="Browser origins allowed to call the API, separated by commas."
    )
    server_max_body_bytes: int = Field(256 * 1024, ge=1024, description="Larger request bodies get HTTP 413.")
    server_max_question_chars: int = Field(2000, ge=10, description="Longer questions get HTTP 422.")
    server_max_prompt_budget_tokens: int = Field(3000, ge=200, description="Upper bound of prompt_budget_tokens.")
    server_max_candidates: int = Field(
        14, ge=1, le=50, description="Upper bound of retrieval_limit and its survey twin."
    )
    server_min_confidence_threshold: float = Field(
        0.70, ge=0.0, le=1.0, description="Clients may raise confidence_threshold, never lower it below this."
    )
    server_rate_limit_per_minute: int = Field(600, ge=1, description="Requests per API key and minute (then 429).")
    server_rate_limit_burst: int = Field(60, ge=1, description="Requests a key may send at once before throttling.")
    dev_api_key: SecretStr | None = Field(
        None, description="Development key for Studio on loopback (admin of BELEGT_DEV_BOT); never set in production."
    )
    dev_bot: str = Field("hr-demo", description="Bot the development key acts for.")
