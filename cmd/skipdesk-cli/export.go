package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/export"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/workflow"
)

func init() {
	register("export", &command{
		usage:   "RESULT.csv --out FILE.xlsx|FILE.csv [--job-record RESULT.job.json] [--dnc DNC.csv [--only-callable]] [--truncate-long-cells]",
		summary: "export a result to Excel (.xlsx) or CSV for Excel",
		run:     runExport,
	})
	register("results search", &command{
		usage:   "TEXT [--dir DIR] [--limit N]",
		summary: "search every downloaded result for a phone, a name or an address",
		run:     runResultsSearch,
	})
}

func runExport(ctx context.Context, env *Env, args []string) error {
	c := commands["export"]
	fs := newFlags(env, "export", c)
	out := fs.String("out", "", "file to write: .xlsx or .csv")
	record := fs.String("job-record", "", "job record for the Summary sheet (default: the one beside the result, when present)")
	dnc := fs.String("dnc", "", "DNC result of the trace's phones: export a callable list with their flags merged in")
	only := fs.Bool("only-callable", false, "with --dnc: keep only phones on neither the DNC nor the litigator list")
	trunc := fs.Bool("truncate-long-cells", false, "cut cells longer than Excel's 32,767 characters (listed) instead of failing")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("export: want one RESULT.csv, got %d arguments", len(pos))
	}
	if *out == "" {
		return usageErrorf("export: --out FILE.xlsx or FILE.csv is required")
	}
	if *only && *dnc == "" {
		return usageErrorf("export: --only-callable needs --dnc")
	}
	lower := strings.ToLower(*out)
	if !strings.HasSuffix(lower, ".xlsx") && !strings.HasSuffix(lower, ".csv") {
		return usageErrorf("export: --out must end in .xlsx or .csv: %s", *out)
	}
	src := pos[0]
	if _, err := os.Stat(src); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	progress := func(done, total int64) {
		if !env.JSON && total > 0 {
			fmt.Fprintf(env.Stderr, "\rexporting: %d/%d rows", done, total)
		}
	}
	rep, err := svc.Export(ctx, workflow.ExportRequest{Source: src, Dest: *out, Record: *record, DNC: *dnc, OnlyCallable: *only,
		TruncateLongCells: *trunc, Progress: progress})
	if !env.JSON {
		fmt.Fprintln(env.Stderr)
	}
	if err != nil {
		var tl *export.CellTooLongError
		if errors.As(err, &tl) {
			return &exitError{code: exitUsage, plain: true, err: fmt.Errorf("%w\n(run again with --truncate-long-cells to cut such cells, or export to .csv)", err)}
		}
		return err
	}
	if env.JSON {
		return json.NewEncoder(env.Stdout).Encode(rep)
	}
	for _, w := range rep.Warnings {
		fmt.Fprintf(env.Stderr, "warning: %s: %s\n", src, w)
	}
	for _, tr := range rep.Truncated {
		fmt.Fprintf(env.Stderr, "warning: row %d, column %q: %d characters cut to %d\n", tr.Row, tr.Column, tr.Length, export.ExcelMaxCellChars)
	}
	sheets := ""
	if len(rep.Sheets) > 1 {
		sheets = fmt.Sprintf(" in %d sheets (%s)", len(rep.Sheets), strings.Join(rep.Sheets, ", "))
	}
	fmt.Fprintf(env.Stdout, "%s: %d rows%s\n", rep.Path, rep.Rows, sheets)
	return nil
}

func runResultsSearch(ctx context.Context, env *Env, args []string) error {
	c := commands["results search"]
	fs := newFlags(env, "results search", c)
	dir := fs.String("dir", "", "library folder (default $SKIPDESK_HOME/results, else the user config folder's SkipDesk/results)")
	limit := fs.Int("limit", library.DefaultSearchLimit, "most hits to show")
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	text := strings.TrimSpace(strings.Join(pos, " "))
	if text == "" {
		return usageErrorf("results search: TEXT is required")
	}
	if *limit <= 0 {
		return usageErrorf("results search: --limit must be positive")
	}
	svc, err := env.service()
	if err != nil {
		return err
	}
	hits, err := svc.SearchRows(ctx, *dir, text, *limit)
	if errors.Is(err, workflow.ErrEmptyLibrary) {
		fmt.Fprintf(env.Stdout, "no results downloaded yet (%s)\n", svc.ResultsDir(*dir))
		return nil
	}
	if err != nil {
		return err
	}
	if env.JSON {
		if hits == nil {
			hits = []library.Hit{}
		}
		return json.NewEncoder(env.Stdout).Encode(hits)
	}
	if len(hits) == 0 {
		fmt.Fprintf(env.Stdout, "no result holds %q\n", text)
		return nil
	}
	for _, h := range hits {
		var fields []string
		for _, f := range h.Fields {
			fields = append(fields, f.Name+"="+f.Value)
		}
		fmt.Fprintf(env.Stdout, "%s  row %d  (%s)\n    %s\n", h.Path, h.Row, h.Column, strings.Join(fields, "  "))
	}
	if len(hits) == *limit {
		fmt.Fprintf(env.Stdout, "(first %d hits; --limit for more)\n", *limit)
	}
	return nil
}
