# The two commands a new user needs: `make run` and `make test`. Both build .venv themselves.
# PYTHON names the interpreter that builds .venv (3.11 or newer): `make run PYTHON=python3.12`.
# A .venv built by another Python version is removed and built again with this one.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
PIP := $(VENV)/bin/pip

.PHONY: run test lint format bench messages mutate clean invite sync FORCE

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

$(VENV)/.runtime: requirements.txt $(VENV)/.python
	$(PIP) install --quiet --disable-pip-version-check -r requirements.txt
	touch $@

$(VENV)/.dev: requirements.txt requirements-dev.txt $(VENV)/.runtime
	$(PIP) install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(VENV)/.mutate: requirements-mutate.txt $(VENV)/.dev
	$(PIP) install --quiet --disable-pip-version-check -r requirements-mutate.txt
	touch $@

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
test: $(VENV)/.dev
	$(PY) -m pytest

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

## Print the benchmark figures (not part of the tests).
bench: $(VENV)/.dev
	$(PY) -m bench

## Mutation testing of wire/ against tests/wire (docs/mutation.md; not part of CI or `make test`):
## a fresh run of every mutant, then the score per file. Niced, two children: the machine is
## shared. `make mutate MUTANTS='wire.health.*'` reruns only those mutants, keeping the rest.
MUTANTS ?=
mutate: $(VENV)/.mutate
ifeq ($(strip $(MUTANTS)),)
	rm -rf mutants
else
	rm -rf mutants/wire/locales  # mutmut copies a file that is not Python only once: fresh catalogues
endif
	nice -n 15 $(VENV)/bin/mutmut run --max-children 2 $(foreach m,$(MUTANTS),'$(m)') > mutants.log 2>&1 \
		|| { tail -c 2000 mutants.log; exit 1; }
	$(PY) -m tests.wire.mutation_score

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis mutants mutants.log
