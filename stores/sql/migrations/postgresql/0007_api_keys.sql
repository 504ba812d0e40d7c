-- API keys of the served graphs: only a SHA-256 hash of the secret is kept; each key is bound to one bot.
CREATE TABLE api_keys (
    id text PRIMARY KEY,
    bot_id text NOT NULL REFERENCES bots (id),
    role text NOT NULL,
    label text,
    secret_hash text NOT NULL,
    created_at timestamptz NOT NULL DEFAULT now(),
    revoked_at timestamptz,
    CONSTRAINT chk_api_key_role CHECK (role IN ('user', 'reviewer', 'admin'))
);
CREATE INDEX ix_api_keys_bot_id ON api_keys (bot_id);
