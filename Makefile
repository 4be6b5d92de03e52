# Set-up, demo and tests for sysr and bench. `make demo` and `make test` work on a fresh machine.
SHELL := /bin/bash
.SHELLFLAGS := -eu -o pipefail -c

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

# What `make demo` runs after set-up: score every task's reference in both languages through
# Yosys and Icarus (the scorer's exit status: 0 when all pass).
DEMO_CMD ?= bin/bench score --lang verilog --jobs 2 && bin/bench score --lang sysr --jobs 2

.PHONY: setup tools tables bytecode demo test clean

setup: $(STAMP) tools tables bytecode

# Create the venv only if it is missing; a failed attempt leaves nothing half-made behind.
$(VPY):
	@$(PYTHON) -m venv $(VENV) || { rm -rf $(VENV); \
	  echo "make setup: '$(PYTHON) -m venv' failed; on Debian: apt-get install python3-venv" >&2; exit 1; }

# Reinstall the project (editable), its test extras, the Inspect AI extra and the second solver
# (tested too) only when pyproject.toml (or this file) changed. `editable_mode=compat` puts the
# checkout on sys.path with a plain .pth line; the default mode installs an import hook whose
# own imports (pathlib, re, importlib.util) every Python start-up in the venv paid, a third of
# `python -c pass` and more than the check server's whole client.
$(STAMP): pyproject.toml Makefile | $(VPY)
	@$(VPY) -m pip install -q -e '.[test,inspect,portfolio]' --config-settings editable_mode=compat
	@touch $@

tools:
	@scripts/install-tools.sh

# Save the parser's LALR tables beside the package so no start-up rebuilds them (see
# sysr/front/tables.py); a no-op when the saved tables match the grammar.
tables: $(STAMP)
	@$(VPY) -P -m sysr.front.parse --quiet

# Compile the project's bytecode now, so that no start-up compiles it where Python does not write
# it back (a read-only checkout, PYTHONDONTWRITEBYTECODE set): that alone took a third of a small
# check. Up-to-date files are skipped; a source changed later is compiled again at its next import.
bytecode: $(STAMP)
	@$(VPY) -m compileall -q sysr bench

demo: setup
	@$(DEMO_CMD)

# pytest exit code 5 means no tests were collected: that counts as a failure.
test: setup
	@rc=0; $(VPY) -m pytest || rc=$$?; \
	if [ $$rc -eq 5 ]; then echo "make test: no tests were collected" >&2; exit 1; fi; \
	exit $$rc

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
	find . -path ./.git -prune -o -type d -name __pycache__ -prune -exec rm -rf {} +
