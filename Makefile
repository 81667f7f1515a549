# Two commands from a fresh machine (Python >= 3.11 and a C compiler for the engine's core):
#   make run    — the service: web (API + admin) + Celery worker + Celery beat
#   make test   — the whole test suite against PostgreSQL (DATABASE_URL, else the embedded one)
#   make bench  — the benchmarks of tests/perf/ (not part of the test run)
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test bench venv

$(STAMP): pyproject.toml setup.py $(wildcard rivals/engine/csrc/*)
	@test -x $(BIN)/python || { echo "==> creating the virtual environment $(VENV)/"; $(PYTHON) -m venv $(VENV); }
	@echo "==> upgrading pip"
	@$(BIN)/python -m pip install --quiet --upgrade pip
	@echo "==> installing the project and its test tools into $(VENV)/ (first run: about a minute)"
	@$(BIN)/python -m pip install --quiet -e '.[test]'
	@touch $(STAMP)
	@echo "==> installed"

venv: $(STAMP)

run: $(STAMP)
	@echo "==> starting the service$(if $(DATABASE_URL),, (embedded PostgreSQL under .data/pg: a few seconds the first time))"
	@$(BIN)/python manage.py serve

test: $(STAMP)
	$(BIN)/python -m pytest $(PYTEST_ARGS)

bench: $(STAMP)
	$(BIN)/python tests/perf/run_all.py $(BENCH_ARGS)
