package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
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
	w := csv.NewWriter(bw)
	w.UseCRLF = true
	guarded := make([]string, 0, len(s.Headers()))
	guard := func(rec []string) []string {
		guarded = guarded[:0]
		for _, v := range rec {
			guarded = append(guarded, GuardFormula(v))
		}
		return guarded
	}
	if err := w.Write(guard(s.Headers())); err != nil {
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
		if err := w.Write(guard(rec)); err != nil {
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
	w.Flush()
	if err := w.Error(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	return nil
}
