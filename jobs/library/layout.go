package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// DetectLayout finds the layout of the result at path from its header and
// first LayoutSample rows, read as the viewer reads them.
func DetectLayout(path string, opts layout.Options) (*layout.Layout, error) {
	f, err := input.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if err != nil {
		return nil, fmt.Errorf("library: %s: %w", path, err)
	}
	sample, err := readSample(rr)
	if err != nil {
		return nil, fmt.Errorf("library: %s: %w", path, err)
	}
	return layout.Detect(rr.Headers(), sample, opts), nil
}

func readSample(rr *RowReader) ([][]string, error) {
	var sample [][]string
	for len(sample) < LayoutSample {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		row := make([]string, len(rec))
		copy(row, rec)
		sample = append(sample, row)
	}
	return sample, nil
}

// ReadLayout detects the layout of the result at path and reads every row
// to count how the values of its flag, match status and type columns read:
// what "skipdesk-cli results layout" shows. ctx cancels the reading.
func ReadLayout(ctx context.Context, path string, opts layout.Options) (layout.Summary, error) {
	l, err := DetectLayout(path, opts)
	if err != nil {
		return layout.Summary{}, err
	}
	f, err := input.OpenRegular(path)
	if err != nil {
		return layout.Summary{}, fmt.Errorf("library: %w", err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if err != nil {
		return layout.Summary{}, fmt.Errorf("library: %s: %w", path, err)
	}
	t := l.NewTally()
	for n := 0; ; n++ {
		if n%8192 == 0 && ctx.Err() != nil {
			return layout.Summary{}, ctx.Err()
		}
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return layout.Summary{}, fmt.Errorf("library: %s: %w", path, err)
		}
		t.Add(rec)
	}
	return t.Summary(), nil
}

// LoadFlags reads DNC results (in any layout) into an index of their
// numbers' flags, each result dated by its job record's completion (else
// the file's modification time): the newest result of a number wins.
func LoadFlags(ctx context.Context, paths ...string) (*layout.FlagIndex, error) {
	x := layout.NewFlagIndex()
	for _, p := range paths {
		if err := addFlags(ctx, x, p); err != nil {
			return nil, err
		}
	}
	return x, nil
}

func addFlags(ctx context.Context, x *layout.FlagIndex, path string) error {
	l, err := DetectLayout(path, layout.Options{})
	if err != nil {
		return err
	}
	if l.Kind != layout.KindDNC {
		return fmt.Errorf("library: %s is not a DNC result (%s): it needs one phone column with DNC or litigator flags", path, describeKind(l))
	}
	src := layout.Source{Name: path}
	if m, err := ReadRecord(RecordPath(path)); err == nil && !m.CompletedAt.IsZero() {
		src.Date = m.CompletedAt
	} else if info, err := os.Stat(path); err == nil {
		src.Date = info.ModTime()
	}
	id := x.AddSource(src, l)
	f, err := input.OpenRegular(path)
	if err != nil {
		return fmt.Errorf("library: %w", err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if err != nil {
		return fmt.Errorf("library: %s: %w", path, err)
	}
	rd := l.NewReader(nil)
	var row layout.Row
	for n := 0; ; n++ {
		if n%8192 == 0 && ctx.Err() != nil {
			return ctx.Err()
		}
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("library: %s: %w", path, err)
		}
		rd.Read(rec, &row)
		x.AddRow(id, &row)
	}
}

func describeKind(l *layout.Layout) string {
	switch l.Kind {
	case layout.KindTrace:
		return "it reads as a trace result"
	case layout.KindInput:
		return "it reads as a list of owners"
	}
	if len(l.Slots) == 0 {
		return "no phone column found"
	}
	return "no flags found"
}
