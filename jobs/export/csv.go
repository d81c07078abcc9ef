package export

import (
	"bufio"
	"context"
	"fmt"
	"io"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// bom makes Excel read a CSV as UTF-8.
const bom = "\ufeff"

// GuardFormula prefixes a value a spreadsheet would take for a formula
// (starting with = + - @, tab or carriage return) with a single quote, as
// OWASP advises against CSV injection.
func GuardFormula(v string) string {
	if formulaLike(v) {
		return "'" + v
	}
	return v
}

func writeCSV(ctx context.Context, s source, out io.Writer, total int, opts Options, rep *Report) error {
	bw := bufio.NewWriterSize(out, 1<<20)
	if _, err := bw.WriteString(bom); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	var line []byte
	guarded := make([]string, 0, len(s.Headers()))
	guard := func(rec []string) []string {
		guarded = guarded[:0]
		for _, v := range rec {
			guarded = append(guarded, GuardFormula(v))
		}
		return guarded
	}
	line = appendCSVRecord(line[:0], guard(s.Headers()))
	if _, err := bw.Write(line); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	for {
		rec, _, err := s.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		line = appendCSVRecord(line[:0], guard(rec))
		if _, err := bw.Write(line); err != nil {
			return fmt.Errorf("export: %w", err)
		}
		rep.Rows++
		if rep.Rows%ctxEvery == 0 {
			if err := cancelled(ctx); err != nil {
				return err
			}
			if opts.Progress != nil && rep.Rows%(16*ctxEvery) == 0 {
				opts.Progress(rep.Rows, max(total, rep.Rows))
			}
		}
	}
	rep.Warnings = append(rep.Warnings, s.Warnings()...)
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// appendCSVRecord appends a record as CSV, keeping the values' bytes (line
// breaks as written).
func appendCSVRecord(b []byte, rec []string) []byte { return input.AppendRecord(b, rec) }
