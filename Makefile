# pitwatch — the front door. Both commands work on a fresh Debian 12 with only its own
# packages: they make a project virtual environment (.venv) with Python 3.11 and use it.
# `make demo` runs the embedded job; `make test` installs everything (Python deps, Kafka
# broker jars, PostgreSQL, Prometheus) and runs the suite.
PYTHON ?= python3.11
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip

.PHONY: venv install demo console test test-unit lint services-up services-down bench clean distclean

# The native core (native/, Rust) is compiled by `pip install -e .` (maturin); cargo comes
# from rustup or, where it is missing, from the distribution (scripts/native.sh).
NATIVE_ENV = bash scripts/native.sh ensure && eval "$$(bash scripts/native.sh env)"

venv:
	@bash scripts/venv.sh $(PYTHON) $(VENV)

install: venv
	$(NATIVE_ENV) && $(PIP) install --quiet -e '.[dev]'

demo: install
	$(BIN)/pitwatch demo

# The compliance console on the demo's database (http://127.0.0.1:8080/); the first time
# it adds a user `demo` and prints its password.
console: install
	bash scripts/console.sh $(BIN)

services-up:
	bash scripts/services.sh up

services-down:
	bash scripts/services.sh down

lint: install
	$(BIN)/ruff check .
	$(BIN)/mypy
	bash scripts/native.sh test

test: install services-up
	bash scripts/native.sh test
	$(BIN)/python -m pytest -q -p no:cacheprovider --timeout=600 tests

test-unit: install
	bash scripts/native.sh test
	$(BIN)/python -m pytest -q -m "not integration" tests/unit

bench: install
	$(BIN)/python benchmarks/bench_intake.py
	$(BIN)/python benchmarks/bench_evaluator.py
	$(BIN)/python benchmarks/bench_embedded.py
	$(BIN)/python benchmarks/bench_holdem.py --sessions 5
	$(BIN)/python benchmarks/bench_memory.py

clean:
	rm -rf var/ .pytest_cache .mypy_cache .ruff_cache native/target

distclean: clean
	rm -rf $(VENV) *.egg-info
