"""Nodes of the ``scan`` graph: closed-world review of a document against a requirement catalogue."""
