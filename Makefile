# hatskit: `make app` serves the notebooks with Voilà, `make test` runs every check.
# Both create .venv on a fresh clone and reinstall the project when pyproject.toml changes.
# `make site` builds the course as a static site in site/ (voici apps and a JupyterLite lab,
# Python running in each reader's browser): see docs/static-site.md.

PYTHON ?= python3
PORT ?= 8866
HOST_PORT ?= 8765
# Pre-heated kernels per game page (Voilà's preheat_kernel; config/voila.py reads HATSKIT_POOL): `make app POOL=2`.
# Off by default: each pooled kernel is held, idle, for every game page (figures in benchmarks/README.md).
POOL ?= 0
HOST_ARGS ?=
PYTEST_ARGS ?=
VENV := .venv
BIN := $(VENV)/bin
INSTALLED := $(VENV)/.hatskit-installed

.PHONY: app test check lint site bytecode

# Voilà reads its settings and its hook (config/voila.json, config/voila.py) from JUPYTER_CONFIG_PATH, and
# finds the page template (share/jupyter/voila/templates/hatskit) on JUPYTER_PATH: the editable install
# below leaves pyproject.toml's data-files out (a setuptools limitation, pypa/setuptools#3399). The browser
# tests start it the same way (tests/browser/conftest.py, app_command).
# The table host (tablehost/, docs/host.md) starts beside Voilà, on loopback, its tables in .tables.sqlite, and
# stops with it (the trap); the kernels find it in TABLETOP_URL. It prints the teacher's link (a secret on the
# course's first page, docs/host.md "The class together"); `make app HOST_ARGS=--new-teacher-link` draws a new one.
app: $(INSTALLED) bytecode
	@echo "hatskit: open http://127.0.0.1:$(PORT)/voila/render/index.ipynb  (Ctrl-C stops the server)"
	$(BIN)/python -m tablehost --bind 127.0.0.1:$(HOST_PORT) --db $(CURDIR)/.tables.sqlite \
		--teacher-page http://127.0.0.1:$(PORT)/voila/render/index.ipynb $(HOST_ARGS) & host=$$!; \
	trap 'kill $$host 2>/dev/null; wait $$host' EXIT INT TERM; \
	TABLETOP_URL=ws://127.0.0.1:$(HOST_PORT)/ws HATSKIT_POOL=$(POOL) JUPYTER_CONFIG_PATH=$(CURDIR)/config \
		JUPYTER_PATH=$(CURDIR)/share/jupyter $(BIN)/voila --port=$(PORT) notebooks

# Every game page's kernel imports hatskit and widgets. The editable install leaves them as sources in this
# checkout, and where PYTHONDONTWRITEBYTECODE is set (these machines, many container images) no kernel writes
# their bytecode, so each page compiled some 60 modules again: about a third of a game page kernel's import CPU
# (benchmarks/README.md). Written here, once, before serving; the browser tests and benchmarks do the same
# (tests/browser/conftest.py, compile_bytecode), and so do binder/start and the README's hub image.
bytecode: | $(BIN)/python
	$(BIN)/python -m compileall -q hatskit widgets tablehost

# Any failing step stops make with a non-zero status; pytest's own "no tests collected"
# status (5) is non-zero too, so an empty run can never pass as green. Two pytest-xdist workers, each
# taking whole files: a notebook's cells run in order in one kernel, a browser file shares its servers.
test: lint
	$(BIN)/pytest --nbval tests notebooks -n 2 --dist loadfile $(PYTEST_ARGS)

# The quick loop: ruff and every test that needs no browser and builds no environment, on every core,
# the randomised ones at a fifth of their size (tests/helpers.py, SCALE; make test runs them in full).
check: lint
	HATSKIT_TEST_SCALE=0.2 $(BIN)/pytest tests --ignore=tests/browser -m "not slow and not site" -n auto $(PYTEST_ARGS)

lint: $(INSTALLED)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

$(INSTALLED): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -e ".[test]"
	touch $@

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# The static site is built in its own environment, .venv-site: the site's tools (voici, JupyterLite
# and its Pyodide kernel) install lab extensions that Voilà would otherwise load into every page of
# `make app`. lite/build.py fetches what the browser needs from npm (Pyodide itself, Font Awesome)
# and PyPI (the wheels), puts all of it inside site/, and writes a Pyodide lock file that lists
# exactly those wheels, which the kernel loads as it starts (loadPyodideOptions.packages) with its
# PyPI fallback off. Why that route: Pyodide's npm package has a lock file but none of the packages
# it names, so the lock must be rewritten whatever else is used; piplite_urls would still leave the
# kernel's own start-up packages to that lock; jupyterlite-pyodide-lock supports JupyterLite < 0.6
# only, and voici 0.10 is built on 0.7 (docs/static-site.md has the details).
# About 45-60 s once .venv-site exists (it compiles the bytecode pages import at start); its first install adds a minute or more.
SITE_VENV := .venv-site
SITE_INSTALLED := $(SITE_VENV)/.hatskit-site-installed

site: $(SITE_INSTALLED)
	$(SITE_VENV)/bin/python lite/build.py --output site

$(SITE_INSTALLED): pyproject.toml | $(SITE_VENV)/bin/python
	$(SITE_VENV)/bin/pip install ".[site]"
	touch $@

$(SITE_VENV)/bin/python:
	$(PYTHON) -m venv $(SITE_VENV)
