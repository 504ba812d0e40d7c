-- Reviewer decisions are audit rows too (0010 made the table after 0008): inserted once, never changed,
-- deleted or truncated, whoever asks. reject_audit_change() comes from 0008.
CREATE TRIGGER trg_review_decisions_no_update BEFORE UPDATE ON review_decisions
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_review_decisions_no_delete BEFORE DELETE ON review_decisions
    FOR EACH ROW EXECUTE FUNCTION reject_audit_change();
CREATE TRIGGER trg_review_decisions_no_truncate BEFORE TRUNCATE ON review_decisions
    FOR EACH STATEMENT EXECUTE FUNCTION reject_audit_change();
