package workflow

import (
	"fmt"
	"net/url"
	"strings"
)

// CompleteBaseURL completes what a person types as the provider's
// address: a host ("api.example.com") or a host and port becomes
// "https://api.example.com/v1"; an address without a path gets "/v1"; a
// whole URL stays as typed. What cannot be an address is refused in words.
func CompleteBaseURL(typed string) (string, error) {
	s := strings.TrimSpace(typed)
	if s == "" {
		return "", fmt.Errorf("type the address your provider gave you, for example api.example.com")
	}
	if !strings.Contains(s, "://") {
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil || u.Host == "" || strings.ContainsAny(u.Host, " \t") {
		return "", fmt.Errorf("%q is not an address: type the host your provider gave you, for example api.example.com", strings.TrimSpace(typed))
	}
	if u.Path == "" || u.Path == "/" {
		u.Path = "/v1"
	}
	return u.String(), nil
}
