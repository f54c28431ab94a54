# approval-compaction: `make help` lists the targets.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
# npm ci writes this file last: newer than the lock once the JS harness's packages are in.
NODE_STAMP := node_modules/.package-lock.json
# The SDK-style regression test's own package (vitest), apart from the harness's.
SDK_TEST_STAMP := js/sdk-test/node_modules/.package-lock.json

.DEFAULT_GOAL := help
# Every target builds what it needs from an empty cache: a target that runs in release
# environments someone else made depends on `envs`, one that reads the pinned sdist on
# `permalinks`, one that starts PostgreSQL, Redis, MariaDB or Chromium on `system` (the full tier
# and the benchmarks: `run` needs Python and Node only, no root, no server); a command that
# makes its own environments (sweep, explore, doctor-data, upstream) or fetches its own sdist
# (liveness-patch, upstream) is told to (`crosscheck --create`). tests/test_makefile.py checks it.
# Python's default is to cache bytecode, as users' machines do. An environment that sets
# PYTHONDONTWRITEBYTECODE (this one does) makes every import compile again, in each notebook
# kernel, worker and release probe the targets start; the targets run with Python's default.
unexport PYTHONDONTWRITEBYTECODE
.PHONY: help system setup run sweep adk-sweep adk-fix langchain-sweep langchain-fix js-sweep js-stall js-sdk-test js-fix envs workaround liveness liveness-patch doctor-data doctor-exports mechanism fix-anatomy explore explore-drivers upstream permalinks test test-all lint lab bench clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-12s %s\n", $$1, $$2}'

$(STAMP): requirements.txt pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install --quiet --disable-pip-version-check uv==0.13.8
	$(VENV)/bin/uv pip install --quiet --python $(PY) -r requirements.txt
	touch $@

$(NODE_STAMP): package.json package-lock.json
	scripts/system-packages node
	npm ci --no-audit --no-fund --loglevel=error

$(SDK_TEST_STAMP): js/sdk-test/package.json js/sdk-test/package-lock.json
	scripts/system-packages node
	npm ci --prefix js/sdk-test --no-audit --no-fund --loglevel=error

js-sdk-test: $(SDK_TEST_STAMP) ## install vitest for the JS regression tests (js/sdk-test, npm ci): the pending call's and the stall's, each failing on the pinned package and passing patched
	$(PY) -m approval_compaction js-sdk-test --expect fail
	$(PY) -m approval_compaction js-sdk-test --patch js/fix/agents-openai-0.20.0.diff
	$(PY) -m approval_compaction js-sdk-test --test stall --expect fail
	$(PY) -m approval_compaction js-sdk-test --test stall --patch js/fix/agents-openai-0.20.0-stall.diff
	$(PY) -m approval_compaction js-sdk-test --test filtered --patch js/fix/agents-openai-0.20.0-stall.diff
	$(PY) -m approval_compaction js-sdk-test --test windowed --patch js/fix/agents-openai-0.20.0-stall.diff

setup: $(STAMP) $(NODE_STAMP) ## create .venv, install the pinned requirements and the JS harness (npm ci)

system: ## install the Debian packages the full tests start (PostgreSQL, Redis, MariaDB, Chromium) if missing
	scripts/system-packages

run: $(STAMP) $(NODE_STAMP) ## write data/, execute and render every notebook, the report and README findings (Python and Node only)
	$(PY) -m approval_compaction data
	$(PY) -m approval_compaction js-liveness
	$(PY) -m approval_compaction adk-data
	$(PY) -m approval_compaction langchain-data
	$(PY) -m approval_compaction notebooks
	$(PY) -m approval_compaction render
	$(PY) -m approval_compaction report --output data/report.md --force
	$(PY) -m approval_compaction report-js --output data/report-js.md
	$(PY) -m approval_compaction report-adk --output data/report-adk.md
	$(PY) -m approval_compaction report-langchain --output data/report-langchain.md
	$(PY) -m approval_compaction report-js --stall --output data/report-js-stall.md
	$(PY) -m approval_compaction snippet
	$(PY) -m approval_compaction upstream-liveness
	$(PY) -m approval_compaction readme

sweep: $(STAMP) ## run the matrix on every openai-agents release into data/sweep.json (slow)
	$(PY) -m approval_compaction sweep $(SWEEP_ARGS)

adk-fix: $(STAMP) ## the patched google-adk (adk/fix) in every kind, the adk-python regression tests (the late answer's; the long-running call's with its fix and with both), the fix's lint with adk-python's tools and settings, its mutants, the late answers split (data/adk-patched.json, adk-sdk-test.json, adk-sdk-test-long-running.json, adk-lint.json, adk-mutants.json, adk-late.json)
	$(PY) -m approval_compaction adk-fix
	$(PY) -m approval_compaction report-adk --output data/report-adk.md

adk-sweep: $(STAMP) ## the ADK study on every google-adk release with confirmation and compaction, and from 2.4.0 over HTTP with OpenAIResponsesLlm (uv, cached; data/adk-sweep*.json, slow)
	$(PY) -m approval_compaction adk-sweep $(ADK_SWEEP_ARGS)
	$(PY) -m approval_compaction adk-sweep --model responses $(ADK_SWEEP_ARGS)

langchain-sweep: $(STAMP) ## the LangChain study on every langchain 1.x release, each setting's cases and situations (uv, cached; data/langchain-sweep*.json, slow)
	$(PY) -m approval_compaction langchain-sweep $(LANGCHAIN_SWEEP_ARGS)

langchain-fix: $(STAMP) ## the patched langchain (langchain/fix), the regression test and the fix's mutants (data/langchain-patched.json, langchain-sdk-test.json), and the report
	$(PY) -m approval_compaction langchain-fix
	$(PY) -m approval_compaction report-langchain --output data/report-langchain.md

js-sweep: $(STAMP) $(NODE_STAMP) ## the JS study on every @openai/agents release with the session, bare and with the JS workaround (npm, cached; data/js-*sweep.json)
	$(PY) -m approval_compaction js-sweep $(JS_SWEEP_ARGS)
	$(PY) -m approval_compaction js-sweep --workaround $(JS_SWEEP_ARGS)

js-stall: $(STAMP) $(NODE_STAMP) $(SDK_TEST_STAMP) ## the stall: a plain conversation on every @openai/agents release (npm, cached), the pinned one's workaround and patches, the Python SDK's newest release (uv, cached), the tests around the boundary, its report (data/js-stall*.json, report-js-stall.md; slow)
	$(PY) -m approval_compaction js-stall $(JS_STALL_ARGS)
	$(PY) -m approval_compaction report-js --stall --output data/report-js-stall.md

js-fix: $(STAMP) $(NODE_STAMP) $(SDK_TEST_STAMP) ## the JS workaround, the patched package, the regression test, the TypeScript forms checked with the repository's tsc/prettier/eslint, and the mutants on the pinned release (data/js-workaround.json, js-patched.json, js-sdk-test.json, js-typecheck.json, js-mutants.json)
	$(PY) -m approval_compaction js-fix
	$(PY) -m approval_compaction report-js --output data/report-js.md

workaround: $(STAMP) ## the workaround's matrix, the newest release's, the test per swept release
	$(PY) -m approval_compaction fix-data
	$(PY) -m approval_compaction crosscheck --create
	$(PY) -m approval_compaction snippet

liveness: $(STAMP) envs ## each situation and case continued 10 turns: pinned, workaround, newest (data/liveness.json)
	$(PY) -m approval_compaction liveness

liveness-patch: $(STAMP) ## prove the liveness patch: its test, the SDK's suite (downloads), matrix, liveness, its mutants
	$(PY) -m approval_compaction liveness-patch
	$(PY) -m approval_compaction liveness-mutants
	$(PY) -m approval_compaction upstream-liveness

doctor-data: $(STAMP) ## the newest release on a store the pinned one poisoned (data/doctor-*.json)
	$(PY) -m approval_compaction doctor data

doctor-exports: $(STAMP) $(NODE_STAMP) ## every approval kind's session as each SDK's runner stores it, pinned and newest (the doctor's test data: tests/doctor/exports)
	$(PY) -m approval_compaction doctor exports

mechanism: $(STAMP) envs ## the SDK functions on the path: source and traced run per release (data/mechanism.json)
	$(PY) -m approval_compaction mechanism

permalinks: $(STAMP) ## fetch the pinned release's sdist once (pip): its src/agents/ must be what is installed
	$(PY) -m approval_compaction permalinks

envs: $(STAMP) ## make the release environments the full tests use, once (uv, cached)
	$(PY) -m approval_compaction envs

fix-anatomy: $(STAMP) envs ## which hunks of the newest release's diff are the fix: ablation and ddmin (data/fix-anatomy.json, slow)
	$(PY) -m approval_compaction fix-anatomy

# The pinned and newest releases, as the package defines them (read when a target uses them).
RELEASE = $(shell $(PY) -c 'import approval_compaction.lab.releases as r; print(r.$(1))')
PINNED ?= $(call RELEASE,PINNED)
NEWEST ?= $(call RELEASE,NEWEST)
# The committed searches take every step from the first round (--first ''): explore's staged
# first rounds (the report's steps) find the report's violation sooner, not more findings.
EXPLORE_ARGS ?= --seed 0 --boundaries memory,json,process --first ''
explore: $(STAMP) ## long property-based search: pinned, with the workaround, newest release (slow)
	$(PY) -m approval_compaction explore --examples 100 --rounds 24 $(EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --fix --examples 2000 $(EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --release $(NEWEST) --examples 1000 $(EXPLORE_ARGS)

# The drivers' searches: each SDK's pinned and newest release (one search when they are one).
DRIVER_EXPLORE_ARGS ?= --seed 0 --examples 150
explore-drivers: $(STAMP) $(NODE_STAMP) ## long property-based search on @openai/agents, google-adk and langchain, pinned and newest, and each with its fix (npm, uv, cached; data/explore-js-*, explore-adk-*, explore-langchain-*; slow)
	$(PY) -m approval_compaction explore --driver js --release pinned,newest $(DRIVER_EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --driver js --patch js/fix/agents-openai-0.20.0-both.diff $(DRIVER_EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --driver adk --release pinned,newest $(DRIVER_EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --driver adk --patch adk/fix/google-adk-2.13.0-both.diff $(DRIVER_EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --driver langchain --release pinned,newest $(DRIVER_EXPLORE_ARGS)
	$(PY) -m approval_compaction explore --driver langchain --patch langchain/fix/langchain-1.5.2.diff $(DRIVER_EXPLORE_ARGS)

upstream: $(STAMP) ## the SDK's own tests on the pinned and newest releases, as they are and with the workaround (slow, downloads)
	$(PY) -m approval_compaction upstream-suite --release $(PINNED) --fix --write
	$(PY) -m approval_compaction upstream-suite --release $(NEWEST) --fix --write
	$(PY) -m approval_compaction readme

test: $(STAMP) $(NODE_STAMP) lint ## the fast tier: lint, types, import contracts, in-process tests (minutes)
	$(PY) -m pytest

test-all: $(STAMP) $(NODE_STAMP) $(SDK_TEST_STAMP) system permalinks envs lint ## every tier: notebooks, releases, servers, browser (CI)
	$(PY) -m pytest -m ""

lint: $(STAMP) ## ruff, mypy --strict, and the import contracts between subpackages
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/mypy
	$(VENV)/bin/lint-imports

lab: $(STAMP) ## JupyterLab on 127.0.0.1 (token) with the project's kernel, notebook 01 open
	$(PY) -m approval_compaction.lab.share.lab $(LAB_ARGS)

bench: $(STAMP) system ## print the benchmark figures (the sweep's: benchmarks/sweep_wall_time.py)
	$(PY) benchmarks/startup.py
	$(PY) benchmarks/liveness_wall_time.py
	$(PY) benchmarks/capture_overhead.py
	$(PY) benchmarks/wire_speed.py
	$(PY) benchmarks/compact_scaling.py
	$(PY) benchmarks/notebooks_wall_time.py
	$(PY) benchmarks/notebook_shape.py
	$(PY) benchmarks/hardening.py

clean: ## remove the virtual environment and the JS harness's node_modules
	rm -rf $(VENV) node_modules
