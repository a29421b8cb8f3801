# The two commands a new user needs: `make run` and `make test`. Both build .venv themselves.
# PYTHON names the interpreter that builds .venv (3.11 or newer): `make run PYTHON=python3.12`.
# A .venv built by another Python version is removed and built again with this one.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

PIP_INSTALL := $(PIP) install --quiet --disable-pip-version-check --require-hashes

.PHONY: run test lint format bench messages mutate mutate-score clean invite sync lock docs FORCE

# Checked on every make: PYTHON is new enough (one line naming both versions if not), and .venv
# was built by the same major.minor. The stamp holds that version and is rewritten only when it
# changes, so the installs below rerun only after a rebuild.
$(VENV)/.python: FORCE
	@found=$$($(PYTHON) tools/python_check.py) || exit 1; \
	had=$$($(PY) -c 'import sys; print("%d.%d" % sys.version_info[:2])' 2>/dev/null); \
	if [ "$$had" != "$$found" ]; then \
		if [ -e $(VENV) ]; then \
			echo "Rebuilding $(VENV): it was built by Python $${had:-that no longer runs}, $(PYTHON) is $$found."; \
			rm -rf $(VENV); \
		fi; \
		$(PYTHON) -m venv $(VENV) || exit 1; \
	fi; \
	if [ "$$(cat $@ 2>/dev/null)" != "$$found" ]; then echo "$$found" > $@; fi

# The *.txt files are locks: every package, transitive ones too, at one version with its hashes
# (`make lock` writes them from the *.in files), so an install next year gets what the tests
# passed with, and pip refuses a file that is not the one locked.
$(VENV)/.runtime: requirements.txt $(VENV)/.python
	$(PIP_INSTALL) -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP_INSTALL) -r requirements-dev.txt
	touch $@

$(VENV)/.bench: requirements-bench.txt $(VENV)/.dev
	$(PIP_INSTALL) -r requirements-bench.txt
	touch $@

$(VENV)/.mutate: requirements-mutate.txt $(VENV)/.dev
	$(PIP_INSTALL) -r requirements-mutate.txt
	touch $@

## Lock the dependencies after a change to a requirements*.in file: each *.in resolved, with
## every transitive dependency and its hashes, into its *.txt, for every Python the project
## claims (--universal: 3.13's audioop-lts too). Versions already locked are kept unless
## `make lock LOCK_FLAGS=--upgrade` (or --upgrade-package NAME). Needs uv (`pipx install uv`,
## or any venv of its own: `python3 -m venv /tmp/uv && /tmp/uv/bin/pip install uv`, UV=/tmp/uv/bin/uv).
UV ?= uv
LOCK_FLAGS ?=
LOCK := $(UV) pip compile --quiet --universal --python-version 3.11 --generate-hashes \
	--custom-compile-command "make lock" $(LOCK_FLAGS)
lock:
	$(LOCK) requirements.in -o requirements.txt
	$(LOCK) requirements-dev.in -o requirements-dev.txt
	$(LOCK) requirements-bench.in -o requirements-bench.txt
	$(LOCK) requirements-mutate.in -o requirements-mutate.txt

## Run the bot with the configuration in .env (or the environment), on the SQLite default.
run: $(VENV)/.runtime
	$(PY) bot.py

## Print the link that adds the bot to a server (reads the token from .env; does not connect).
invite: $(VENV)/.runtime
	$(PY) bot.py --invite

## Run the bot and sync its slash commands with Discord at start-up, changed or not.
sync: $(VENV)/.runtime
	$(PY) bot.py --sync

## Install what the tests need and run them all.
## PYTEST_ARGS: what pytest is given (CI's Python 3.13 pass runs a part of the suite).
PYTEST_ARGS ?=
test: $(VENV)/.dev
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

format: $(VENV)/.dev
	$(VENV)/bin/ruff format .
	$(VENV)/bin/ruff check --fix .

## Extract the message template (wire/locales/wire.pot) and merge it into each catalogue
## (docs/i18n.md): new messages come in untranslated, changed ones fuzzy.
messages: $(VENV)/.dev
	$(PY) -m tools.catalogue

## Write docs/commands.md from the command tree (the test of it names this command when the page
## and the code differ).
docs: $(VENV)/.dev
	$(PY) -m tools.commands_doc

## Print the benchmark figures (not part of the tests); installs psutil and py-spy for them.
bench: $(VENV)/.bench
	$(PY) -m bench

## Mutation testing of wire/ against tests/wire (docs/mutation.md; not part of CI or `make test`):
## a fresh run of every mutant, then the score per file. Niced, two children: the machine is
## shared. `make mutate MUTATE=wire/fight.py` (several files: MUTATE='wire/a.py wire/b.py') runs
## only those files' mutants afresh and scores them alone; `make mutate MUTANTS='wire.health.*'`
## reruns only those mutants, keeping the rest. `make mutate-score` prints the last run's score.
MUTATE ?=
MUTANTS ?=
MUTATE_NAMES := $(foreach f,$(MUTATE),$(subst /,.,$(f:.py=)).*)
mutate: $(VENV)/.mutate
ifeq ($(strip $(MUTANTS)),)
	rm -rf mutants
else
	rm -rf mutants/wire/locales  # mutmut copies a file that is not Python only once: fresh catalogues
endif
	nice -n 15 $(VENV)/bin/mutmut run --max-children 2 $(foreach m,$(MUTANTS) $(MUTATE_NAMES),'$(m)') \
		> mutants.log 2>&1 || { tail -c 2000 mutants.log; exit 1; }
	$(PY) -m tests.wire.mutation_score $(MUTATE)

mutate-score: $(VENV)/.dev
	$(PY) -m tests.wire.mutation_score $(MUTATE)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants mutants.log
