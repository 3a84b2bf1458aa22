# flowmem — `make test` is what CI runs (through .ci/run).

GO            ?= go
# urfave/cli's man-page and markdown generators (and blackfriday with them)
# would otherwise be initialised on every hook call.
TAGS          ?= urfave_cli_no_docs
CLAUDE_VERSION := 2.1.330
CLAUDE_DIR    ?= $(HOME)/.cache/flowmem/claude-code-$(CLAUDE_VERSION)
CLAUDE_BIN    := $(CLAUDE_DIR)/node_modules/.bin/claude
export FLOWMEM_CLAUDE_BIN ?= $(CLAUDE_BIN)

# The end-to-end tests drive the real Claude Code client; they fail when it
# is missing unless FLOWMEM_E2E=skip is set on purpose.
E2E_DEPS := $(if $(filter skip,$(FLOWMEM_E2E)),,$(CLAUDE_BIN))

.PHONY: all build install setup test vet bench quality fuzz claude help

# Where `go install` puts the binary.
GOBIN_DIR := $(or $(shell $(GO) env GOBIN),$(shell $(GO) env GOPATH)/bin)
# make setup sets flowmem up in PROJECT; there is no default, since the
# folder make runs in is flowmem's own checkout.
ifneq ($(filter setup,$(MAKECMDGOALS)),)
ifeq ($(strip $(PROJECT)),)
$(error setup: say which project to set up: make setup PROJECT=/path/to/your/project)
endif
# make -C path/to/flowmem reads a relative PROJECT from this checkout.
ifeq ($(realpath $(PROJECT)),$(CURDIR))
$(error setup: PROJECT=$(PROJECT) is flowmem's own checkout (make reads a relative PROJECT from $(CURDIR)); give your project's absolute path, e.g. PROJECT="$$PWD" from its root)
endif
# Checked before go install, so a mistyped path installs nothing.
ifneq ($(shell test -d "$(PROJECT)" && echo y),y)
$(error setup: no folder $(PROJECT): point PROJECT at your project's root (create it first for a new project))
endif
endif

all: build

help:
	@echo "make setup PROJECT=DIR   install flowmem and set it up in DIR (memory on, Claude Code hook and scout)"
	@echo "make install   build and install flowmem into $(GOBIN_DIR)"
	@echo "make test      vet, unit, script, fuzz-seed and end-to-end tests (installs the pinned Claude Code client), then make quality"
	@echo "make bench     speed and peak-memory figures"
	@echo "make quality   gates: capture on real reviews, recall, curate candidates"
	@echo "make fuzz      run every fuzz target for FUZZTIME (default 30s) each"

# The checkout's git revision, stamped into what build and install make
# (flowmem --version, doctor): the toolchain's own stamp is off where
# GOFLAGS says -buildvcs=false and finds no repository in a git worktree.
# Outside a git checkout (a source archive) nothing is stamped and the
# version is VERSION's alone. Set lazily: only build and install run git.
REVISION = $(shell git rev-parse --short=12 HEAD 2>/dev/null)
MODIFIED = $(if $(shell git status --porcelain --untracked-files=no 2>/dev/null),true)
LDFLAGS  = $(if $(REVISION),-ldflags '-X github.com/flowmem/flowmem.revision=$(REVISION)$(if $(MODIFIED), -X github.com/flowmem/flowmem.modified=true)')
# Where make build puts the binaries.
# Set, not defaulted: a BINDIR in the environment must not send the build
# elsewhere (make BINDIR=DIR build still does).
BINDIR = bin/

build:
	$(GO) build -tags '$(TAGS)' $(LDFLAGS) -o $(BINDIR) ./cmd/flowmem ./cmd/flowmem-hook

install:
	$(GO) install -tags '$(TAGS)' $(LDFLAGS) ./cmd/flowmem ./cmd/flowmem-hook

# install warns, with the fix, when the hook's program is not on PATH:
# setup adds no second note of its own.
setup: install
	cd "$(PROJECT)" && "$(GOBIN_DIR)/flowmem" init --enable --install

vet:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { echo "gofmt needed:"; gofmt -l $$(git ls-files '*.go'); exit 1; }

# make test is what CI runs: vet, every test (end-to-end included) and the
# quality gates, which fail below their thresholds. A race-built program
# that exits 0 sleeps a second first, for goroutines that outlive it to
# report; every test binary and every process a test starts from one would
# pay it. A race seen while a test runs still fails that test.
test: vet $(E2E_DEPS)
	GORACE="atexit_sleep_ms=0 $$GORACE" $(GO) test -race -count=1 -timeout 20m ./...
	@$(MAKE) --no-print-directory quality

claude: $(CLAUDE_BIN)

$(CLAUDE_BIN):
	npm install --prefix "$(CLAUDE_DIR)" --no-audit --no-fund --loglevel=error @anthropic-ai/claude-code@$(CLAUDE_VERSION)
	"$(CLAUDE_BIN)" --version

bench:
	$(GO) run ./internal/bench

# The packages with a quality gate: a TestQuality* test behind the quality
# build tag that fails when a figure misses its threshold.
QUALITY_PKGS := ./internal/review/ ./internal/recall/ ./internal/curate/

# Prints every quality report; fails when any figure misses its target, and
# when fewer gates ran than there are packages (a renamed or deleted gate
# would otherwise pass by running nothing).
quality:
	@$(GO) test -tags quality -count=1 -run '^TestQuality' -v $(QUALITY_PKGS) > .quality.out 2>&1; \
	  status=$$?; grep -v '^=== RUN\|no test files' .quality.out; \
	  ran=$$(grep -c '^--- \(PASS\|FAIL\): TestQuality' .quality.out); rm -f .quality.out; \
	  if [ "$$ran" -lt $(words $(QUALITY_PKGS)) ]; then echo "make quality: $$ran gates ran for $(words $(QUALITY_PKGS)) packages: a gate is missing"; exit 1; fi; \
	  exit $$status

FUZZTIME ?= 30s
# Minimising a large new input (a memory file, a review) can outlast
# FUZZTIME many times over; a bounded minimisation still names the input.
FUZZMINIMIZE ?= 5s
fuzz:
	@for pkg in $$($(GO) list ./...); do \
	  for f in $$($(GO) test -list 'Fuzz.*' $$pkg 2>/dev/null | grep '^Fuzz'); do \
	    echo "== $$pkg $$f"; $(GO) test -run '^$$' -fuzz "^$$f$$" -fuzztime $(FUZZTIME) -fuzzminimizetime $(FUZZMINIMIZE) $$pkg || exit 1; \
	  done; \
	done
