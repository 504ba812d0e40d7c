-- The application connects as a role that owns nothing: it cannot drop or disable triggers, cannot
-- TRUNCATE and cannot switch session_replication_role (superusers only). The schema owner runs the
-- migrations and then, after every migration, SELECT grant_application_role('belegt_app');
-- Audit tables (review_decisions too, once 0010 made it) get SELECT and INSERT only (scorecard_audit also the
-- owner-decision columns); every other table the four data privileges; sequences USAGE and SELECT.
-- Triggers (0003, 0008) still apply on top.
-- (No percent signs in this file: psycopg reads them as placeholders.)

CREATE FUNCTION grant_application_role(role_name text) RETURNS void
    LANGUAGE plpgsql AS $$
DECLARE
    audit_tables text[] := ARRAY[
        'catalog_versions', 'requirements', 'documents', 'document_pages', 'scans', 'findings',
        'scorecard_audit', 'review_decisions', 'schema_migrations'
    ];
    entry record;
BEGIN
    EXECUTE 'GRANT USAGE ON SCHEMA ' || quote_ident(current_schema()) || ' TO ' || quote_ident(role_name);
    EXECUTE 'GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA ' || quote_ident(current_schema())
        || ' TO ' || quote_ident(role_name);
    FOR entry IN SELECT tablename FROM pg_tables WHERE schemaname = current_schema() LOOP
        EXECUTE 'GRANT ' || CASE WHEN entry.tablename = ANY (audit_tables) THEN 'SELECT, INSERT'
                                 ELSE 'SELECT, INSERT, UPDATE, DELETE' END
            || ' ON ' || quote_ident(entry.tablename) || ' TO ' || quote_ident(role_name);
    END LOOP;
    EXECUTE 'GRANT UPDATE (status, validated_by, owner_decision, decided_at) ON scorecard_audit TO '
        || quote_ident(role_name);
END;
$$;
