# SkipDesk. `make run` starts the app (the embedded sandbox unless an API key
# is configured); `make test` runs every test, as CI does.

GO        ?= go
TAGS      := migrated_fynedo
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
	$(GO) vet -tags $(TAGS) ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	$(GO) test -tags $(TAGS) -count=1 ./...
	$(GO) test -tags $(TAGS) -race -count=1 ./client/...
	@scripts/fuzz.sh 5s

fuzz:
	@scripts/fuzz.sh 60s

## bench: the Go benchmarks; bench/*.sh compare against peer tools.
bench:
	$(GO) test -tags $(TAGS) -run '^$$' -bench . -benchmem -count 5 ./... | tee bench/out.txt

## package: a desktop package via Fyne's own packaging tool.
package: deps
	$(GO) install fyne.io/fyne/v2/cmd/fyne@$(FYNE_VER)
	cd cmd/skipdesk && $$($(GO) env GOPATH)/bin/fyne package --src . --icon ../../assets/icon.png --name SkipDesk --app-id com.skipdesk.app --tags $(TAGS) --release
	@echo "package written under cmd/skipdesk"

clean:
	rm -rf $(BIN) testout
