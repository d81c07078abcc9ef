# SkipDesk. `make run` starts the app (the embedded sandbox unless an API key
# is configured); `make test` runs every test, as CI does.

GO        ?= go
TAGS      := migrated_fynedo
# The test harness (end-to-end scripts, probes, pause points) is compiled
# only into test builds.
TEST_TAGS := $(TAGS),harness
BIN       := bin
# The packages whose tests take longest under the race detector, longest
# first: make test starts them before the others.
SLOW_PKGS := ./cmd/skipdesk ./jobs/workflow ./ui ./ui/wizard ./cmd/skipdesk-cli ./jobs/library ./jobs/export ./jobs/ledger
FYNE_VER  := $(shell $(GO) list -m -f '{{.Version}}' fyne.io/fyne/v2 2>/dev/null)
FYNE      := $(shell $(GO) env GOPATH)/bin/fyne
export LANG ?= en_US.UTF-8

# The version is set in one place, FyneApp.toml (assets.Version follows it,
# checked by a test). BUILD numbers a build: the commits on the branch.
VERSION   := $(shell sed -n 's/^[[:space:]]*Version[[:space:]]*=[[:space:]]*"\(.*\)"/\1/p' FyneApp.toml)
BUILD     ?= $(shell git rev-list --count HEAD 2>/dev/null || echo 1)
COMMIT    ?= $(shell git rev-parse --short HEAD 2>/dev/null)
XFLAGS    := -X github.com/skipdesk/skipdesk/assets.Build=$(BUILD) -X github.com/skipdesk/skipdesk/assets.Commit=$(COMMIT)

# Debian/Ubuntu packages Fyne needs to build (cgo, OpenGL, X11).
SYSTEM_PKGS := gcc pkg-config libgl1-mesa-dev libxcursor-dev libxrandr-dev libxinerama-dev libxi-dev libxxf86vm-dev
# ... to run the team database's tests (a throwaway PostgreSQL server).
TEST_PKGS := postgresql
# ... to cross-build, sign and package for Windows, and to run it under Wine.
WINDOWS_PKGS := gcc-mingw-w64-x86-64 nsis osslsigncode openssl zip xz-utils imagemagick
SMOKE_PKGS   := gcc-mingw-w64-x86-64 wine wine64 xvfb xauth xdotool imagemagick

.PHONY: run deps build cli sandbox test test-fast test-e2e fuzz bench package dist dist-windows dist-macos smoke-windows clean

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

## test: vet, lint, every test of every package under the race detector,
## short fuzzing (3 s a target): what CI runs (README.md, Development, gives its time).
## The stores' tests run on SQLite and on a throwaway PostgreSQL server
## (jobs/sqldb/pgtest) started from Debian's postgresql package, installed
## here when it can be; without it they say they skip that engine (CI sets
## SKIPDESK_REQUIRE_POSTGRES, so there they fail instead).
test: deps
	@scripts/deps.sh $(TEST_PKGS) || echo "PostgreSQL is not installed: the team database's tests will be skipped"
	$(GO) build -tags $(TAGS) ./...   # the release build, without the test harness
	$(GO) vet -tags $(TEST_TAGS) ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go'))" || (echo "gofmt needed:"; gofmt -l .; exit 1)
	@scripts/lint.sh
	# Four packages at a time: the end-to-end run and the sandboxes' tests wait on
	# processes and servers, which leaves cores idle at two or three. The
	# longest first (go test starts them in the order given), so that none
	# is left running alone at the end.
	$(GO) test -tags $(TEST_TAGS) -race -count=1 -p 4 $(SLOW_PKGS) ./...
	# The generated results' invariant at its full 2,000 cases (100 under -race),
	# the single reading's scan at its 300 lists (60 under -race), the
	# generated company lists and opt-out exports at their 300 files each
	# (40 under -race).
	$(GO) test -tags $(TEST_TAGS) -count=1 -run '^(TestGeneratedResultsNeverLeak|TestReadScansAsScanColumn|TestGeneratedListsLoseNoNumber|TestGeneratedOptOutsMissNone)$$' ./jobs/workflow
	@scripts/fuzz.sh 3s

## test-fast: the inner loop: every package's tests with -short (no GUI
## run, no kill test, no real-time waits, fewer generated cases), no race
## detector, no lint or fuzzing. The tests' heaps are small: with the
## collector run a quarter as often (GOGC=400) the run takes about a sixth
## less CPU (the window's tests spent a third of theirs collecting).
test-fast:
	GOGC=400 $(GO) test -tags $(TEST_TAGS) -short -count=1 -p 4 $(SLOW_PKGS) ./...

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
## `fyne package` run from the root, so that is the file it reads. LICENSE.txt
## and THIRD_PARTY_NOTICES.txt are added beside the package's own Makefile.
package: deps
	@scripts/deps.sh xz-utils
	$(GO) build -tags $(TAGS) -trimpath -ldflags '-s -w $(XFLAGS)' -o $(BIN)/skipdesk ./cmd/skipdesk
	$(GO) install fyne.io/fyne/v2/cmd/fyne@$(FYNE_VER)
	mkdir -p dist
	@# fyne package raises Build in FyneApp.toml on each run: the committed file stays as it is.
	cp FyneApp.toml $(BIN)/FyneApp.toml.keep
	$(FYNE) package --src . --exe $(BIN)/skipdesk --release; s=$$?; \
	  cp $(BIN)/FyneApp.toml.keep FyneApp.toml; exit $$s
	rm -rf _build/linux && mkdir -p _build/linux
	tar -xJf SkipDesk.tar.xz -C _build/linux && rm SkipDesk.tar.xz
	@# The package is one folder (skipdesk/: Makefile, usr/): the texts go beside its Makefile.
	d=$$(ls _build/linux) && cp LICENSE _build/linux/$$d/LICENSE.txt && \
	  packaging/notices.sh --tags $(TAGS),release ./cmd/skipdesk ./cmd/skipdesk-cli > _build/linux/$$d/THIRD_PARTY_NOTICES.txt && \
	  tar -cJf dist/SkipDesk.tar.xz -C _build/linux --owner=0 --group=0 $$d
	@ls -l dist

## dist: every package this machine can make: the Linux one (package) and,
## cross-built and signed, the Windows installer and portable zip
## (packaging/windows/dist.sh; certificate variables in packaging/windows/sign.sh).
dist: package dist-windows

dist-windows: deps
	@scripts/deps.sh $(WINDOWS_PKGS)
	$(GO) install fyne.io/fyne/v2/cmd/fyne@$(FYNE_VER)
	VERSION=$(VERSION) BUILD=$(BUILD) COMMIT=$(COMMIT) FYNE=$(FYNE) packaging/windows/dist.sh

## smoke-windows: the installer from `make dist` under Wine and Xvfb: silent
## install, the app's window (screenshot in testout/windows/), the Windows
## command line against the Linux sandbox, silent uninstall keeping the data.
smoke-windows:
	@scripts/deps.sh $(SMOKE_PKGS)
	$(GO) build -o $(BIN)/skipdesk-sandbox ./cmd/skipdesk-sandbox
	$(GO) build -o $(BIN)/skipdesk-cli ./cmd/skipdesk-cli
	packaging/windows/smoke.sh dist/SkipDesk-$(VERSION)-windows-amd64-setup.exe

## dist-macos: SkipDesk.app, signed and notarised, in a .dmg; on a Mac only
## (packaging/macos/dist.sh says what it needs).
dist-macos:
	@if [ "$$(uname -s)" != Darwin ]; then \
	  echo "make dist-macos must run on a Mac (macOS with Xcode and its command line tools): it needs codesign, notarytool, stapler and hdiutil. See docs/development.md, Building for macOS."; \
	  exit 1; fi
	$(GO) install fyne.io/fyne/v2/cmd/fyne@$(FYNE_VER)
	VERSION=$(VERSION) BUILD=$(BUILD) COMMIT=$(COMMIT) FYNE=$(FYNE) packaging/macos/dist.sh

clean:
	rm -rf $(BIN) dist testout _build
