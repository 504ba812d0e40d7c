"""The review web page, served by the LangGraph server itself as a custom route (``http.app``)."""
