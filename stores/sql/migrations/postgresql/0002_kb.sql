-- Knowledge bases: the ingested entries (with content hashes for idempotent re-ingestion) and declared conflicts.
CREATE TABLE knowledge_bases (
    kb_id text PRIMARY KEY,
    id_pattern text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE TABLE kb_entries (
    kb_id text NOT NULL REFERENCES knowledge_bases (kb_id) ON DELETE CASCADE,
    entry_id text NOT NULL,
    content_hash text NOT NULL,
    chunk_count integer NOT NULL,
    entry text NOT NULL,
    updated_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (kb_id, entry_id),
    CONSTRAINT chk_kb_entry_chunks CHECK (chunk_count >= 1)
);
CREATE TABLE kb_conflicts (
    kb_id text NOT NULL REFERENCES knowledge_bases (kb_id) ON DELETE CASCADE,
    conflict_key text NOT NULL,
    topic text NOT NULL,
    ids text NOT NULL,
    sides text NOT NULL,
    PRIMARY KEY (kb_id, conflict_key)
);
