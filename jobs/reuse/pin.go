package reuse

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
)

// Pin chooses the earlier row each list row reuses (the newest dated from
// on, Unix seconds; an enhanced trace only enhanced results), confirms it
// against the row itself, and writes pins.jsonl in list order.
func (rj *Folder) Pin(ctx context.Context, x *index.Index, rows []Row, e Earlier, from int64, enhanced bool) error {
	type choice struct {
		row int
		e   index.Earlier
	}
	var chosen []choice
	for i, r := range rows {
		if r.Phone != 0 {
			if sc, ok := e.scrubbed[r.Phone]; ok && sc.Date.Unix() >= from {
				chosen = append(chosen, choice{i, sc.Earlier})
			}
			continue
		}
		for _, c := range e.traced[r.Key] {
			if c.Date.Unix() < from {
				break // newest first: the rest are older
			}
			if enhanced && c.Mode != jobs.ModeEnhanced {
				continue
			}
			chosen = append(chosen, choice{i, c})
			break
		}
	}
	rj.reused = make([]bool, len(rows))
	f, err := os.Create(filepath.Join(rj.dir, "pins.jsonl"))
	if err != nil {
		return err
	}
	defer f.Close()
	w := bufio.NewWriterSize(f, 256<<10)
	enc := json.NewEncoder(w)
	headers := map[string]int{}
	sources := map[string]*library.MergeSource{}
	const chunk = 4096
	for start := 0; start < len(chosen); start += chunk {
		part := chosen[start:min(start+chunk, len(chosen))]
		refs := make([]index.Ref, len(part))
		for i, c := range part {
			refs[i] = c.e.Ref
		}
		err := x.Rows(ctx, refs, func(i int, r index.Row) error {
			c := part[i]
			lr := rows[c.row]
			if lr.Key != "" && r.OwnerKey != lr.Key {
				return nil // another owner with the same hash: traced again
			}
			if lr.Phone != 0 && !holdsPhone(r.Cells, lr.Phone) {
				return nil
			}
			hk := strings.Join(r.Header, "\x00")
			h, ok := headers[hk]
			if !ok {
				h = len(headers)
				headers[hk] = h
				if err := enc.Encode(pinLine{Header: r.Header, H: h}); err != nil {
					return err
				}
			}
			job, date := sourceOf(r.Header, r.Cells, c.e)
			if err := enc.Encode(pinLine{H: h, Row: c.row, Job: job, Date: date.UTC().Format(time.DateOnly), File: c.e.File, Cells: r.Cells}); err != nil {
				return err
			}
			rj.reused[c.row] = true
			rj.State.Reused++
			src := sources[job]
			if src == nil {
				src = &library.MergeSource{JobID: job, Name: c.e.JobName, Date: date.UTC()}
				sources[job] = src
			}
			src.Rows++
			return nil
		})
		if errors.Is(err, index.ErrChanged) {
			return fmt.Errorf("a result of the library changed while its rows were read; try again: %w", err)
		}
		if err != nil {
			return err
		}
	}
	for _, src := range sources {
		rj.State.Sources = append(rj.State.Sources, *src)
	}
	slices.SortFunc(rj.State.Sources, func(a, b library.MergeSource) int { return b.Date.Compare(a.Date) })
	if err := w.Flush(); err != nil {
		return err
	}
	return f.Sync()
}

// holdsPhone reports whether a row has the number in one of its cells.
func holdsPhone(cells []string, key uint64) bool {
	for _, c := range cells {
		if phone.Key(c) == key {
			return true
		}
	}
	return false
}
