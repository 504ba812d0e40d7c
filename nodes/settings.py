"""Settings of the reasoning layer: which LLM provider and models (env prefix ``BELEGT_``)."""

from __future__ import annotations

from typing import Literal

from pydantic import Field, model_validator

from stores.settings import SETTINGS_CONFIG, ProviderEndpoints

ProviderName = Literal["ollama", "mistral", "extractive"]


class ModelSettings(ProviderEndpoints):
    """LLM provider settings. With nothing configured the provider is ``extractive`` (no LLM)."""

    model_config = SETTINGS_CONFIG

    llm_provider: ProviderName | None = Field(
        None,
        description="ollama | mistral | extractive; unset: mistral if a key is set, ollama if a URL is set.",
    )
    ollama_model: str = "qwen3:8b"
    mistral_model: str = "mistral-small-latest"
    ollama_num_ctx: int = Field(8192, ge=512, description="Sent explicitly: Ollama's default depends on VRAM.")
    request_timeout_s: float = Field(120.0, gt=0)

    @model_validator(mode="after")
    def _mistral_needs_key(self) -> ModelSettings:
        if self.llm_provider == "mistral" and self.mistral_api_key is None:
            raise ValueError("BELEGT_LLM_PROVIDER=mistral braucht MISTRAL_API_KEY")
        return self

    @property
    def provider(self) -> ProviderName:
        if self.llm_provider is not None:
            return self.llm_provider
        if self.mistral_api_key is not None:
            return "mistral"
        if self.ollama_base_url is not None:
            return "ollama"
        return "extractive"

    def model_for(self, provider: ProviderName) -> str:
        return {"ollama": self.ollama_model, "mistral": self.mistral_model, "extractive": "extractive"}[provider]
