-- Every reviewer decision from the review inbox: who decided what and when, and the item before and after.
-- A stored bucket item is open while no decision names it; a refused edit is no decision and is not recorded.
CREATE TABLE review_decisions (
    id integer PRIMARY KEY AUTOINCREMENT,
    item_id text NOT NULL UNIQUE,
    graph text NOT NULL CHECK (graph IN ('answer', 'scan', 'scorecard')),
    origin text NOT NULL CHECK (origin IN ('bucket', 'interrupt')),
    action text NOT NULL CHECK (action IN ('approve', 'edit', 'reject')),
    reviewer text NOT NULL CHECK (length(trim(reviewer)) > 0),
    decided_at timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP,
    note text,
    before text NOT NULL,
    after text NOT NULL
);
CREATE INDEX ix_review_decisions_graph ON review_decisions (graph, decided_at);
