-- Reviewer decisions are audit rows too (0010 made the table after 0008): inserted once, never changed or
-- deleted (SQLite has no TRUNCATE; a DELETE without WHERE fires the trigger too).
CREATE TRIGGER trg_review_decisions_no_update BEFORE UPDATE ON review_decisions
BEGIN
    SELECT RAISE(ABORT, 'append_only:review_decisions:UPDATE');
END;
CREATE TRIGGER trg_review_decisions_no_delete BEFORE DELETE ON review_decisions
BEGIN
    SELECT RAISE(ABORT, 'append_only:review_decisions:DELETE');
END;
