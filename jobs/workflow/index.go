package workflow

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/index"
	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
	"github.com/skipdesk/skipdesk/jobs/submit"
)

// The library index: every result of a library folder indexed in SQLite
// (jobs/index), kept up to date as results arrive — downloaded, merged, or
// copied into the folder by hand — and read by the search, by the "traced
// before" count of a quote and by the reuse of scrubbed phones.

// IndexProgress is how far indexing the library is (EventIndex).
type IndexProgress struct {
	Files, FilesDone int
	Bytes, BytesDone int64
	Current          string // the result being read
	Done             bool   // this round of indexing is over (Err says how)
	// Rebuilt says why the index was found damaged and made anew.
	Rebuilt string
	Err     error
}

// Step says how far a round of indexing is, for a person: "3 of 20
// results (40%)" (the result being read, counted from one).
func (p IndexProgress) Step() string {
	pct := int64(100)
	if p.Bytes > 0 {
		pct = p.BytesDone * 100 / p.Bytes
	}
	return fmt.Sprintf("%d of %s (%d%%)", min(p.FilesDone+1, p.Files), jobs.Plural(int64(p.Files), "result", "results"), pct)
}

// Checking says that a price waits for this round: "checking the library
// for what was done before: indexing 3 of 20 results (40%)" (the window
// and the command line).
func (p IndexProgress) Checking() string {
	return "checking the library for what was done before: indexing " + p.Step()
}

// Running reports whether p is of a round still reading results.
func (p IndexProgress) Running() bool { return !p.Done && p.Err == nil && p.Files > 0 }

// IndexReport says what bringing the index up to date changed.
type IndexReport struct {
	Indexed, Removed int
	Unreadable       []string
	Rebuilt          string
}

// libIndex is the index of one library folder.
type libIndex struct {
	dir, path string

	mu sync.Mutex
	x  *index.Index
	// team is the team's database x is kept in (nil: the SQLite file
	// path).
	team   *sqldb.DB
	queued bool // a background round waits to start
	// ctx ends the background rounds when the Service closes.
	ctx  context.Context
	stop context.CancelFunc
}

// indexPath is where the index of a library folder lives: beside the
// ledger for the configured library (and the sandbox's), else a hidden
// file inside the folder.
func (s *core) indexPath(dir string) string {
	home := s.cfg.Home
	switch filepath.Clean(dir) {
	case filepath.Clean(s.cfg.ResultsDir()):
		return filepath.Join(home, "index.db")
	case filepath.Join(home, "sandbox", "results"):
		return filepath.Join(home, "sandbox", "index.db")
	}
	return filepath.Join(dir, ".skipdesk-index.db")
}

// libIndexFor is the index of dir (opened on first use).
func (s *core) libIndexFor(dir string) *libIndex {
	dir = filepath.Clean(dir)
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.indexes == nil {
		s.indexes = map[string]*libIndex{}
	}
	li := s.indexes[dir]
	if li == nil {
		li = &libIndex{dir: dir, path: s.indexPath(dir)}
		li.ctx, li.stop = context.WithCancel(context.Background())
		s.indexes[dir] = li
	}
	return li
}

// teamIndex is where the index of the library folder dir is kept in a
// team: the team's database and this computer's place in it, while the
// session's ledger is the team's and dir is its library folder (nil
// otherwise: the index is this computer's SQLite file). While the team's
// database is away the folder's own SQLite index answers.
func (s *core) teamIndex(dir string) (*sqldb.DB, string) {
	if !s.team().Sharing() {
		return nil, ""
	}
	sess, err := s.current()
	if err != nil || sess.info.Sandbox || sess.lib == nil || filepath.Clean(sess.lib.Dir()) != filepath.Clean(dir) {
		return nil, ""
	}
	sess.mu.Lock()
	team, opened, away := sess.team, sess.led != nil, sess.away != nil
	sess.mu.Unlock()
	if !opened && !away {
		// The ledger is opened on first need (a command line's session);
		// while the database is known to be away, it is not waited for.
		if _, err := s.books(); err != nil {
			return nil, ""
		}
		sess.mu.Lock()
		team = sess.team
		sess.mu.Unlock()
	}
	place := s.sessions().Settings().ComputerID
	if team == nil || place == "" {
		return nil, ""
	}
	return team, place
}

// open opens the index, once for where it is kept (team, or the SQLite
// file); a failure is tried again next time. An index kept elsewhere than
// team now (sharing turned on or off, the database closed) is closed and
// the right one opened.
func (li *libIndex) open(ctx context.Context, team *sqldb.DB, place string) (*index.Index, error) {
	li.mu.Lock()
	defer li.mu.Unlock()
	if li.x != nil && li.team == team {
		return li.x, nil
	}
	if li.x != nil {
		li.x.Close()
		li.x, li.team = nil, nil
	}
	if team != nil {
		x, err := index.OpenShared(ctx, team, place, li.dir)
		if err != nil {
			return nil, fmt.Errorf("the library index in the team's database: %w", err)
		}
		li.x, li.team = x, team
		return x, nil
	}
	x, err := index.Open(li.path, li.dir)
	if err != nil {
		return nil, fmt.Errorf("the library index %s: %w", li.path, err)
	}
	li.x = x
	return x, nil
}

// openIndex is dir's index as it is, without bringing it up to date.
func (s *core) openIndex(ctx context.Context, dir string) (*index.Index, error) {
	team, place := s.teamIndex(dir)
	return s.libIndexFor(dir).open(ctx, team, place)
}

// stopIndexes ends every background round of indexing at its next row
// (what was indexed stays; the rest is read at the next Sync).
func (s *core) stopIndexes() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, li := range s.indexes {
		li.stop()
	}
}

// closeIndexes closes every open index (Service.Close).
func (s *core) closeIndexes() {
	s.mu.Lock()
	s.closed = true
	list := s.indexes
	s.indexes = nil
	s.mu.Unlock()
	for _, li := range list {
		li.stop() // a background round stops at its next row
	}
	s.background.Wait()
	for _, li := range list {
		li.mu.Lock()
		if li.x != nil {
			li.x.Close()
			li.x, li.team = nil, nil
		}
		li.mu.Unlock()
	}
}

// syncedIndex is dir's index brought up to date with the folder, with the
// progress reported as events.
func (s *core) syncedIndex(ctx context.Context, dir string, progress func(IndexProgress)) (*index.Index, IndexReport, error) {
	// Whoever asked, the reading stops when the Service closes.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	defer context.AfterFunc(s.libIndexFor(dir).ctx, cancel)()
	x, err := s.openIndex(ctx, dir)
	if err != nil {
		return nil, IndexReport{}, err
	}
	x.SetCorrections(s.layoutOptions().Corrections)
	emit := s.indexProgress(progress)
	rep, err := x.Sync(ctx, func(p index.Progress) {
		emit(IndexProgress{Files: p.Files, FilesDone: p.FilesDone, Bytes: p.Bytes, BytesDone: p.BytesDone, Current: p.Current})
	})
	out := IndexReport{Indexed: rep.Indexed, Removed: rep.Removed, Unreadable: rep.Unreadable, Rebuilt: rep.Rebuilt}
	if rep.Changed() || err != nil || rep.Rebuilt != "" {
		emit(IndexProgress{Done: true, Rebuilt: rep.Rebuilt, Err: err})
	}
	if err != nil {
		return x, out, fmt.Errorf("indexing the library: %w", err)
	}
	return x, out, nil
}

// indexBehind reports whether dir's index has results of the folder to
// read (or forget, or is to be rebuilt), without reading anything into it
// (index.Index.Current); false when it cannot tell: syncedIndex then says
// why.
func (s *core) indexBehind(ctx context.Context, dir string) bool {
	x, err := s.openIndex(ctx, dir)
	if err != nil {
		return false
	}
	current, err := x.Current(ctx, s.layoutOptions().Corrections)
	return err == nil && !current
}

// indexProgress is a progress callback that also emits EventIndex events,
// at most five a second (and always the last).
func (s *core) indexProgress(also func(IndexProgress)) func(IndexProgress) {
	var last time.Time
	return func(p IndexProgress) {
		if also != nil {
			also(p)
		}
		if now := time.Now(); p.Done || p.FilesDone == p.Files || now.Sub(last) >= 200*time.Millisecond {
			last = now
			pp := p
			s.emit(Event{Kind: EventIndex, Index: &pp, Done: p.BytesDone, Total: p.Bytes})
		}
	}
}

// IndexLibrary brings the index of the library folder dir ("" the
// configured one, or the session's) up to date now: results new or changed
// since are read, removed ones forgotten. progress, when set, follows it.
func (s *LibraryService) IndexLibrary(ctx context.Context, dir string, progress func(IndexProgress)) (IndexReport, error) {
	if dir == "" {
		lib, err := s.library()
		if err != nil {
			return IndexReport{}, err
		}
		dir = lib.Dir()
	}
	_, rep, err := s.syncedIndex(ctx, dir, progress)
	return rep, err
}

// indexInBackground brings dir's index up to date off the caller's
// goroutine (the window's start, a download). A round already waiting to
// start covers this call.
func (s *core) indexInBackground(dir string) {
	s.mu.Lock()
	closed := s.closed
	if !closed {
		s.background.Add(1)
	}
	s.mu.Unlock()
	if closed {
		return
	}
	li := s.libIndexFor(dir)
	li.mu.Lock()
	if li.queued {
		li.mu.Unlock()
		s.background.Done()
		return
	}
	li.queued = true
	li.mu.Unlock()
	go func() {
		defer s.background.Done()
		li.mu.Lock()
		li.queued = false
		li.mu.Unlock()
		_, _, _ = s.syncedIndex(li.ctx, dir, nil)
	}()
}

// searchHits is how many rows a library search lists.
const searchHits = 200

// searchIndexed finds the rows holding q in the library dir through its
// index; ok is false when the index cannot be used (the caller then reads
// the files).
func (s *core) searchIndexed(ctx context.Context, dir, q string, limit int) (hits []library.Hit, ok bool, err error) {
	x, _, err := s.syncedIndex(ctx, dir, nil)
	if x == nil {
		return nil, false, nil
	}
	if err != nil && ctx.Err() != nil {
		return nil, true, ctx.Err()
	}
	hits, err = x.Search(ctx, q, limit)
	switch {
	case errors.Is(err, index.ErrNothingToFind):
		return nil, true, errors.New("library: search: nothing to look for")
	case errors.Is(err, index.ErrDamaged), errors.Is(err, index.ErrChanged), errors.Is(err, ErrTeamUnreachable):
		// Rebuilt or read again by the next Sync, or the team's database
		// away: the files of this computer answer now.
		return nil, false, nil
	}
	return hits, true, err
}

// searchLibrary is SearchLibrary with a query: one item per row found,
// newest result first, through the index.
func (s *core) searchLibrary(ctx context.Context, lib *library.Library, q string) ([]LibraryItem, bool, error) {
	hits, ok, err := s.searchIndexed(ctx, lib.Dir(), q, searchHits)
	if !ok || err != nil {
		return nil, ok, err
	}
	entries, err := lib.List()
	if err != nil {
		return nil, true, err
	}
	byPath := map[string]library.Entry{}
	for _, e := range entries {
		byPath[e.Path] = e
	}
	// A teammate's result downloaded here too is found twice: the copy
	// here is shown.
	type jobRow struct {
		job string
		row int
	}
	here := map[jobRow]bool{}
	for _, h := range hits {
		if h.Path != "" && h.JobID != "" {
			here[jobRow{h.JobID, h.Row}] = true
		}
	}
	tm := s.teammates()
	out := []LibraryItem{}
	for _, h := range hits {
		if h.Path == "" {
			if !here[jobRow{h.JobID, h.Row}] {
				out = append(out, tm.item(ctx, h))
			}
			continue
		}
		out = append(out, hitItem(byPath[h.Path], h))
	}
	return out, true, nil
}

// hitItem is a hit in a result of this library (e, its entry; zero when
// the library does not list it): the result, named by its job where the
// entry names it by its file, at the hit's row and column.
func hitItem(e library.Entry, h library.Hit) LibraryItem {
	it := itemOf(e)
	if it.Path == "" {
		it.Path = h.Path
	}
	if (it.Name == "" || it.Name == filepath.Base(h.Path)) && h.JobName != "" {
		it.Name = submit.PlainName(h.JobName)
	}
	if it.JobID == "" {
		it.JobID = h.JobID
	}
	it.Row, it.Column = h.Row, h.Column
	it.Hits = []string{hitText(h)}
	return it
}

// teammates describes the hits of one search that are in teammates'
// results: each job and each computer is looked up in the ledger once per
// search, however many of its rows were found.
type teammates struct {
	led   *ledger.Ledger // nil: no ledger open, the hits stay unnamed
	names map[string]string
	jobs  map[string]*ledger.Job
}

func (s *core) teammates() *teammates {
	tm := &teammates{names: map[string]string{}, jobs: map[string]*ledger.Job{}}
	if sess, err := s.books(); err == nil {
		sess.mu.Lock()
		tm.led = sess.led
		sess.mu.Unlock()
	}
	return tm
}

// job is the ledger's record of id (nil when unknown).
func (tm *teammates) job(ctx context.Context, id string) *ledger.Job {
	if j, ok := tm.jobs[id]; ok || tm.led == nil || id == "" {
		return j
	}
	j, _ := tm.led.Jobs().Job(ctx, id)
	tm.jobs[id] = j
	return j
}

// name is the computer whose library holds h, by its place ("another
// computer" when the team's records no longer name it). Never the computer
// that submitted its job: a result is in the library of whoever downloaded
// it, and a computer whose name is not known submitted nothing.
func (tm *teammates) name(ctx context.Context, h library.Hit) string {
	key := h.Place
	if n, ok := tm.names[key]; ok {
		return n
	}
	n := "another computer"
	if tm.led != nil {
		if name, err := tm.led.Team().ComputerName(ctx, h.Place); err == nil && name != "" {
			n = name
		}
	}
	tm.names[key] = n
	return n
}

// item is a search hit in a teammate's result: its job, the row, and the
// computer whose library holds it.
func (tm *teammates) item(ctx context.Context, h library.Hit) LibraryItem {
	it := LibraryItem{JobID: h.JobID, Name: submit.PlainName(h.JobName), Kind: jobs.KindTrace, Row: h.Row, Column: h.Column, Teammate: tm.name(ctx, h)}
	if it.Name == "" {
		it.Name = h.JobID
	}
	if j := tm.job(ctx, h.JobID); j != nil {
		it.Kind, it.Rows, it.CreatedAt = j.Kind, j.TotalRows, j.CreatedAt
	}
	it.Hits = []string{fmt.Sprintf("row %d, in %s's library", h.Row, it.Teammate)}
	switch {
	case h.JobID == "":
		it.Hits[0] += " (made from earlier results only: no job to download it from)"
	case h.Merged:
		// The job's download holds its own rows, not the merged file's.
		it.merged = true
		it.Hits[0] += " (a merged result: its job's own rows can be downloaded)"
	}
	return it
}

// FetchResult brings the result of a search hit in a teammate's library
// here: downloaded from the provider once (reading a completed job's result
// costs nothing) and kept in this computer's library. The item comes back
// with its path; one already here is returned as it is.
func (s *LibraryService) FetchResult(ctx context.Context, it LibraryItem, progress func(done, total int64)) (LibraryItem, error) {
	if it.Path != "" {
		return it, nil
	}
	if it.JobID == "" {
		return it, fmt.Errorf("%s is in %s's library and was made from earlier results only, with no job of its own to download it from: ask them for the file", it.Name, it.Teammate)
	}
	sess, err := s.books()
	if err != nil {
		return it, err
	}
	dl, err := sess.trk.Fetch(ctx, it.Kind, it.JobID, progress)
	if err != nil {
		return it, fmt.Errorf("downloading %s (in %s's library): %w", it.Name, it.Teammate, err)
	}
	// The tracker's download event takes the result into the index.
	it.Path, it.Teammate, it.Hits = dl.Path, "", nil
	if it.merged {
		it.Row = 0 // the row found is the merged file's: the download opens at its top
	}
	return it, nil
}

// itemOf is a library entry as the library list shows it.
func itemOf(e library.Entry) LibraryItem {
	kind := jobs.KindTrace
	if e.Meta.Kind == jobs.KindDNC {
		kind = jobs.KindDNC
	}
	name := submit.PlainName(e.Meta.Name) // records written before names lost their tag
	if name == "" {
		name = submit.PlainName(filepath.Base(e.Path))
	}
	if e.Path == "" {
		name = ""
	}
	return LibraryItem{Path: e.Path, JobID: e.Meta.JobID, Kind: kind, Name: name, Rows: e.Meta.TotalRows,
		CreatedAt: e.Meta.CreatedAt, Size: e.Size}
}

// searchRowsIndexed is SearchRows through the index of dir; ok false when
// the index cannot be used.
func (s *core) searchRowsIndexed(ctx context.Context, dir, q string, limit int) ([]library.Hit, bool, error) {
	if strings.TrimSpace(q) == "" {
		return nil, true, errors.New("library: search: nothing to look for")
	}
	if _, err := os.Stat(dir); err != nil {
		return nil, false, nil
	}
	return s.searchIndexed(ctx, dir, q, limit)
}
