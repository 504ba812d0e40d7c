"""How this installation seals scans and checks them later: the audit key and the optional chain-head file.

The key comes from ``BELEGT_AUDIT_KEY`` (production: a secret store), else from ``<data_dir>/audit.key``,
created once with 32 random bytes and mode 0600. The chain-head file (``BELEGT_AUDIT_HEAD_FILE``) receives
one JSON line per stored scan; open only for appending here, it belongs on storage the database's
administrators cannot rewrite (``chattr +a``, a WORM bucket, a log shipper).
"""

from __future__ import annotations

import json
import os
import secrets
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from stores.settings import StoreSettings

KEY_FILE_NAME = "audit.key"


class ChainHeadUnreadable(OSError):
    def __init__(self, path: Path, line: int) -> None:
        super().__init__(f"Kettenkopf-Datei {path}, Zeile {line}: kein gültiger Eintrag.")


@dataclass(frozen=True)
class ChainHeadLog:
    """An append-only file of (scan id, audit hash) lines."""

    path: Path

    def append(self, scan_id: str, audit_hash: str, findings: int) -> None:
        line = json.dumps(
            {"scan_id": scan_id, "audit_hash": audit_hash, "findings": findings, "at": datetime.now(UTC).isoformat()},
            ensure_ascii=False,
        )
        self.path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o640)
        try:
            os.write(descriptor, (line + "\n").encode("utf-8"))
            os.fsync(descriptor)
        finally:
            os.close(descriptor)

    def heads_of(self, scan_id: str) -> list[str]:
        """Every audit hash recorded for the scan, oldest first (more than one means someone appended)."""
        if not self.path.exists():
            return []
        heads = []
        for number, line in enumerate(self.path.read_text(encoding="utf-8").splitlines(), start=1):
            if not line.strip():
                continue
            try:
                entry = json.loads(line)
                if entry["scan_id"] == scan_id:
                    heads.append(str(entry["audit_hash"]))
            except (ValueError, KeyError, TypeError):
                raise ChainHeadUnreadable(self.path, number) from None
        return heads


@dataclass(frozen=True)
class AuditTrail:
    key: bytes
    heads: ChainHeadLog | None = None

    @classmethod
    def from_settings(cls, settings: StoreSettings) -> AuditTrail:
        heads = ChainHeadLog(settings.audit_head_file) if settings.audit_head_file else None
        if settings.audit_key is not None:
            return cls(key=settings.audit_key.get_secret_value().encode("utf-8"), heads=heads)
        return cls(key=_key_from_file(settings.data_dir / KEY_FILE_NAME), heads=heads)


def _key_from_file(path: Path) -> bytes:
    """The installation's key file, created on first use (an existing file is never overwritten)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        return path.read_bytes().strip()
    try:
        os.write(descriptor, secrets.token_hex(32).encode("ascii"))
    finally:
        os.close(descriptor)
    return path.read_bytes().strip()
