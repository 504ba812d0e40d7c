-- The audit trail is append-only: scans, their findings and everything a scan's audit hash rests on, and
-- the scorecard audit log. Rows are inserted once; UPDATE (0003 already), DELETE and TRUNCATE are refused,
-- whoever asks. The one exception: a scorecard audit row receives its owner decision exactly once.
-- A reviewed finding names its reviewer. (No percent signs in this file: psycopg reads them as placeholders.)

CREATE FUNCTION reject_audit_change() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE = 'append_only:' || TG_TABLE_NAME || ':' || TG_OP, ERRCODE = 'check_violation';
END;
$$;

CREATE TRIGGER trg_catalog_versions_no_delete BEFORE DELETE ON catalog_versions
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_requirements_no_delete BEFORE DELETE ON requirements
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_documents_no_delete BEFORE DELETE ON documents
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_document_pages_no_delete BEFORE DELETE ON document_pages
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_scans_no_delete BEFORE DELETE ON scans
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_findings_no_delete BEFORE DELETE ON findings
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_scorecard_audit_no_delete BEFORE DELETE ON scorecard_audit
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();

-- TRUNCATE fires no row triggers; statement-level ones catch it (cascaded tables included).
CREATE TRIGGER trg_catalog_versions_no_truncate BEFORE TRUNCATE ON catalog_versions
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_requirements_no_truncate BEFORE TRUNCATE ON requirements
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_documents_no_truncate BEFORE TRUNCATE ON documents
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_document_pages_no_truncate BEFORE TRUNCATE ON document_pages
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_scans_no_truncate BEFORE TRUNCATE ON scans
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_findings_no_truncate BEFORE TRUNCATE ON findings
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_scorecard_audit_no_truncate BEFORE TRUNCATE ON scorecard_audit
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();

-- A scorecard row may change once, from "no owner decision" to "decided"; nothing else of it ever changes.
CREATE FUNCTION guard_owner_decision() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.owner_decision IS NOT NULL OR NEW.owner_decision IS NULL OR NEW.decided_at IS NULL
        OR (to_jsonb(NEW) - ARRAY['status', 'validated_by', 'owner_decision', 'decided_at'])
           IS DISTINCT FROM (to_jsonb(OLD) - ARRAY['status', 'validated_by', 'owner_decision', 'decided_at']) THEN
        RAISE EXCEPTION USING MESSAGE = 'append_only:scorecard_audit:UPDATE', ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER trg_scorecard_audit_decide_once BEFORE UPDATE ON scorecard_audit
    FOR EACH ROW EXECUTE FUNCTION guard_owner_decision();

ALTER TABLE findings ADD COLUMN reviewed_by text;

CREATE FUNCTION require_reviewer() RETURNS trigger
    LANGUAGE plpgsql AS $$
BEGIN
    IF NEW.human_reviewed IS DISTINCT FROM (coalesce(btrim(NEW.reviewed_by), '') <> '') THEN
        RAISE EXCEPTION 'finding_rejected:reviewer_missing' USING ERRCODE = 'check_violation';
    END IF;
    RETURN NEW;
END;
$$;

CREATE TRIGGER trg_findings_reviewer BEFORE INSERT ON findings
    FOR EACH ROW EXECUTE FUNCTION require_reviewer();
