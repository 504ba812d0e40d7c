-- Bots: each answers from one knowledge base at one strictness level.
CREATE TABLE bots (
    id text PRIMARY KEY,
    name text NOT NULL,
    kb_id text NOT NULL,
    knowledge_strictness integer NOT NULL DEFAULT 3,
    refusal_message text,
    disclaimer_message text,
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    updated_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT chk_bot_strictness CHECK (knowledge_strictness >= 1 AND knowledge_strictness <= 5)
);
CREATE INDEX ix_bots_kb_id ON bots (kb_id);
