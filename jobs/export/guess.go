package export

import (
	"errors"
	"io"
	"reflect"

	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
)

// layoutGuess reads a result's rows with the layout its first rows give,
// profiled from them, while the whole file's profile is taken from that
// same reading; its rows stand only when the whole file's profile gives the
// very same layout (confirm): then they were read exactly as the layout
// detected first over the whole file (library.DetectLayout) reads them,
// without reading the file once more before the first row. Otherwise the
// export is made again with that layout.
type layoutGuess struct {
	headers []string
	sample  [][]string
	opts    layout.Options
	guess   *layout.Layout
	pr      *layout.Profiler
	// checked: the whole file was profiled and gives the guess; nothing
	// read with it stands before.
	checked bool
}

// guessLayout reads a result's header and first rows as library.DetectLayout
// does, and the layout they give profiled alone.
func guessLayout(path string, opts layout.Options) (*layoutGuess, error) {
	f, err := input.OpenRegular(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	rr, err := library.NewRowReader(f)
	if err != nil {
		return nil, err
	}
	var sample [][]string
	for len(sample) < library.LayoutSample {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		sample = append(sample, append([]string(nil), rec...))
	}
	hs := rr.Headers()
	first := layout.Detect(hs, sample, opts)
	own := opts
	own.Profile = layout.ProfileOf(len(hs), sample)
	return &layoutGuess{headers: hs, sample: sample, opts: opts, guess: layout.Detect(hs, sample, own),
		pr: layout.NewProfiler(len(hs), first.ProfileColumns())}, nil
}

// add profiles one row of the file, every row in order (library.RowReader's).
func (g *layoutGuess) add(rec []string) {
	if !g.checked {
		g.pr.Add(rec)
	}
}

// confirm, once every row was added, says whether the whole file's profile
// gives the guessed layout; errLayoutGuess when it does not.
func (g *layoutGuess) confirm() error {
	if g.checked {
		return nil
	}
	opts := g.opts
	opts.Profile = g.pr.Profile()
	if !reflect.DeepEqual(layout.Detect(g.headers, g.sample, opts), g.guess) {
		return errLayoutGuess
	}
	g.checked = true
	return nil
}

// errLayoutGuess: the whole file's profile gives another layout than its
// first rows did.
var errLayoutGuess = errors.New("export: the whole file reads in another layout than its first rows")
