package clienttest

import (
	"context"
	"net/http"
	"testing"

	"github.com/skipdesk/skipdesk/client/sandbox"
)

// The client speaks to the sandbox started for it with the demo key, and
// the sandbox is closed when the test that started it ends.
func TestSandboxIsReachedThenClosed(t *testing.T) {
	var url string
	t.Run("running", func(t *testing.T) {
		srv, api := Sandbox(t, sandbox.DefaultConfig())
		url = srv.URL()
		a, err := api.Account(context.Background())
		if err != nil || a.Credits <= 0 {
			t.Fatalf("the account through the client: %+v, %v", a, err)
		}
	})
	if res, err := http.Get(url + "/account"); err == nil {
		res.Body.Close()
		t.Fatalf("the sandbox still answers after its test ended: %s", res.Status)
	}
}
