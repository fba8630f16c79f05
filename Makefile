# pitwatch — the front door. `make demo` runs the embedded job; `make test` installs
# everything (Python deps, Kafka broker jars, PostgreSQL, Prometheus) and runs the suite.
PYTHON ?= python3.11
PIP ?= $(PYTHON) -m pip

.PHONY: install demo test test-unit lint services-up services-down bench clean

# The native core (native/, Rust) is compiled by `pip install -e .` (maturin); cargo comes
# from rustup or, where it is missing, from the distribution (scripts/native.sh).
NATIVE_ENV = bash scripts/native.sh ensure && eval "$$(bash scripts/native.sh env)"

install:
	$(PIP) install --quiet --upgrade pip
	$(NATIVE_ENV) && $(PIP) install --quiet -e '.[dev]'

demo:
	$(NATIVE_ENV) && $(PIP) install --quiet -e .
	pitwatch demo

services-up:
	bash scripts/services.sh up

services-down:
	bash scripts/services.sh down

lint:
	ruff check .
	mypy
	bash scripts/native.sh test

test: install services-up
	bash scripts/native.sh test
	$(PYTHON) -m pytest -q -p no:cacheprovider --timeout=600 tests

test-unit: install
	bash scripts/native.sh test
	$(PYTHON) -m pytest -q -m "not integration" tests/unit

bench:
	$(PYTHON) benchmarks/bench_intake.py
	$(PYTHON) benchmarks/bench_evaluator.py
	$(PYTHON) benchmarks/bench_embedded.py
	$(PYTHON) benchmarks/bench_holdem.py --sessions 5
	$(PYTHON) benchmarks/bench_memory.py

clean:
	rm -rf var/ .pytest_cache .mypy_cache .ruff_cache native/target
