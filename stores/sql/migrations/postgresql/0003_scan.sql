-- Document scan: versioned requirement catalogues, documents split into pages, scans and their findings.
-- Every finding row must quote its page verbatim (modulo whitespace); the database checks that itself.

CREATE TABLE catalog_versions (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name text NOT NULL,
    source_file text NOT NULL,
    source_sha256 text NOT NULL CHECK (length(source_sha256) = 64),
    created_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE requirements (
    id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    catalog_version_id bigint NOT NULL REFERENCES catalog_versions (id) ON DELETE CASCADE,
    stable_id text NOT NULL,
    clause_path text NOT NULL,
    title text NOT NULL,
    requirement_text text NOT NULL,
    normalized_text text NOT NULL,
    clause_status text NOT NULL CHECK (clause_status IN ('ACTIVE', 'RETIRED')),
    CONSTRAINT uq_requirement_per_version UNIQUE (catalog_version_id, stable_id)
);

CREATE TABLE documents (
    id text PRIMARY KEY,
    sha256 text NOT NULL UNIQUE CHECK (length(sha256) = 64),
    file_name text NOT NULL,
    media_type text NOT NULL CHECK (media_type IN ('application/pdf', 'text/markdown', 'text/plain')),
    page_count integer NOT NULL CHECK (page_count >= 1),
    created_at timestamptz NOT NULL DEFAULT now()
);

-- The one whitespace rule, shared with stores/scan/whitespace.py and the SQLite migration: every run of
-- tab, LF, VT, FF, CR, space, NBSP, thin space or narrow NBSP becomes one space; the ends are trimmed.
-- char(1) and char(2) are forbidden in page texts and quotes only because SQLite's version needs them.
CREATE FUNCTION canonical_whitespace(value text) RETURNS text
    LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
    RETURN btrim(regexp_replace(value, '[\t\n\v\f\r \u00a0\u2009\u202f]+', ' ', 'g'), ' ');

CREATE TABLE document_pages (
    document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page_number integer NOT NULL CHECK (page_number >= 1),
    raw_text text NOT NULL
        CHECK (length(raw_text) <= 1000000 AND strpos(raw_text, chr(1)) = 0 AND strpos(raw_text, chr(2)) = 0),
    is_citable boolean NOT NULL,
    normalized_text text GENERATED ALWAYS AS (canonical_whitespace(raw_text)) STORED,
    PRIMARY KEY (document_id, page_number)
);

CREATE TABLE scans (
    id text PRIMARY KEY,
    document_id text NOT NULL REFERENCES documents (id),
    catalog_version_id bigint NOT NULL REFERENCES catalog_versions (id),
    model_ids text NOT NULL,
    prompt_version text NOT NULL,
    confidence_threshold double precision NOT NULL CHECK (confidence_threshold >= 0 AND confidence_threshold <= 1),
    audit_hash text NOT NULL CHECK (length(audit_hash) = 64),
    created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX ix_scans_document ON scans (document_id);

CREATE TABLE findings (
    scan_id text NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 1),
    requirement_id bigint NOT NULL REFERENCES requirements (id),
    chunk_id text NOT NULL,
    page_number integer NOT NULL,
    exact_quote text NOT NULL
        CHECK (length(exact_quote) <= 2000 AND strpos(exact_quote, chr(1)) = 0 AND strpos(exact_quote, chr(2)) = 0),
    finding_text text NOT NULL,
    proposed_severity text NOT NULL CHECK (proposed_severity IN ('MAJOR', 'MINOR', 'HINT')),
    severity text NOT NULL CHECK (severity IN ('MAJOR', 'MINOR', 'HINT', 'UNCERTAIN')),
    bucket text NOT NULL CHECK (bucket IN ('report', 'human_review')),
    confidence double precision NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    human_reviewed boolean NOT NULL,
    finding_hash text NOT NULL CHECK (length(finding_hash) = 64),
    PRIMARY KEY (scan_id, position),
    CONSTRAINT chk_finding_bucket CHECK ((bucket = 'human_review') = (severity = 'UNCERTAIN'))
);

-- Layer 3 of the scan: a finding is stored only when its quote stands on the cited, citable page of the
-- scanned document and its requirement is an ACTIVE clause of the scanned catalogue version.
CREATE FUNCTION verify_finding_quote() RETURNS trigger
    LANGUAGE plpgsql AS $$
DECLARE
    scan_document text;
    scan_catalog bigint;
    page_citable boolean;
    page_text text;
    quote text := canonical_whitespace(NEW.exact_quote);
BEGIN
    SELECT document_id, catalog_version_id INTO scan_document, scan_catalog FROM scans WHERE id = NEW.scan_id;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'finding_rejected:scan_missing' USING ERRCODE = 'check_violation';
    END IF;
    SELECT is_citable, normalized_text INTO page_citable, page_text FROM document_pages
        WHERE document_id = scan_document AND page_number = NEW.page_number;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'finding_rejected:page_missing'
            USING ERRCODE = 'check_violation', DETAIL = 'page ' || NEW.page_number;
    END IF;
    IF NOT page_citable THEN
        RAISE EXCEPTION 'finding_rejected:page_not_citable'
            USING ERRCODE = 'check_violation', DETAIL = 'page ' || NEW.page_number;
    END IF;
    IF coalesce(length(quote), 0) < 10 THEN
        RAISE EXCEPTION 'finding_rejected:quote_too_short' USING ERRCODE = 'check_violation';
    END IF;
    IF coalesce(position(quote IN page_text), 0) = 0 THEN
        RAISE EXCEPTION 'finding_rejected:quote_not_on_page'
            USING ERRCODE = 'check_violation', DETAIL = 'page ' || NEW.page_number;
    END IF;
    IF NOT EXISTS (
        SELECT 1 FROM requirements
        WHERE id = NEW.requirement_id
          AND catalog_version_id = scan_catalog
          AND clause_status = 'ACTIVE'
    ) THEN
        RAISE EXCEPTION 'finding_rejected:requirement_outside_catalog' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER trg_findings_verify_quote
    BEFORE INSERT ON findings
    FOR EACH ROW EXECUTE FUNCTION verify_finding_quote();

-- What a scan's audit hash covers is written once and never changed. (No percent signs in this file:
-- the migration runs through psycopg, which reads them as placeholders.)
CREATE FUNCTION reject_scan_update() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE = 'row_immutable:' || TG_TABLE_NAME, ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER trg_catalog_versions_immutable BEFORE UPDATE ON catalog_versions
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
CREATE TRIGGER trg_requirements_immutable BEFORE UPDATE ON requirements
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
CREATE TRIGGER trg_documents_immutable BEFORE UPDATE ON documents
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
CREATE TRIGGER trg_document_pages_immutable BEFORE UPDATE ON document_pages
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
CREATE TRIGGER trg_scans_immutable BEFORE UPDATE ON scans
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
CREATE TRIGGER trg_findings_immutable BEFORE UPDATE ON findings
    FOR EACH ROW EXECUTE FUNCTION reject_scan_update();
