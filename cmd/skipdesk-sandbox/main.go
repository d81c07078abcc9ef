// Command skipdesk-sandbox runs the provider sandbox: a local implementation
// of the skip-tracing and DNC API with synthetic data (docs/sandbox.md).
//
//	skipdesk-sandbox [--addr 127.0.0.1:8787] [--config sandbox.json]
//
// The first line on stdout is "listening on http://HOST:PORT/v1". Without
// --config the demo account is created and its key printed on the next line.
// It serves until SIGINT or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"io"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

func main() {
	stop := make(chan os.Signal, 1)
	signal.Notify(stop, os.Interrupt, syscall.SIGTERM)
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, stop))
}

func run(args []string, stdout, stderr io.Writer, stop <-chan os.Signal) int {
	fs := flag.NewFlagSet("skipdesk-sandbox", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on, host:port (port 0 picks a free one)")
	cfgPath := fs.String("config", "", "JSON config file (docs/sandbox.md); default: one prepaid demo account")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "skipdesk-sandbox: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg := sandbox.DefaultConfig()
	if *cfgPath != "" {
		var err error
		if cfg, err = sandbox.LoadConfig(*cfgPath); err != nil {
			fmt.Fprintf(stderr, "skipdesk-sandbox: %v\n", err)
			return 2
		}
	}
	cfg.Logger = log.New(stderr, "skipdesk-sandbox: ", log.LstdFlags)
	srv, err := sandbox.Start(cfg, *addr)
	if err != nil {
		fmt.Fprintf(stderr, "skipdesk-sandbox: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "listening on %s\n", srv.URL())
	if *cfgPath == "" {
		fmt.Fprintf(stdout, "demo API key: %s\n", sandbox.DemoKey)
	}
	<-stop
	if err := srv.Close(); err != nil {
		fmt.Fprintf(stderr, "skipdesk-sandbox: close: %v\n", err)
		return 1
	}
	return 0
}
