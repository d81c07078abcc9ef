// Command skipdesk-cli does what the desktop app does, without a window: for
// automation, scripts and tests. Each group of commands lives in its own file
// and registers itself in init.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// Exit codes.
const (
	exitOK             = 0
	exitFailure        = 1   // local trouble: a file that cannot be read or written
	exitUsage          = 2   // bad usage, or a validation that failed
	exitAPI            = 3   // the API answered with an error
	exitOutcomeUnknown = 4   // a charged request may or may not have reached the server
	exitStopped        = 130 // asked to stop (Ctrl+C, SIGTERM) and not ended by itself within stopGrace
)

// stopGrace is how long a command has, once asked to stop, to end by
// itself (every command obeys its context). Each step of a submission and
// a download is recorded before the next, so ending after it loses nothing
// a command reported done: what was under way is taken up again the next
// time, as after a crash.
const stopGrace = 5 * time.Second

// Env is what every command gets: the global options, the configuration
// read at start, and the output streams.
type Env struct {
	Stdout, Stderr io.Writer
	JSON           bool // --json: print the API's JSON (or a JSON document)
	// Config is read once from the environment (and --base-url).
	Config workflow.Config

	svc *workflow.Service
	// connecting makes connect one at a time: the rates asked for ahead
	// and a preset's look-up may both open the session during a read.
	connecting sync.Mutex
}

type command struct {
	usage   string // arguments after the command name
	summary string
	run     func(ctx context.Context, env *Env, args []string) error
}

var commands = map[string]*command{}

// register adds a command; name may be two words ("traces list").
func register(name string, c *command) {
	if _, dup := commands[name]; dup {
		panic("skipdesk-cli: command registered twice: " + name)
	}
	commands[name] = c
}

// exitError carries an exit code with the message for stderr.
type exitError struct {
	code int
	err  error
	// plain: the message is the command line's own (usage and the like),
	// printed as it is.
	plain bool
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func usageErrorf(format string, a ...any) error {
	return &exitError{code: exitUsage, err: fmt.Errorf(format, a...), plain: true}
}

// classifiers map errors from lower layers to exit codes; command files add
// theirs in init (the API error types live with the API commands).
var classifiers []func(error) (int, bool)

func exitCode(err error) int {
	// The state of the money first, as in the words printed: a charged
	// request whose outcome is unknown exits 4 whatever else went wrong.
	if p, ok := workflow.ExplainKnown(err, ""); ok && p.MayBeCharged {
		return exitOutcomeUnknown
	}
	var ee *exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	for _, c := range classifiers {
		if code, ok := c(err); ok {
			return code
		}
	}
	return exitFailure
}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go endAfterStop(ctx, stop)
	stopProfile := profile()
	code := Main(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stopProfile()
	stop()
	os.Exit(code)
}

// profile starts what a build for measuring records of the command and
// returns what ends it: nothing in a release build (see profile.go).
var profile = func() func() { return func() {} }

// endAfterStop: once the command is asked to stop, a second signal ends
// the process at once (the system's default comes back), and a command
// still running after stopGrace is ended.
func endAfterStop(ctx context.Context, stop context.CancelFunc) {
	<-ctx.Done()
	stop()
	<-time.After(stopGrace)
	fmt.Fprintf(os.Stderr, "skipdesk-cli: stopped (the command did not end within %s of being asked to)\n", stopGrace)
	os.Exit(exitStopped)
}

// Main runs one command line and returns the exit code. The environment
// is read here, once.
func Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := workflow.ConfigFromEnv(os.Getenv)
	if err != nil {
		fmt.Fprintf(stderr, "skipdesk-cli: %v\n", err)
		return exitUsage
	}
	cfg.UserAgent = "skipdesk-cli/1"
	harness(&cfg, stderr)
	env := &Env{Stdout: stdout, Stderr: stderr, Config: cfg}
	defer env.close()
	global := flag.NewFlagSet("skipdesk-cli", flag.ContinueOnError)
	global.SetOutput(stderr)
	global.StringVar(&env.Config.BaseURL, "base-url", env.Config.BaseURL, "API base address ending in /v1 (env SKIPDESK_BASE_URL)")
	global.BoolVar(&env.JSON, "json", false, "print JSON")
	showVersion := global.Bool("version", false, "print the version and build")
	global.Usage = func() { printUsage(stderr) }
	if err := global.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		return exitUsage
	}
	if *showVersion {
		printVersion(stdout)
		return exitOK
	}
	rest := global.Args()
	if len(rest) == 0 {
		printUsage(stderr)
		return exitUsage
	}
	name, cmdArgs := rest[0], rest[1:]
	if len(rest) > 1 {
		if _, ok := commands[rest[0]+" "+rest[1]]; ok {
			name, cmdArgs = rest[0]+" "+rest[1], rest[2:]
		}
	}
	c, ok := commands[name]
	if !ok {
		fmt.Fprintf(stderr, "skipdesk-cli: unknown command %q\n\n", strings.Join(rest[:min(2, len(rest))], " "))
		printUsage(stderr)
		return exitUsage
	}
	if err := c.run(ctx, env, cmdArgs); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return exitOK
		}
		fmt.Fprintf(stderr, "skipdesk-cli %s: %s\n", name, words(err))
		return exitCode(err)
	}
	return exitOK
}

// words is what the command line prints for err: the application layer's
// sentences (what happened, what to do) when it knows the error, else the
// error itself.
func words(err error) string {
	var ee *exitError
	if errors.As(err, &ee) && ee.plain {
		return cleanText(err.Error())
	}
	p, ok := workflow.ExplainKnown(err, "")
	if !ok {
		return cleanText(err.Error())
	}
	s := p.What
	if p.Do != "" {
		s += "\n" + p.Do
	}
	return cleanText(s)
}

// service is the application layer on the configured data folder, opened
// on first need. A damaged settings file is a warning: the defaults serve.
func (e *Env) service() (*workflow.Service, error) {
	if e.svc != nil {
		return e.svc, nil
	}
	svc, err := workflow.Open(e.Config)
	var se *workflow.SettingsError
	if errors.As(err, &se) {
		fmt.Fprintf(e.Stderr, "warning: %s\n", words(err))
		err = nil
	}
	if err != nil {
		return nil, err
	}
	e.svc = svc
	return svc, nil
}

// connect is the service with a session on the configured API: the key
// from SKIPDESK_API_KEY or the keyring, the address from --base-url,
// SKIPDESK_BASE_URL or the one the desktop app saved.
func (e *Env) connect(ctx context.Context) (*workflow.Service, error) {
	e.connecting.Lock()
	defer e.connecting.Unlock()
	svc, err := e.service()
	if err != nil {
		return nil, err
	}
	if svc.Sessions().Current().BaseURL != "" {
		return svc, nil
	}
	if _, err := svc.Sessions().Resume(ctx); err != nil {
		var be *workflow.BaseURLError
		if errors.Is(err, workflow.ErrNoKey) || errors.Is(err, workflow.ErrNoBaseURL) || errors.As(err, &be) {
			return nil, &exitError{code: exitUsage, err: err}
		}
		return nil, err
	}
	return svc, nil
}

// ratesAhead opens the session and asks for the rates on a goroutine of
// their own, while a file is read: the price after the read waits for no
// round trip to the provider. Why the session could not be opened is said
// where it is needed (wait), after what the file's reading has to say.
func (e *Env) ratesAhead(ctx context.Context, svc *workflow.Service) *ratesAhead {
	a := &ratesAhead{done: make(chan struct{})}
	go func() {
		defer close(a.done)
		if _, a.err = e.connect(ctx); a.err == nil {
			a.rates = svc.Quotes().AskRates(ctx)
		}
	}()
	return a
}

type ratesAhead struct {
	done  chan struct{}
	rates *workflow.AskedRates
	err   error
}

// wait is the rates asked for, or why the session could not be opened.
func (a *ratesAhead) wait() (*workflow.AskedRates, error) {
	<-a.done
	if a.rates != nil {
		a.rates.Rates() // done before the caller goes on
	}
	return a.rates, a.err
}

func (e *Env) close() {
	if e.svc != nil {
		e.svc.Close()
	}
}

// newFlags makes the flag set of one command; its errors count as usage errors.
func newFlags(env *Env, name string, c *command) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(env.Stderr)
	fs.Usage = func() {
		fmt.Fprintf(env.Stderr, "usage: skipdesk-cli %s %s\n%s\n", name, c.usage, c.summary)
		fs.PrintDefaults()
	}
	return fs
}

// parseFlags parses fs and turns a parse failure into a usage error. Flags and
// positional arguments may be mixed ("get ID --json").
func parseFlags(fs *flag.FlagSet, args []string) ([]string, error) {
	var pos []string
	for {
		if err := fs.Parse(args); err != nil {
			if errors.Is(err, flag.ErrHelp) {
				return nil, err
			}
			return nil, &exitError{code: exitUsage, err: err, plain: true}
		}
		args = fs.Args()
		if len(args) == 0 {
			return pos, nil
		}
		pos = append(pos, args[0])
		args = args[1:]
	}
}

func printUsage(w io.Writer) {
	fmt.Fprintln(w, "usage: skipdesk-cli [--base-url URL] [--json] COMMAND [ARGS]")
	fmt.Fprintln(w, "\nThe API key comes from SKIPDESK_API_KEY or the system keyring.\n\ncommands:")
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintf(w, "  %-22s %s\n", n, commands[n].summary)
	}
}

// cleanText is server or file text made safe for the terminal (the client
// already cleans what it decodes; printing cleans again). Line breaks of
// SkipDesk's own multi-line messages are kept.
func cleanText(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = client.CleanText(l)
	}
	return strings.Join(lines, "\n")
}
