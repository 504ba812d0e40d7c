-- Document scan: versioned requirement catalogues, documents split into pages, scans and their findings.
-- Every finding row must quote its page verbatim (modulo whitespace); the database checks that itself.
--
-- canonical_whitespace(x) is written out below because SQLite has neither regular expressions nor SQL
-- functions: each of tab, LF, VT, FF, CR, NBSP (160), thin space (8201) and narrow NBSP (8239) becomes a
-- space; then every space becomes the pair char(1)char(2), every char(2)char(1) between two pairs is
-- deleted (a run of n pairs shrinks to one pair), and the remaining pairs become single spaces; finally the
-- ends are trimmed. The pair trick is exact for runs of any length as long as the text itself holds no
-- char(1) or char(2), which CHECK constraints forbid for page texts and quotes. The result equals
-- PostgreSQL's btrim(regexp_replace(x, '[\t\n\v\f\r \u00a0\u2009\u202f]+', ' ', 'g'), ' ') and
-- stores/scan/whitespace.py (tests/unit/test_scan_whitespace.py compares all three on generated text).

CREATE TABLE catalog_versions (
    id integer PRIMARY KEY AUTOINCREMENT,
    name text NOT NULL,
    source_file text NOT NULL,
    source_sha256 text NOT NULL CHECK (length(source_sha256) = 64),
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE requirements (
    id integer PRIMARY KEY AUTOINCREMENT,
    catalog_version_id integer NOT NULL REFERENCES catalog_versions (id) ON DELETE CASCADE,
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
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE document_pages (
    document_id text NOT NULL REFERENCES documents (id) ON DELETE CASCADE,
    page_number integer NOT NULL CHECK (page_number >= 1),
    raw_text text NOT NULL
        CHECK (length(raw_text) <= 1000000 AND instr(raw_text, char(1)) = 0 AND instr(raw_text, char(2)) = 0),
    is_citable integer NOT NULL CHECK (is_citable IN (0, 1)),
    normalized_text text GENERATED ALWAYS AS (
        trim(
            replace(replace(replace(
                replace(replace(replace(replace(replace(replace(replace(replace(raw_text,
                char(9), ' '), char(10), ' '), char(11), ' '), char(12), ' '), char(13), ' '),
                char(160), ' '), char(8201), ' '), char(8239), ' '),
            ' ', char(1) || char(2)), char(2) || char(1), ''), char(1) || char(2), ' '),
            ' ')
    ) STORED,
    PRIMARY KEY (document_id, page_number)
);

CREATE TABLE scans (
    id text PRIMARY KEY,
    document_id text NOT NULL REFERENCES documents (id),
    catalog_version_id integer NOT NULL REFERENCES catalog_versions (id),
    model_ids text NOT NULL,
    prompt_version text NOT NULL,
    confidence_threshold real NOT NULL CHECK (confidence_threshold >= 0 AND confidence_threshold <= 1),
    audit_hash text NOT NULL CHECK (length(audit_hash) = 64),
    created_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX ix_scans_document ON scans (document_id);

CREATE TABLE findings (
    scan_id text NOT NULL REFERENCES scans (id) ON DELETE CASCADE,
    position integer NOT NULL CHECK (position >= 1),
    requirement_id integer NOT NULL REFERENCES requirements (id),
    chunk_id text NOT NULL,
    page_number integer NOT NULL,
    exact_quote text NOT NULL
        CHECK (length(exact_quote) <= 2000 AND instr(exact_quote, char(1)) = 0 AND instr(exact_quote, char(2)) = 0),
    finding_text text NOT NULL,
    proposed_severity text NOT NULL CHECK (proposed_severity IN ('MAJOR', 'MINOR', 'HINT')),
    severity text NOT NULL CHECK (severity IN ('MAJOR', 'MINOR', 'HINT', 'UNCERTAIN')),
    bucket text NOT NULL CHECK (bucket IN ('report', 'human_review')),
    confidence real NOT NULL CHECK (confidence >= 0 AND confidence <= 1),
    human_reviewed integer NOT NULL CHECK (human_reviewed IN (0, 1)),
    finding_hash text NOT NULL CHECK (length(finding_hash) = 64),
    PRIMARY KEY (scan_id, position),
    CONSTRAINT chk_finding_bucket CHECK ((bucket = 'human_review') = (severity = 'UNCERTAIN'))
);

-- Layer 3 of the scan: a finding is stored only when its quote stands on the cited, citable page of the
-- scanned document and its requirement is an ACTIVE clause of the scanned catalogue version. Every test
-- is written so that a NULL anywhere rejects the row.
CREATE TRIGGER trg_findings_verify_quote
BEFORE INSERT ON findings
BEGIN
    SELECT CASE
        WHEN scan.id IS NULL THEN RAISE(ABORT, 'finding_rejected:scan_missing')
        WHEN page.page_number IS NULL THEN RAISE(ABORT, 'finding_rejected:page_missing')
        WHEN coalesce(page.is_citable, 0) <> 1 THEN RAISE(ABORT, 'finding_rejected:page_not_citable')
        WHEN coalesce(length(quote.text), 0) < 10 THEN RAISE(ABORT, 'finding_rejected:quote_too_short')
        WHEN coalesce(instr(page.normalized_text, quote.text), 0) = 0
            THEN RAISE(ABORT, 'finding_rejected:quote_not_on_page')
        WHEN NOT EXISTS (
            SELECT 1 FROM requirements AS requirement
            WHERE requirement.id = NEW.requirement_id
              AND requirement.catalog_version_id = scan.catalog_version_id
              AND requirement.clause_status = 'ACTIVE'
        ) THEN RAISE(ABORT, 'finding_rejected:requirement_outside_catalog')
    END
    FROM (SELECT
            trim(
                replace(replace(replace(
                    replace(replace(replace(replace(replace(replace(replace(replace(NEW.exact_quote,
                    char(9), ' '), char(10), ' '), char(11), ' '), char(12), ' '), char(13), ' '),
                    char(160), ' '), char(8201), ' '), char(8239), ' '),
                ' ', char(1) || char(2)), char(2) || char(1), ''), char(1) || char(2), ' '),
                ' ') AS text
        ) AS quote
        LEFT JOIN scans AS scan ON scan.id = NEW.scan_id
        LEFT JOIN document_pages AS page
            ON page.document_id = scan.document_id AND page.page_number = NEW.page_number;
END;

-- What a scan's audit hash covers is written once and never changed.
CREATE TRIGGER trg_catalog_versions_immutable BEFORE UPDATE ON catalog_versions
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:catalog_versions');
END;
CREATE TRIGGER trg_requirements_immutable BEFORE UPDATE ON requirements
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:requirements');
END;
CREATE TRIGGER trg_documents_immutable BEFORE UPDATE ON documents
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:documents');
END;
CREATE TRIGGER trg_document_pages_immutable BEFORE UPDATE ON document_pages
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:document_pages');
END;
CREATE TRIGGER trg_scans_immutable BEFORE UPDATE ON scans
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:scans');
END;
CREATE TRIGGER trg_findings_immutable BEFORE UPDATE ON findings
BEGIN
    SELECT RAISE(ABORT, 'row_immutable:findings');
END;
