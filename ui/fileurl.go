package ui

import (
	"net/url"
	"runtime"
	"strings"
)

// fileURL is the file:// URL of a local path, for opening it with the
// system's own app or file manager.
func fileURL(path string) *url.URL { return fileURLFor(path, runtime.GOOS == "windows") }

// fileURLFor applies Windows' rules when windows is set, on any system (so
// they are tested everywhere): "C:\Users\me\a b.csv" is
// file:///C:/Users/me/a%20b.csv, and a network path \\server\share\x is
// file://server/share/x. A slashed drive path put in url.URL.Path as it is
// makes "C:" the host: file://C:/Users/...
func fileURLFor(path string, windows bool) *url.URL {
	if !windows {
		return &url.URL{Scheme: "file", Path: path}
	}
	p := strings.ReplaceAll(path, `\`, "/")
	if strings.HasPrefix(p, "//?/") { // extended-length form: \\?\C:\... or \\?\UNC\server\share
		p = p[len("//?/"):]
		if len(p) >= 4 && strings.EqualFold(p[:4], "UNC/") {
			p = "//" + p[4:]
		}
	}
	if strings.HasPrefix(p, "//") {
		host, rest, _ := strings.Cut(p[2:], "/")
		return &url.URL{Scheme: "file", Host: host, Path: "/" + rest}
	}
	if len(p) >= 2 && p[1] == ':' {
		p = "/" + p
	}
	return &url.URL{Scheme: "file", Path: p}
}
