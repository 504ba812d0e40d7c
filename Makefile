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
.PHONY: serve test lint eval venv check clean browser

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
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
	$(BIN)/langgraph dev --host 127.0.0.1 --port $(PORT) --no-browser

## The full default test suite, lint and types included.
test: $(STAMP) lint $(CHROMIUM)
	$(BIN)/python -m pytest

## Every offline eval suite at full size (reads ../shared/data); reports under evals/results/.
eval: $(STAMP)
	$(BIN)/belegt eval all

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) var .pytest_cache .mypy_cache .ruff_cache
