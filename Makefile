# pipgammon: the two entry points a fresh Debian / Raspberry Pi OS machine needs.
#   make demo   create .venv, install pipgammon, referee the embedded sample game end to end
#               (outputs in demo-output/), then run the LED bridge's self-test
#   make test   create .venv, install pipgammon[dev], run ruff, mypy and pytest

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed
DEVSTAMP := $(VENV)/.installed-dev

.PHONY: demo test lint typecheck pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(DEVSTAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $@ $(STAMP)

demo: $(STAMP)
	$(BIN)/pipgammon demo --out demo-output
	$(BIN)/pipgammon bridge selftest --frames 2000 --faults 0.05 --unplugs 1

lint: $(DEVSTAMP)
	$(BIN)/ruff check engine vision hardware firmware_bridge pipgammon tests bench tools

typecheck: $(DEVSTAMP)
	$(BIN)/mypy engine pipgammon vision hardware firmware_bridge

pytest: $(DEVSTAMP)
	$(BIN)/pytest -q

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/python bench/legal_plays.py
	$(BIN)/python bench/variants.py
	$(BIN)/python bench/vision.py
	$(BIN)/python bench/hands.py
	$(BIN)/python bench/bridge.py

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache .pytest_cache demo-output
