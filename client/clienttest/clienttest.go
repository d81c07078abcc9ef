// Package clienttest runs the sandbox for a test and gives it a client: the
// setup that the tests of the packages above the client share. Only tests
// import it; the client's own tests cannot (it imports the client).
package clienttest

import (
	"context"
	"testing"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/client/sandbox"
)

// StartSandbox starts a sandbox with cfg on a free loopback port and closes
// it when the test ends.
func StartSandbox(t testing.TB, cfg sandbox.Config) *sandbox.Server {
	t.Helper()
	srv, err := sandbox.Start(cfg, "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// Sandbox starts a sandbox with cfg (StartSandbox) and returns it with a
// client of its demo key, made with opts.
func Sandbox(t testing.TB, cfg sandbox.Config, opts ...client.Option) (*sandbox.Server, *client.Client) {
	t.Helper()
	srv := StartSandbox(t, cfg)
	api, err := client.New(srv.URL(), sandbox.DemoKey, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return srv, api
}

// Jobs counts the jobs submitted to the server api speaks to: its bulk
// traces and its DNC scrubs (single lookups left out), from the lists'
// totals.
func Jobs(t testing.TB, api *client.Client) int {
	t.Helper()
	ctx := context.Background()
	tl, err := api.Traces.List(ctx, &client.TraceListOptions{Limit: 1, Type: client.TypeBulk})
	if err != nil {
		t.Fatal(err)
	}
	dl, err := api.DNC.List(ctx, &client.ListOptions{Limit: 1})
	if err != nil {
		t.Fatal(err)
	}
	return tl.Metadata.TotalCount + dl.Metadata.TotalCount
}
