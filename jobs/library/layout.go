package library

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
)

// DetectLayout finds the layout of the result at path: from its header and
// first LayoutSample rows which column holds what, then, over the whole
// file, the values of every column that bears on whether a phone may be
// called (layout.Profile), so that each column's convention is the whole
// file's. opts.Corrections gives the person's answers for its header.
func DetectLayout(path string, opts layout.Options) (*layout.Layout, error) {
	return DetectLayoutContext(context.Background(), path, opts)
}

// DetectLayoutContext is DetectLayout, cancelled by ctx.
func DetectLayoutContext(ctx context.Context, path string, opts layout.Options) (*layout.Layout, error) {
	headers, sample, err := readHead(path)
	if err != nil {
		return nil, err
	}
	first := layout.Detect(headers, sample, opts)
	pr := layout.NewProfiler(len(headers), first.ProfileColumns())
	if err := eachRow(ctx, path, func(rec []string) { pr.Add(rec) }); err != nil {
		return nil, err
	}
	opts.Profile = pr.Profile()
	return layout.Detect(headers, sample, opts), nil
}

// readHead reads a result's header and first LayoutSample rows.
func readHead(path string) ([]string, [][]string, error) {
	f, err := input.OpenRegular(path)
	if err != nil {
		return nil, nil, fmt.Errorf("library: %w", err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("library: %s: %w", path, err)
	}
	sample, err := readSample(rr)
	if err != nil {
		return nil, nil, fmt.Errorf("library: %s: %w", path, err)
	}
	return rr.Headers(), sample, nil
}

// eachRow calls fn with every row of the result at path (fn must not keep
// rec).
func eachRow(ctx context.Context, path string, fn func(rec []string)) error {
	_, err := eachRowWarned(ctx, path, fn)
	return err
}

// eachRowWarned is eachRow, also returning the damage met in the file (a
// quoted value never closed).
func eachRowWarned(ctx context.Context, path string, fn func(rec []string)) ([]string, error) {
	f, err := input.OpenRegular(path)
	if err != nil {
		return nil, fmt.Errorf("library: %w", err)
	}
	defer f.Close()
	rr, err := NewRowReader(f)
	if err != nil {
		return nil, fmt.Errorf("library: %s: %w", path, err)
	}
	for n := 0; ; n++ {
		if n%8192 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		rec, err := rr.Next()
		if errors.Is(err, io.EOF) {
			return rr.Warnings(), nil
		}
		if err != nil {
			return nil, fmt.Errorf("library: %s: %w", path, err)
		}
		fn(rec)
	}
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
// to count how the values of the columns that bear on callability read:
// what "skipdesk-cli results layout" shows. ctx cancels the reading.
func ReadLayout(ctx context.Context, path string, opts layout.Options) (layout.Summary, error) {
	l, err := DetectLayoutContext(ctx, path, opts)
	if err != nil {
		return layout.Summary{}, err
	}
	t := l.NewTally()
	if err := eachRow(ctx, path, t.Add); err != nil {
		return layout.Summary{}, err
	}
	return t.Summary(), nil
}

// LoadFlags reads DNC results (in any layout, each read with the person's
// answers for its header: opts.Corrections) into an index of their numbers'
// flags. Each answer is dated by its row when the file says (a scrub date
// column), else by the result's record (ScrubbedAt): never by the file
// system. The questions open about each file's layout come back with it:
// a callable list must not rest on them unanswered.
func LoadFlags(ctx context.Context, opts layout.Options, paths ...string) (*layout.FlagIndex, []layout.FileQuestions, error) {
	x, open, _, err := LoadFlagsWarned(ctx, opts, paths...)
	return x, open, err
}

// LoadFlagsWarned is LoadFlags, also returning the damage met in each file
// (warns[i] for paths[i]) from the same reading.
func LoadFlagsWarned(ctx context.Context, opts layout.Options, paths ...string) (x *layout.FlagIndex, open []layout.FileQuestions, warns [][]string, err error) {
	x = layout.NewFlagIndex()
	for _, p := range paths {
		qs, ws, err := addFlags(ctx, x, p, opts)
		if err != nil {
			return nil, nil, nil, err
		}
		warns = append(warns, ws)
		if len(qs) > 0 {
			open = append(open, layout.FileQuestions{File: p, Questions: qs})
		}
	}
	return x, open, warns, nil
}

func addFlags(ctx context.Context, x *layout.FlagIndex, path string, opts layout.Options) ([]layout.Question, []string, error) {
	l, err := DetectLayoutContext(ctx, path, opts)
	if err != nil {
		return nil, nil, err
	}
	// A DNC result, or a list whose phones the scrub answered in columns of
	// their own (a scrub appended to an owner list reads as a trace).
	if len(l.Slots) == 0 || l.Kind != layout.KindDNC && !(l.Kind == layout.KindTrace && (l.Reports.AnswersRegistry() || l.Reports.AnswersLitigator())) {
		return nil, nil, fmt.Errorf("library: %s is not a DNC result (%s): it needs a phone column with DNC or litigator flags",
			filepath.Base(path), describeKind(l))
	}
	qs := l.Blocking()
	src := layout.Source{Name: path}
	ours := false // a result of the provider's own jobs, not imported
	if m, err := ReadRecord(RecordPath(path)); err == nil {
		src.Date = m.ScrubbedAt()
		ours = !strings.HasPrefix(m.JobID, ImportPrefix)
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now()
	}
	if src.Date.After(now.Add(24 * time.Hour)) {
		qs = append(qs, layout.Question{Topic: "date", Blocks: true,
			Message: fmt.Sprintf("its record dates the scrub %s, in the future: its answers have no scrub date", src.Date.Format(time.DateOnly))})
		src.Date = time.Time{}
	}
	id := x.AddSource(src, l)
	rd := l.NewReader(nil)
	var row layout.Row
	warns, err := eachRowWarned(ctx, path, func(rec []string) {
		rd.Read(rec, &row)
		if !ours {
			for i := range row.Phones {
				row.Phones[i].Flags = row.Phones[i].Flags.Foreign()
			}
		}
		x.AddRow(id, &row)
	})
	return qs, warns, err
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
	for _, q := range l.Questions {
		if q.Topic == "flag" || q.Topic == "marks" {
			return "its flag columns could not be read: " + q.Message
		}
	}
	return "no column of DNC or litigator answers found"
}
