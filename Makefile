# SkipDesk. `make run` starts the app (the embedded sandbox unless an API key
# is configured); `make test` runs every test, as CI does.

GO        ?= go
TAGS      := migrated_fynedo
# The test harness (end-to-end scripts, probes, pause points) is compiled
# only into test builds.
TEST_TAGS := $(TAGS),harness
BIN       := bin
FYNE_VER  := $(shell $(GO) list -m -f '{{.Version}}' fyne.io/fyne/v2 2>/dev/null)
export LANG ?= en_US.UTF-8

# Debian/Ubuntu packages Fyne needs to build (cgo, OpenGL, X11).
SYSTEM_PKGS := gcc pkg-config libgl1-mesa-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev

.PHONY: run deps build cli sandbox test test-e2e fuzz bench package clean

run: deps build
	./$(BIN)/skipdesk

## deps: install the system packages Fyne needs when they are missing.
deps:
	@scripts/deps.sh $(SYSTEM_PKGS)

build:
	$(GO) build -tags $(TAGS) -o $(BIN)/skipdesk ./cmd/skipdesk
	$(GO) build -o $(BIN)/skipdesk-cli ./cmd/skipdesk-cli
	$(GO) build -o $(BIN)/skipdesk-sandbox ./cmd/skipdesk-sandbox

cli:
	$(GO) build -o $(BIN)/skipdesk-cli ./cmd/skipdesk-cli

## sandbox: run the provider sandbox on a fixed local port.
sandbox:
	$(GO) run ./cmd/skipdesk-sandbox --addr 127.0.0.1:8787

## test: vet, every test (with the race detector on the client), short fuzzing.
test: deps
	$(GO) build -tags $(TAGS) ./...   # the release build, without the test harness
	$(GO) vet -tags $(TEST_TAGS) ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	@scripts/lint.sh
	$(GO) test -tags $(TEST_TAGS) -count=1 ./...
	$(GO) test -tags $(TEST_TAGS) -race -count=1 ./client/...
	@scripts/fuzz.sh 5s

## test-e2e: the end-to-end test alone: the real app under Xvfb in the
## sandbox, every script, screenshots in testout/e2e.
test-e2e: deps
	$(GO) test -tags $(TEST_TAGS) -count=1 -run TestEndToEnd -v ./cmd/skipdesk

fuzz:
	@scripts/fuzz.sh 60s

## bench: the Go benchmarks; bench/*.sh compare against peer tools.
bench:
	$(GO) test -tags $(TEST_TAGS) -run '^$$' -bench . -benchmem -count 5 ./... | tee bench/out.txt

## package: a desktop package (SkipDesk.tar.xz on Linux) via Fyne's own
## packaging tool. The root FyneApp.toml gives the name, app id, version and
## icon: the app is built first (with the migration tag) and handed to
## `fyne package` run from the root, so that is the file it reads.
package: deps
	$(GO) build -tags $(TAGS) -trimpath -ldflags '-s -w' -o $(BIN)/skipdesk ./cmd/skipdesk
	$(GO) install fyne.io/fyne/v2/cmd/fyne@$(FYNE_VER)
	mkdir -p dist
	@# fyne package raises Build in FyneApp.toml on each run: the committed file stays as it is.
	cp FyneApp.toml $(BIN)/FyneApp.toml.keep
	$$($(GO) env GOPATH)/bin/fyne package --src . --exe $(BIN)/skipdesk --release; s=$$?; \
	  cp $(BIN)/FyneApp.toml.keep FyneApp.toml; exit $$s
	mv -f SkipDesk.tar.xz dist/
	@ls -l dist

clean:
	rm -rf $(BIN) dist testout
