"""Serving the graphs: authentication and tenancy (``auth``), HTTP limits and the runtime launcher."""
