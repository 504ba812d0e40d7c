-- Output record of every answer-graph run (already redacted where the pii guardrail was active).
CREATE TABLE answer_records (
    id integer PRIMARY KEY AUTOINCREMENT,
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    bot_id text,
    kb_id text,
    bucket text NOT NULL,
    record text NOT NULL
);
CREATE INDEX ix_answer_records_bucket ON answer_records (bucket);
