# syncio — build and test entry points. `make test` is what CI runs.
GO  ?= go
BIN := bin

.PHONY: all build test test-skips check temporal test-unit test-storage faults lint test-lint test-lint-oldest lint-workflows sarif load-quick load-full bench-activity bench-analyzer coldstart clean

all: build

build:
	$(GO) build ./...
	$(GO) build -o $(BIN)/ ./cmd/...

# Everything CI needs: formatting and vet, then every test with the race
# detector against the embedded fakes AND a throwaway Azurite 3.37.0
# (tools/azurite/run.sh installs it with npm on first use and stops it after),
# then golangci-lint with the syncio plugin on our own code, the plugin-path
# test and the docs/ci.md recipe test (newest and oldest supported
# golangci-lint), and actionlint on the example workflows.
test: check lint-workflows test-unit lint test-lint test-lint-oldest test-skips

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

# The Temporal CLI (dev server) for the integration and crash tests of
# api/activity/temporal and api: built once into bin/ (about 3 minutes on
# 2 cores, 250 MB) and kept. Rebuilt only when missing or when the pinned
# version changes (the stamp file records it).
TEMPORAL_VERSION := v1.5.1
TEMPORAL         := $(BIN)/temporal
TEMPORAL_STAMP   := $(BIN)/.temporal-$(TEMPORAL_VERSION)

temporal: $(TEMPORAL_STAMP)

# A stamp without the binary it vouches for is stale.
ifeq ($(wildcard $(TEMPORAL)),)
.PHONY: $(TEMPORAL_STAMP)
endif

$(TEMPORAL_STAMP):
	mkdir -p $(BIN)
	GOBIN=$(CURDIR)/$(BIN) $(GO) install github.com/temporalio/cli/cmd/temporal@$(TEMPORAL_VERSION)
	touch $@

# SYNCIO_TEMPORAL points the Temporal tests at the CLI; under CI=true they
# fail rather than skip without it. -timeout 40m: cmd/syncio takes several
# minutes under -race on a loaded 2-core machine, past go test's 10-minute
# default (measured 945 s at load 12-28). The analyzer package loads its
# testdata once (analyzer/internal/casetest): 46 s under -race at load 3.
# The tests that skip for want of a program (under CI=true they fail
# instead), named in one line at the end of make test, so that a green run
# on a machine without them does not read as a full one.
test-skips:
	@skipped=""; \
	  if ! command -v chromium >/dev/null 2>&1 && ! command -v chromium-browser >/dev/null 2>&1 && [ -z "$$SYNCIO_CHROMIUM" ]; then \
	    skipped="$$skipped TestDashboardInBrowser and TestLoadYourServiceDoc's page check (no chromium: apt-get install chromium);"; fi; \
	  if ! command -v promtool >/dev/null 2>&1 && [ -z "$$PROMTOOL" ]; then \
	    skipped="$$skipped TestAlertRulesPromtool (no promtool: apt-get install prometheus);"; fi; \
	  if [ -n "$$skipped" ]; then echo "make test: passed, but skipped:$$skipped .ci/run installs them"; \
	  else echo "make test: passed; no test skipped for want of a program"; fi

test-unit: $(TEMPORAL_STAMP)
	SYNCIO_TEMPORAL=$(CURDIR)/$(TEMPORAL) tools/azurite/run.sh $(GO) test -race -count=1 -timeout 40m ./...
	# Without -race: the race runtime's shadow mappings hide the address
	# space this test measures.
	$(GO) test -count=1 -run 'TestSmallUploadsMapNoBuffers' ./api/

# golangci-lint v2.15.0 with the syncio plugin (nested module tools/golangci),
# rebuilt only when that module or the analyzer changed.
GOLANGCI     := $(BIN)/golangci-lint
GOLANGCI_SRC := tools/golangci/go.mod tools/golangci/go.sum \
	$(filter-out %_test.go,$(wildcard tools/golangci/*.go)) go.mod go.sum \
	$(shell find analyzer -name '*.go' -not -name '*_test.go' -not -path '*/testdata/*')

$(GOLANGCI): $(GOLANGCI_SRC)
	cd tools/golangci && GOWORK=off $(GO) build -o ../../$(GOLANGCI) .

lint: $(GOLANGCI)
	GOWORK=off $(GOLANGCI) run ./...

# The plugin-path test lives in a nested module that ./... at the root skips.
# It includes TestDocRecipe, which builds golangci-lint from the docs/ci.md
# blocks in a throwaway module (the version the doc pins, v2.15.0).
test-lint: $(GOLANGCI)
	cd tools/golangci && GOWORK=off $(GO) vet ./... && \
	  GOWORK=off SYNCIO_GOLANGCI_LINT=$(CURDIR)/$(GOLANGCI) $(GO) test -count=1 ./...

# The older golangci-lint versions the docs claim (docs/ci.md, "Supported
# golangci-lint versions"): the same recipe test, each pinned with the
# recipe's block over a module tidied at v2.15.0 first, then built. A cold
# build is a few minutes per version (other linter versions than v2.15.0's).
GOLANGCI_OLDER := v2.12.2 v2.13.2 v2.14.0
test-lint-oldest:
	for v in $(GOLANGCI_OLDER); do \
	  (cd tools/golangci && GOWORK=off SYNCIO_GOLANGCI_VERSION=$$v $(GO) test -count=1 -run TestDocRecipe .) || exit 1; \
	done

# actionlint on the example workflows that docs/ci.md offers for copying.
ACTIONLINT := github.com/rhysd/actionlint/cmd/actionlint@v1.7.12
lint-workflows:
	$(GO) run $(ACTIONLINT) docs/ci/*.yml

# Only the demo API's fault suite, the tests named TestFault* in api/ and
# cmd/syncio-api/ (docs/api.md, "The fault suite"): storage killed and
# restarted, hung, down and full (uploads and orders), slow clients,
# header-only floods, shutdown under load and SIGTERM with slow clients,
# Temporal killed, and the API killed with its storage kept. Each checks that
# nothing acknowledged is lost, memory bounds where load could grow memory,
# and that every error is a JSON error docs/api.md documents. test-unit runs
# them too (a few minutes of the whole); this is for working on them.
faults: $(TEMPORAL_STAMP)
	SYNCIO_TEMPORAL=$(CURDIR)/$(TEMPORAL) tools/azurite/run.sh $(GO) test -race -count=1 -run TestFault ./api/ ./cmd/syncio-api/

# Only the storage conformance suite, against the fake and Azurite.
test-storage:
	tools/azurite/run.sh $(GO) test -race -count=1 -run Conformance ./fakes/blobserver/...

# SARIF for GitHub code scanning; exit 3 (findings) is expected because
# examples/ is deliberately bad.
sarif:
	$(GO) build -o $(BIN)/syncio ./cmd/syncio
	$(BIN)/syncio -sarif syncio.sarif ./... ; rc=$$?; [ $$rc -eq 0 ] || [ $$rc -eq 3 ]

load-quick:
	$(GO) run ./cmd/syncio-load -profile quick

load-full:
	$(GO) run ./cmd/syncio-load -profile full -scenarios profile

bench-activity:
	$(GO) test -run '^$$' -bench . -benchmem -count 3 ./api/activity/
	$(GO) test -run '^$$' -bench Paired -benchtime 4s -count 3 ./api/activity/

bench-analyzer:
	$(GO) test -run '^$$' -bench . -benchmem -benchtime 5x -count 3 ./analyzer/

coldstart:
	$(GO) run ./cmd/syncio-load -scenarios coldstart -coldstart-trials 20

clean:
	rm -rf $(BIN) results
