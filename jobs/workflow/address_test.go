package workflow

import "testing"

// A host, a host and port, or an address without its path is completed; a
// whole URL stays as typed; what is no address is refused in words.
func TestCompleteBaseURL(t *testing.T) {
	t.Parallel()
	for typed, want := range map[string]string{
		"api.example.com":                 "https://api.example.com/v1",
		" api.example.com/ ":              "https://api.example.com/v1",
		"127.0.0.1:8787":                  "https://127.0.0.1:8787/v1",
		"http://127.0.0.1:8787":           "http://127.0.0.1:8787/v1",
		"https://api.example.com/v1":      "https://api.example.com/v1",
		"https://api.example.com/api/v2/": "https://api.example.com/api/v2/",
	} {
		if got, err := CompleteBaseURL(typed); err != nil || got != want {
			t.Errorf("%q: %q %v, want %q", typed, got, err, want)
		}
	}
	for _, typed := range []string{"", "   ", "https://", "my provider"} {
		if got, err := CompleteBaseURL(typed); err == nil {
			t.Errorf("%q completed to %q", typed, got)
		} else if err.Error() == "" || err.Error()[0] == 'c' {
			t.Errorf("%q: %v", typed, err)
		}
	}
}
