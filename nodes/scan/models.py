"""Step 0: make sure both models exist before any work, and record which ones the scan uses."""

from __future__ import annotations

from typing import Any

from langchain_core.language_models import BaseChatModel

from nodes.scan.services import ScanServices
from nodes.scan.state import ScanState


def model_id(provider: str, model: BaseChatModel) -> str:
    """``provider:model`` as recorded in reports and audit hashes."""
    name = getattr(model, "model_name", None) or getattr(model, "model", None) or type(model).__name__
    return f"{provider}:{name}"


def model_ids(services: ScanServices) -> dict[str, str]:
    """Both model ids; creating the models raises NoScanModel when no LLM is configured."""
    return {
        "findings": model_id(services.provider, services.finding_model),
        "critic": model_id(services.provider, services.critic_model),
    }


def check_models(state: ScanState, *, services: ScanServices) -> dict[str, Any]:
    return {"model_ids": model_ids(services)}
