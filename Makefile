# belegt — the two commands a newcomer needs are `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8123
export HF_HUB_OFFLINE := 1
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := true

CHROMIUM := /usr/bin/chromium
.PHONY: serve test lint eval venv check clean browser regenerate

# pip prints each package it collects and a bar with the time left for each download: a first install takes
# 1–3 minutes and should not look like a hang.
$(STAMP): pyproject.toml
	@echo "==> [1/3] Python-Umgebung $(VENV) anlegen"
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "==> [2/3] pip aktualisieren"
	$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "==> [3/3] belegt und alle Abhängigkeiten installieren (beim ersten Mal 1–3 min; jede Zeile ist ein Paket)"
	$(BIN)/python -m pip install --progress-bar on -e '.[dev]'
	@echo "==> Installation fertig"
	touch $(STAMP)

venv: $(STAMP)

## The system Chromium the browser test drives through Playwright (Debian packages; no browser download).
$(CHROMIUM):
	@echo "$(CHROMIUM) fehlt: installiere chromium und chromium-driver mit apt-get (für den Browsertest)."
	apt-get update
	apt-get install -y --no-install-recommends chromium chromium-driver

browser: $(CHROMIUM)

## Set everything up on embedded defaults, ingest the demo KB and serve the graphs (Studio) on 127.0.0.1:8123.
serve: $(STAMP)
	$(BIN)/belegt --help
	$(BIN)/belegt check
	$(BIN)/belegt ingest demo/kb --kb demo
	$(BIN)/belegt bots create hr-demo --kb demo --name "HR-Demo" --exist-ok
	$(BIN)/belegt ask "Wie viele Urlaubstage habe ich in Vollzeit?" --bot hr-demo
	@# --no-reload: the reloader watches the whole checkout, where the dev server flushes .langgraph_api/ every
	@# 10 s and belegt writes var/ ("3 changes detected" forever); langgraph dev cannot exclude folders.
	@echo "Prüfseite (Prüfablage): http://127.0.0.1:$(PORT)/review"
	$(BIN)/langgraph dev --host 127.0.0.1 --port $(PORT) --no-browser --no-reload

## The full default test suite, lint and types included.
test: $(STAMP) lint $(CHROMIUM)
	$(BIN)/python -m pytest

## Every offline eval suite at full size (reads ../shared/data); reports under evals/results/.
eval: $(STAMP)
	$(BIN)/belegt eval all

## After an intended change to a graph or a command: rewrite the topology snapshots and the README command table.
regenerate: $(STAMP)
	$(BIN)/python -m tests.graph.topology
	$(BIN)/python -m evals.cli_reference

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
