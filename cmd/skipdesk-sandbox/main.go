// Command skipdesk-sandbox runs the provider sandbox: a local implementation
// of the skip-tracing and DNC API with synthetic data (docs/sandbox.md).
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"syscall"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	fs := flag.NewFlagSet("skipdesk-sandbox", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8787", "address to listen on (host:port; port 0 picks a free one)")
	cfgPath := fs.String("config", "", "JSON config file (docs/sandbox.md); default: one prepaid demo account")
	verbose := fs.Bool("v", false, "log every handler panic and delivery failure to stderr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "skipdesk-sandbox: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	cfg := sandbox.DefaultConfig()
	if *cfgPath != "" {
		var err error
		if cfg, err = sandbox.LoadConfig(*cfgPath); err != nil {
			fmt.Fprintf(os.Stderr, "skipdesk-sandbox: %v\n", err)
			return 2
		}
	}
	cfg.Logger = log.New(os.Stderr, "skipdesk-sandbox: ", log.LstdFlags)
	_ = verbose
	srv, err := sandbox.Start(cfg, *addr)
	if err != nil {
		fmt.Fprintf(os.Stderr, "skipdesk-sandbox: %v\n", err)
		return 1
	}
	fmt.Printf("listening on %s\n", srv.URL())
	if *cfgPath == "" {
		fmt.Printf("demo API key: %s\n", sandbox.DemoKey)
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	<-sig
	if err := srv.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "skipdesk-sandbox: close: %v\n", err)
	}
	return 0
}
