"""Brand DNA: versioned models, SQL store, file import and the scorecard audit log."""
