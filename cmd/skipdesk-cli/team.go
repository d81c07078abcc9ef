package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/workflow"
)

// A team on one database: the command line works on the team's when
// SKIPDESK_DATABASE_URL is set, or when this computer shares one (its
// connection string in the keyring).
func init() {
	register("team", &command{
		usage:   "[--json]",
		summary: "whether this computer shares a team's database, which, and who is connected",
		run:     runTeam,
	})
	register("team share", &command{
		usage:   "[--name NAME] < connection-string",
		summary: "move this computer's jobs, presets, layout corrections and internal do-not-call list into the team's PostgreSQL database and work on it from now on (the connection string is read from SKIPDESK_DATABASE_URL or the first line of standard input, and kept in the keyring)",
		run:     runTeamShare,
	})
	register("team stop", &command{
		usage:   "[--preview]",
		summary: "stop sharing: copy back what this computer needs on its own (the company's do-not-call list with its history, its jobs, the duplicate guard's records) and work on its own records again; the connection string leaves the keyring. Refused, with nothing changed, while the team's database does not answer",
		run:     runTeamStop,
	})
}

func runTeam(ctx context.Context, env *Env, args []string) error {
	if err := groupOnly(env, "team", "share, stop", args); err != nil {
		return err
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	st := svc.Team().Status(ctx)
	if env.JSON {
		doc := map[string]any{"on": st.On, "from_env": st.FromEnv, "database": st.Database, "computer": st.Computer,
			"computers": st.Computers}
		if st.Err != nil {
			doc["error"] = words(st.Err)
		}
		return json.NewEncoder(env.Stdout).Encode(doc)
	}
	if !st.On {
		fmt.Fprintf(env.Stdout, "This computer (%s) keeps its own records; `skipdesk-cli team share` shares a team's database.\n", st.Computer)
		return nil
	}
	fmt.Fprintf(env.Stdout, "Team database: %s\nThis computer: %s\n", st.Database, st.Computer)
	if st.Err != nil {
		return st.Err
	}
	fmt.Fprintf(env.Stdout, "Connected now: %s\n", strings.Join(st.Computers, ", "))
	return nil
}

func runTeamShare(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "team share", commands["team share"])
	name := fs.String("name", "", "this computer's name in the team (default: the host name)")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return usageErrorf("team share: the connection string is read from SKIPDESK_DATABASE_URL or standard input, never from the command line (other users can read it there)")
	}
	url := env.Config.DatabaseURL
	if url == "" {
		line, err := bufio.NewReader(os.Stdin).ReadString('\n')
		if err != nil && line == "" {
			return usageErrorf("team share: give the connection string on standard input or in SKIPDESK_DATABASE_URL")
		}
		url = strings.TrimSpace(line)
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	rep, err := svc.Team().ShareWithTeam(ctx, url, *name, func(p workflow.ShareProgress) {
		if p.Total > 0 && (p.Done == p.Total || p.Done%5000 == 0) {
			fmt.Fprintf(env.Stderr, "%s: %d of %d\n", p.Part, p.Done, p.Total)
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "Moved into the team's database: %d jobs, %d submissions, %d presets, %d layout corrections, %d numbers of the internal list.\n",
		rep.Copied["jobs"], rep.Copied["submissions"], rep.Copied["presets"], rep.Copied["layouts"], rep.Copied["internal"])
	return nil
}

func runTeamStop(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "team stop", commands["team stop"])
	preview := fs.Bool("preview", false, "say what stopping would copy back, and stop nothing")
	if _, err := parseFlags(fs, args); err != nil {
		return err
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	if !svc.Team().Sharing() {
		fmt.Fprintln(env.Stdout, "This computer keeps its own records already.")
		return nil
	}
	if *preview {
		kept, err := svc.Team().StopSharingPreview(ctx)
		if err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "Stopping would copy back to this computer: %s.\n", workflow.DescribeKept(kept))
		return nil
	}
	kept, err := svc.Team().StopSharing(ctx, func(p workflow.ShareProgress) {
		if p.Total > 0 && (p.Done == p.Total || p.Done%100_000 == 0) {
			fmt.Fprintf(env.Stderr, "copying back %s: %s of %s\n", p.Part, num(int64(p.Done)), num(int64(p.Total)))
		}
	})
	if err != nil {
		return err
	}
	fmt.Fprintf(env.Stdout, "This computer keeps its own records again, with what it copied back from the team's database: %s.\n",
		workflow.DescribeKept(kept))
	return nil
}
