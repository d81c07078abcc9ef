package export

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
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

// appendCSVRecord appends a record as RFC 4180 CSV ending in CR LF. Unlike
// encoding/csv's writer it keeps every value's bytes: a line break inside
// a value is written as it is (LF, CR LF or a bare CR), where
// encoding/csv turns LF into CR LF and drops a bare CR.
func appendCSVRecord(b []byte, rec []string) []byte {
	if len(rec) == 1 && rec[0] == "" {
		return append(b, '"', '"', '\r', '\n') // not a blank line
	}
	for i, v := range rec {
		if i > 0 {
			b = append(b, ',')
		}
		if !needsQuotes(v) {
			b = append(b, v...)
			continue
		}
		b = append(b, '"')
		for j := 0; j < len(v); j++ {
			if v[j] == '"' {
				b = append(b, '"')
			}
			b = append(b, v[j])
		}
		b = append(b, '"')
	}
	return append(b, '\r', '\n')
}

// needsQuotes: a value holding a comma, a quote or a line break, or starting
// with a space or a tab (which some readers would trim), is quoted.
func needsQuotes(v string) bool {
	if v == "" {
		return false
	}
	if v[0] == ' ' || v[0] == '\t' {
		return true
	}
	return strings.ContainsAny(v, ",\"\r\n")
}
