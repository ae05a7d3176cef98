# syncio — build and test entry points. `make test` is what CI runs.
GO  ?= go
BIN := bin

.PHONY: all build test check test-unit test-storage lint test-lint sarif load-quick load-full bench-activity bench-analyzer coldstart clean

all: build

build:
	$(GO) build ./...
	$(GO) build -o $(BIN)/ ./cmd/...

# Everything CI needs: formatting and vet, then every test with the race
# detector against the embedded fakes AND a throwaway Azurite 3.37.0
# (tools/azurite/run.sh installs it with npm on first use and stops it after),
# then golangci-lint with the syncio plugin on our own code and the
# plugin-path test.
test: check test-unit lint test-lint

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

test-unit:
	tools/azurite/run.sh $(GO) test -race -count=1 ./...

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
test-lint: $(GOLANGCI)
	cd tools/golangci && GOWORK=off $(GO) vet ./... && \
	  GOWORK=off SYNCIO_GOLANGCI_LINT=$(CURDIR)/$(GOLANGCI) $(GO) test -count=1 ./...

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
