-- Brand DNA versions (semver, one row per version) and the scorecard audit log.
CREATE TABLE brand_dna_versions (
    brand_id text NOT NULL,
    dna_version text NOT NULL,
    version_major integer NOT NULL,
    version_minor integer NOT NULL,
    version_patch integer NOT NULL,
    change_kind text,
    document text NOT NULL,
    source_name text,
    imported_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    PRIMARY KEY (brand_id, dna_version),
    CONSTRAINT chk_dna_change_kind CHECK (change_kind IS NULL OR change_kind IN ('editorial', 'methodical', 'structural'))
);
CREATE UNIQUE INDEX ux_brand_dna_semver ON brand_dna_versions (brand_id, version_major, version_minor, version_patch);

CREATE TABLE scorecard_audit (
    id integer PRIMARY KEY AUTOINCREMENT,
    brand_id text NOT NULL,
    dna_version text NOT NULL,
    content_id text NOT NULL,
    input_hash text NOT NULL,
    status text NOT NULL,
    score real NOT NULL,
    validated_by text NOT NULL,
    requires_owner_approval boolean NOT NULL,
    feature_flags text NOT NULL,
    model_ids text NOT NULL,
    criteria text NOT NULL,
    maturity text NOT NULL,
    token_usage text NOT NULL,
    latency_ms real NOT NULL,
    owner_decision text,
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    decided_at timestamp,
    FOREIGN KEY (brand_id, dna_version) REFERENCES brand_dna_versions (brand_id, dna_version)
);
CREATE INDEX ix_scorecard_audit_content ON scorecard_audit (content_id);
CREATE INDEX ix_scorecard_audit_brand ON scorecard_audit (brand_id, dna_version);
