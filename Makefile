# belegt — the two commands a newcomer needs are `make serve` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 8123
# Development key for Studio on loopback (header x-api-key); `belegt serve --prod` refuses it.
DEV_API_KEY ?= belegt-dev-local
export HF_HUB_OFFLINE := 1
export LANGGRAPH_CLI_NO_ANALYTICS := 1
export LANGGRAPH_NO_VERSION_CHECK := true

CHROMIUM := /usr/bin/chromium
.PHONY: serve serve-prod test lint eval venv check clean browser regenerate thesaurus

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

## Set everything up on embedded defaults, ingest the demo KB and serve the graphs (Studio) on 127.0.0.1:8123
## with auth; Studio and clients send the development key (header x-api-key: $(DEV_API_KEY)).
serve: $(STAMP)
	$(BIN)/belegt --help
	$(BIN)/belegt check
	$(BIN)/belegt ingest demo/kb --kb demo
	$(BIN)/belegt bots create hr-demo --kb demo --name "HR-Demo" --exist-ok
	$(BIN)/belegt ask "Wie viele Urlaubstage habe ich in Vollzeit?" --bot hr-demo
	@echo "Prüfseite (Prüfablage): http://127.0.0.1:$(PORT)/review/login (Schlüssel: $(DEV_API_KEY))"
	BELEGT_DEV_API_KEY=$(DEV_API_KEY) BELEGT_DEV_BOT=hr-demo BELEGT_SERVER_PORT=$(PORT) $(BIN)/belegt serve

## Production runtime: threads, runs, checkpoints and store in PostgreSQL (BELEGT_SERVER_DATABASE_URL or
## BELEGT_DATABASE_URL), Redis at BELEGT_REDIS_URL, BELEGT_SERVER_JOBS runs at once; keys: `belegt keys create`.
serve-prod: $(STAMP)
	BELEGT_SERVER_PORT=$(PORT) $(BIN)/belegt serve --prod

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

## Rebuild the shipped German synonym sets and broader terms (stores/text/*_de.txt.gz) from OpenThesaurus (Debian mythes-de).
MYTHES := /usr/share/mythes/th_de_DE_v2.dat
$(MYTHES):
	apt-get update
	apt-get install -y --no-install-recommends mythes-de

thesaurus: $(STAMP) $(MYTHES)
	$(BIN)/python -m stores.text.thesaurus_build $(MYTHES)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
