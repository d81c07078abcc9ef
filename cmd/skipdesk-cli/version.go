package main

import (
	"context"
	"fmt"
	"io"

	"github.com/skipdesk/skipdesk/assets"
)

func init() {
	register("version", &command{
		summary: "the version and build, and the data folder (also --version)",
		run:     runVersion,
	})
}

type versionInfo struct {
	Version    string `json:"version"`
	Build      string `json:"build"`
	Commit     string `json:"commit,omitempty"`
	DataFolder string `json:"data_folder,omitempty"`
}

func runVersion(_ context.Context, env *Env, args []string) error {
	c := commands["version"]
	if _, err := parseFlags(newFlags(env, "version", c), args); err != nil {
		return err
	}
	v := versionInfo{Version: assets.Version, Build: assets.Build, Commit: assets.Commit}
	// The data folder is where the ledger and the results live:
	// %AppData%\SkipDesk on Windows unless SKIPDESK_HOME says otherwise.
	v.DataFolder = env.Config.Home
	return env.Output(v, func(w io.Writer) {
		printVersion(w)
		if v.DataFolder != "" {
			fmt.Fprintf(w, "data folder: %s\n", v.DataFolder)
		}
	})
}

// printVersion writes the first line of `version`, which is also all that
// `--version` prints.
func printVersion(w io.Writer) {
	fmt.Fprintf(w, "skipdesk-cli %s\n", assets.VersionString())
}
