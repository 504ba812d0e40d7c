-- The audit trail is append-only: scans, their findings and everything a scan's audit hash rests on, and
-- the scorecard audit log. Rows are inserted once; UPDATE (0003 already) and DELETE are refused (SQLite has
-- no TRUNCATE; a DELETE without WHERE fires these triggers too). The one exception: a scorecard audit row
-- receives its owner decision exactly once. A reviewed finding names its reviewer.

CREATE TRIGGER trg_catalog_versions_no_delete BEFORE DELETE ON catalog_versions
BEGIN
    SELECT RAISE(ABORT, 'append_only:catalog_versions:DELETE');
END;
CREATE TRIGGER trg_requirements_no_delete BEFORE DELETE ON requirements
BEGIN
    SELECT RAISE(ABORT, 'append_only:requirements:DELETE');
END;
CREATE TRIGGER trg_documents_no_delete BEFORE DELETE ON documents
BEGIN
    SELECT RAISE(ABORT, 'append_only:documents:DELETE');
END;
CREATE TRIGGER trg_document_pages_no_delete BEFORE DELETE ON document_pages
BEGIN
    SELECT RAISE(ABORT, 'append_only:document_pages:DELETE');
END;
CREATE TRIGGER trg_scans_no_delete BEFORE DELETE ON scans
BEGIN
    SELECT RAISE(ABORT, 'append_only:scans:DELETE');
END;
CREATE TRIGGER trg_findings_no_delete BEFORE DELETE ON findings
BEGIN
    SELECT RAISE(ABORT, 'append_only:findings:DELETE');
END;
CREATE TRIGGER trg_scorecard_audit_no_delete BEFORE DELETE ON scorecard_audit
BEGIN
    SELECT RAISE(ABORT, 'append_only:scorecard_audit:DELETE');
END;

-- A scorecard row may change once, from "no owner decision" to "decided"; nothing else of it ever changes.
CREATE TRIGGER trg_scorecard_audit_decide_once BEFORE UPDATE ON scorecard_audit
WHEN OLD.owner_decision IS NOT NULL OR NEW.owner_decision IS NULL OR NEW.decided_at IS NULL
    OR NEW.id IS NOT OLD.id OR NEW.brand_id IS NOT OLD.brand_id OR NEW.dna_version IS NOT OLD.dna_version
    OR NEW.content_id IS NOT OLD.content_id OR NEW.input_hash IS NOT OLD.input_hash
    OR NEW.score IS NOT OLD.score OR NEW.requires_owner_approval IS NOT OLD.requires_owner_approval
    OR NEW.feature_flags IS NOT OLD.feature_flags OR NEW.model_ids IS NOT OLD.model_ids
    OR NEW.criteria IS NOT OLD.criteria OR NEW.maturity IS NOT OLD.maturity
    OR NEW.token_usage IS NOT OLD.token_usage OR NEW.latency_ms IS NOT OLD.latency_ms
    OR NEW.created_at IS NOT OLD.created_at
BEGIN
    SELECT RAISE(ABORT, 'append_only:scorecard_audit:UPDATE');
END;

ALTER TABLE findings ADD COLUMN reviewed_by text;

CREATE TRIGGER trg_findings_reviewer BEFORE INSERT ON findings
WHEN (NEW.human_reviewed = 1) IS NOT (trim(coalesce(NEW.reviewed_by, '')) <> '')
BEGIN
    SELECT RAISE(ABORT, 'finding_rejected:reviewer_missing');
END;
