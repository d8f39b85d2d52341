# hatskit: `make app` serves the notebooks with Voilà, `make test` runs every check.
# Both create .venv on a fresh clone and reinstall the project when pyproject.toml changes.

PYTHON ?= python3
PORT ?= 8866
PYTEST_ARGS ?=
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.hatskit-installed

.PHONY: app test lint

# Voilà reads its settings and its hook (config/voila.json, config/voila.py) from JUPYTER_CONFIG_PATH;
# the browser tests start it the same way (tests/browser/conftest.py, app_command).
app: $(INSTALLED)
	@echo "hatskit: open http://127.0.0.1:$(PORT)/voila/render/index.ipynb  (Ctrl-C stops the server)"
	JUPYTER_CONFIG_PATH=$(CURDIR)/config $(BIN)/voila --port=$(PORT) notebooks

# Any failing step stops make with a non-zero status; pytest's own "no tests collected"
# status (5) is non-zero too, so an empty run can never pass as green.
test: lint
	$(BIN)/pytest --nbval tests notebooks $(PYTEST_ARGS)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[test]"
	touch $@

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
