# Two commands from a fresh machine (Python >= 3.11 and a C compiler for the engine's core):
#   make run    — the service: web (API + admin) + Celery worker + Celery beat
#   make test   — the whole test suite against PostgreSQL (DATABASE_URL, else the embedded one): both lanes, in parallel
#   make fast   — the fast lane (the inner loop): everything but the proofs
#   make proof  — the proofs alone: tests that start servers, workers, beat, a browser, or wait on the real clock
#   make lint   — ruff (the linter and the formatter's check) and mypy with the Django plugin ([tool.mypy]; .ci/run runs it before the tests)
#   make bench  — the benchmarks of tests/perf/ (not part of the test run)
#   make faults — the fault scenarios of tests/perf/faults.py, each PASS/FAIL (not part of the test run)
#   make topology — issue 26's topology on this machine: PgBouncer, HAProxy, 2 web + 2 worker nodes, 2 beats; a node killed (tests/perf/topology.py)
#   make security-probe — issue 19's findings against a production-shaped stack (tests/perf/security_probe.py)
#   make fuzz   — the input fuzz tests at a larger, time-bounded size with fresh seeds
#   make demo   — a demo world in the database (manage.py simulate: 200 bots × 14 days), then make run
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: run test fast proof lint bench faults topology security-probe fuzz demo venv

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

# pytest-xdist: one worker more than the machine has cores (PYTEST_WORKERS=1 runs in one process) —
# the proofs spend most of their time waiting on a clock or a server, so a core is free for the fast
# tests meanwhile (measured on 2 cores: 3 workers 4 min 30 s, 2 workers 6 min 51 s); each worker on
# its own database cloned from the migrated template (tests/testdb.py); the proofs in two groups, each
# one after another on one worker (--dist loadgroup, tests/conftest.py)
PYTEST_WORKERS ?= $(shell echo $$(( $$(nproc 2>/dev/null || echo 1) + 1 )))
XDIST = $(if $(filter 1,$(PYTEST_WORKERS)),-p no:xdist,-n $(PYTEST_WORKERS) --dist loadgroup)

test: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) $(PYTEST_ARGS)

fast: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m "not proof" $(PYTEST_ARGS)

proof: $(STAMP)
	$(BIN)/python -m pytest $(XDIST) -m proof $(PYTEST_ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	@# the Django plugin loads the settings, which would start the embedded PostgreSQL (and mypy
	@# exits without stopping it): a DATABASE_URL it never connects to keeps the check server-free
	DATABASE_URL=postgres://mypy@127.0.0.1:9/unused $(BIN)/mypy

bench: $(STAMP)
	$(BIN)/python tests/perf/run_all.py $(BENCH_ARGS)

faults: $(STAMP)
	$(BIN)/python tests/perf/faults.py $(FAULT_ARGS)

# TOPOLOGY_ARGS: e.g. --quick (about 4 minutes)
topology: $(STAMP)
	$(BIN)/python tests/perf/topology.py $(TOPOLOGY_ARGS)

security-probe: $(STAMP)
	$(BIN)/python tests/perf/security_probe.py

# FUZZ_EXAMPLES per test (per API operation for schemathesis); the whole run within about FUZZ_SECONDS
FUZZ_EXAMPLES ?= 1000
FUZZ_SECONDS ?= 600
fuzz: $(STAMP)
	RIVALS_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) RIVALS_FUZZ_SECONDS=$(FUZZ_SECONDS) RIVALS_FUZZ_RANDOM=1 \
		$(BIN)/python -m pytest -p no:logging --hypothesis-show-statistics tests/platform/test_intent_fuzz.py \
		tests/platform/test_hostile_input.py tests/platform/test_schemathesis.py $(PYTEST_ARGS)
	RIVALS_FUZZ_EXAMPLES=$(FUZZ_EXAMPLES) RIVALS_FUZZ_SECONDS=$(FUZZ_SECONDS) $(BIN)/python tests/perf/fuzz_live.py

# DEMO_ARGS: simulate's options, e.g. DEMO_ARGS="--players 40 --days 3"
demo: $(STAMP)
	@$(BIN)/python manage.py migrate --verbosity 0
	@$(BIN)/python manage.py simulate $(DEMO_ARGS)
