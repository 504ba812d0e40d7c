-- Brand DNA versions (semver, one row per version) and the scorecard audit log.
CREATE TABLE brand_dna_versions (
    brand_id text NOT NULL,
    dna_version text NOT NULL,
    version_major integer NOT NULL,
    version_minor integer NOT NULL,
    version_patch integer NOT NULL,
    change_kind text,
    document jsonb NOT NULL,
    source_name text,
    imported_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (brand_id, dna_version),
    CONSTRAINT chk_dna_change_kind CHECK (change_kind IS NULL OR change_kind IN ('editorial', 'methodical', 'structural'))
);
CREATE UNIQUE INDEX ux_brand_dna_semver ON brand_dna_versions (brand_id, version_major, version_minor, version_patch);

CREATE TABLE scorecard_audit (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    brand_id text NOT NULL,
    dna_version text NOT NULL,
    content_id text NOT NULL,
    input_hash text NOT NULL,
    status text NOT NULL,
    score double precision NOT NULL,
    validated_by text NOT NULL,
    requires_owner_approval boolean NOT NULL,
    feature_flags jsonb NOT NULL,
    model_ids jsonb NOT NULL,
    criteria jsonb NOT NULL,
    maturity jsonb NOT NULL,
    token_usage jsonb NOT NULL,
    latency_ms double precision NOT NULL,
    owner_decision jsonb,
    created_at timestamptz NOT NULL DEFAULT now(),
    decided_at timestamptz,
    FOREIGN KEY (brand_id, dna_version) REFERENCES brand_dna_versions (brand_id, dna_version)
);
CREATE INDEX ix_scorecard_audit_content ON scorecard_audit (content_id);
CREATE INDEX ix_scorecard_audit_brand ON scorecard_audit (brand_id, dna_version);
