-- Output record of every answer-graph run (already redacted where the pii guardrail was active).
CREATE TABLE answer_records (
    id bigserial PRIMARY KEY,
    created_at timestamptz NOT NULL DEFAULT now(),
    bot_id text,
    kb_id text,
    bucket text NOT NULL,
    record jsonb NOT NULL
);
CREATE INDEX ix_answer_records_bucket ON answer_records (bucket);
