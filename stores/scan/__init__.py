"""Storage of the document scan: catalogues, documents and pages, verified findings, audit hashes."""
