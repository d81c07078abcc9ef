package main

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// inspect: what a list file holds, before any mapping or cost.

func init() {
	register("inspect", &command{
		usage:   "FILE [--header-line N] [--sheet NAME] [--sample N] [--json]",
		summary: "read a CSV or .xlsx list: encoding, delimiter, header, rows, company rows, blanks, duplicates, Excel damage",
		run:     runInspect,
	})
}

func runInspect(ctx context.Context, env *Env, args []string) error {
	fs := newFlags(env, "inspect", commands["inspect"])
	var opts input.Options
	fs.IntVar(&opts.HeaderLine, "header-line", 0, "the line holding the header (default: detected)")
	fs.StringVar(&opts.Sheet, "sheet", "", "the .xlsx sheet to read (default: the first)")
	sample := fs.Int("sample", 0, "print the first N rows")
	jsonFlag(env, fs)
	pos, err := parseFlags(fs, args)
	if err != nil {
		return err
	}
	if len(pos) != 1 {
		return usageErrorf("inspect takes one FILE")
	}
	if opts.HeaderLine < 0 {
		return usageErrorf("--header-line must be 1 or more")
	}
	if *sample > 0 {
		opts.SampleRows = *sample
	}
	ins, err := input.Inspect(ctx, pos[0], opts)
	if err != nil {
		return err
	}
	if *sample <= 0 && !env.JSON {
		ins.Sample = nil
	}
	// JSON shows the delimiter as text, not as a character code.
	out := struct {
		*input.Inspection
		Delimiter string `json:"delimiter"`
	}{ins, string(ins.Delimiter)}
	return env.Output(out, func(w io.Writer) { printInspection(w, ins, *sample) })
}

func printInspection(w io.Writer, ins *input.Inspection, sample int) {
	printFileFacts(w, ins)

	fmt.Fprintln(w, "\nColumns (blank values):")
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	for i, h := range ins.Headers {
		fmt.Fprintf(tw, "%d\t  %s\t%s\t%s\t\n", i+1, h, num(int64(ins.Blanks[i])), strings.TrimSpace(pct(ins.Blanks[i], ins.Rows)))
	}
	tw.Flush()

	if sample > 0 && len(ins.Sample) > 0 {
		fmt.Fprintln(w, "\nFirst rows:")
		tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, strings.Join(ins.Headers, "\t"))
		for _, row := range ins.Sample {
			cells := make([]string, len(row))
			for i, c := range row {
				cells[i] = strings.NewReplacer("\n", `\n`, "\t", " ").Replace(c)
			}
			fmt.Fprintln(tw, strings.Join(cells, "\t"))
		}
		tw.Flush()
	}

	if len(ins.Warnings) > 0 {
		fmt.Fprintln(w, "\nWarnings:")
		for _, wn := range ins.Warnings {
			fmt.Fprintf(w, "  %s\n", wn)
		}
	}
}

// printFileFacts prints the inspection's table of the file: its format,
// header, rows, company and duplicate rows, Excel's damage, how it is
// uploaded.
func printFileFacts(w io.Writer, ins *input.Inspection) {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "File\t%s (%s)\n", filepath.Base(ins.Path), jobs.Bytes(ins.Size))
	if ins.Format == "xlsx" {
		fmt.Fprintf(tw, "Format\tExcel workbook, sheet %q\n", ins.Sheet)
	} else {
		fmt.Fprintf(tw, "Format\tCSV, %s, fields separated by %s\n", ins.Encoding, input.DelimiterName(ins.Delimiter))
	}
	fmt.Fprintf(tw, "Header\tline %d, %d columns\n", ins.HeaderLine, len(ins.Headers))
	rows := num(int64(ins.Rows))
	if ins.BlankRows > 0 {
		rows += fmt.Sprintf(" (%s blank skipped)", num(int64(ins.BlankRows)))
	}
	fmt.Fprintf(tw, "Rows\t%s\n", rows)
	if len(ins.NameColumns) > 0 {
		fmt.Fprintf(tw, "Company rows\t%s%s, judged by %s\n", num(int64(ins.EntityRows)), pct(ins.EntityRows, ins.Rows), quoteJoin(ins.NameColumns))
	} else {
		fmt.Fprintf(tw, "Company rows\tunknown: no name column found\n")
	}
	fmt.Fprintf(tw, "Duplicate rows\t%s%s\n", num(int64(ins.DuplicateRows)), pct(ins.DuplicateRows, ins.Rows))
	if ins.ShortZips > 0 {
		fmt.Fprintf(tw, "Short zips\t%s (Excel dropped the leading zero)\n", num(int64(ins.ShortZips)))
	}
	if ins.SciNumbers > 0 {
		fmt.Fprintf(tw, "Excel numbers\t%s like 1.23E+10 (digits lost)\n", num(int64(ins.SciNumbers)))
	}
	if ins.RaggedRows > 0 {
		fmt.Fprintf(tw, "Ragged rows\t%s\n", num(int64(ins.RaggedRows)))
	}
	switch {
	case ins.TooLarge:
		fmt.Fprintf(tw, "Upload\ttoo large: the limit is 50 MB\n")
	case ins.NeedsConversion:
		fmt.Fprintf(tw, "Upload\tconverted to plain CSV first: %s\n", strings.Join(ins.ConversionReasons, "; "))
	default:
		fmt.Fprintf(tw, "Upload\tas it is\n")
	}
	tw.Flush()
}

func pct(n, of int) string {
	if of == 0 || n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%.1f%%)", 100*float64(n)/float64(of))
}

func quoteJoin(xs []string) string {
	q := make([]string, len(xs))
	for i, x := range xs {
		q[i] = fmt.Sprintf("%q", x)
	}
	return strings.Join(q, " + ")
}
