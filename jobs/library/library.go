// Package library keeps downloaded results on the user's disk: one CSV per
// job, named so the user recognises it (job name, date, end of the job id),
// with a job record beside it ("<name>.job.json"). Everything needed to open,
// search and export a result offline is in the folder.
//
// The result reader (OpenResult) keeps an index of row offsets rather than
// importing the file into SQLite: on a 400k-row, 75 MB result the index is
// built and the first page shown in 0.03-0.11 s holding 3.5 MB, where the
// SQLite import took 5.5 s and allocated 1.1 GB before the first page could
// show (BenchmarkOpenResult400k, BenchmarkSQLiteImport400k). Sorting and
// filtering read the file once more (0.4-0.8 s at that size).
package library

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/skipdesk/skipdesk/client"
	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
)

// RecordSuffix ends the name of a job record beside its result.
const RecordSuffix = ".job.json"

// Meta is the job record kept beside a result.
type Meta struct {
	JobID           string            `json:"job_id"`
	Kind            jobs.Kind         `json:"kind"` // trace or dnc
	Name            string            `json:"name"`
	Mode            jobs.Mode         `json:"mode,omitempty"`
	Status          jobs.Status       `json:"status,omitempty"`
	IncludeLLCs     bool              `json:"include_llcs,omitempty"`
	TotalRows       int               `json:"total_rows"`
	EntityRows      int               `json:"entity_rows,omitempty"`
	MatchCount      int               `json:"match_count"`
	NoMatchCount    int               `json:"no_match_count"`
	ErrorCount      int               `json:"error_count"`
	Rate            int64             `json:"rate,omitempty"`
	CreditsCharged  int64             `json:"credits_charged"`
	CreditsRefunded int64             `json:"credits_refunded"`
	CreatedAt       time.Time         `json:"created_at"`
	CompletedAt     time.Time         `json:"completed_at"`
	Breakdown       *client.Breakdown `json:"breakdown,omitempty"`
	SourceFile      string            `json:"source_file,omitempty"`
	ParentTraceID   string            `json:"parent_trace_id,omitempty"` // a DNC scrub of a trace's phones
	// Mapping is the column mapping the job's upload was sent with (the
	// service's keys to the upload's headers), when known.
	Mapping map[string]string `json:"mapping,omitempty"`
	// Merged is set on a result made of a new job's rows and earlier
	// results' rows (see Merged).
	Merged *Merged `json:"merged,omitempty"`
	// Scrubbed is when an imported result's answers were scrubbed, as the
	// person gave it when importing it (its file does not say): with who
	// and when. Nil when not given.
	Scrubbed *GivenDate `json:"scrubbed,omitempty"`
}

// GivenDate is a date a person gave, with who gave it and when.
type GivenDate struct {
	Date time.Time `json:"date"`
	By   string    `json:"by"`
	At   time.Time `json:"at"`
}

// ImportPrefix begins the job id of a result imported from elsewhere.
const ImportPrefix = "imp_"

// Imported reports a result made elsewhere and imported.
func (m Meta) Imported() bool { return strings.HasPrefix(m.JobID, ImportPrefix) }

// ScrubbedAt is when the result's own answers were scrubbed: the date the
// person gave (an import), else its job's completion (never an import's
// file date); zero when not known.
func (m Meta) ScrubbedAt() time.Time {
	switch {
	case m.Scrubbed != nil:
		return m.Scrubbed.Date
	case m.Imported():
		return time.Time{}
	}
	return m.CompletedAt
}

// Net is what the job cost: credits charged minus credits refunded.
func (m Meta) Net() int64 { return m.CreditsCharged - m.CreditsRefunded }

// Library is a folder of results.
type Library struct {
	dir string
}

// Open opens the library in dir, creating the folder when missing.
func Open(dir string) (*Library, error) {
	if dir == "" {
		return nil, errors.New("library: no folder given")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("library: create folder: %w", err)
	}
	return &Library{dir: dir}, nil
}

// Dir is the library's folder.
func (l *Library) Dir() string { return l.dir }

// Writable checks that a result can be written into the folder, by
// creating and removing a small hidden file: worth knowing before paying
// for a job whose result is to be saved there.
func (l *Library) Writable() error {
	f, err := os.CreateTemp(l.dir, ".write-check.*.tmp")
	if err == nil {
		_, err = f.Write([]byte("ok"))
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		os.Remove(f.Name())
	}
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("library: results cannot be saved in %s: %w", l.dir, err)
	}
	return nil
}

// maxNameBytes caps the job-name part of a file name so that the whole name
// (name, date, id, ".job.json") stays far below every file system's 255-byte
// limit, and paths stay short enough for Windows.
const maxNameBytes = 80

// PathFor is where the result of the job goes:
// "<dir>/<job name without .csv> <YYYY-MM-DD> <last 6 of job id>.csv". The
// name is made safe for Windows, macOS and Linux; the date is CreatedAt in
// UTC (so the name does not change with the time zone). The path is stable
// for a job id: when another job already holds the short name (same name,
// date and id ending), the whole id is used instead.
func (l *Library) PathFor(m Meta) string {
	base := SanitizeName(trimExt(m.Name))
	if base == "" {
		base = "result"
		if m.Kind == jobs.KindDNC {
			base = "dnc"
		}
	}
	if !m.CreatedAt.IsZero() {
		base += " " + m.CreatedAt.UTC().Format("2006-01-02")
	}
	id := SanitizeName(m.JobID)
	short := id
	if n := len(short); n > 6 {
		short = short[n-6:]
	}
	if short != "" {
		p := filepath.Join(l.dir, base+" "+short+".csv")
		if short == id || !l.heldByOther(p, m.JobID) {
			return p
		}
		return filepath.Join(l.dir, base+" "+id+".csv")
	}
	return filepath.Join(l.dir, base+".csv")
}

// heldByOther reports whether the job record at path names another job.
func (l *Library) heldByOther(path, jobID string) bool {
	meta, err := ReadRecord(RecordPath(path))
	return err == nil && meta.JobID != "" && meta.JobID != jobID
}

func trimExt(name string) string {
	for _, ext := range []string{".csv", ".xlsx", ".xls", ".txt", ".tsv"} {
		if len(name) > len(ext) && strings.EqualFold(name[len(name)-len(ext):], ext) {
			return name[:len(name)-len(ext)]
		}
	}
	return name
}

// reservedWindows are the device names Windows will not use as a file name,
// with or without an extension ("con.csv"): Microsoft's list (COM0 and LPT0
// included, and the superscript digits ¹ ² ³ Windows reads as numbers), plus
// the console names CONIN$ and CONOUT$ that Go's own check also refuses.
var reservedWindows = map[string]bool{
	"CON": true, "PRN": true, "AUX": true, "NUL": true, "CONIN$": true, "CONOUT$": true,
	"COM0": true, "COM1": true, "COM2": true, "COM3": true, "COM4": true, "COM5": true, "COM6": true, "COM7": true, "COM8": true, "COM9": true,
	"LPT0": true, "LPT1": true, "LPT2": true, "LPT3": true, "LPT4": true, "LPT5": true, "LPT6": true, "LPT7": true, "LPT8": true, "LPT9": true,
	"COM\u00b9": true, "COM\u00b2": true, "COM\u00b3": true, "LPT\u00b9": true, "LPT\u00b2": true, "LPT\u00b3": true,
}

// SanitizeName makes s usable as part of a file name on Windows, macOS and
// Linux: path separators, the characters Windows forbids (: * ? " < > |) and
// control characters become "_", runs of spaces collapse, leading dots and
// trailing dots or spaces go, reserved device names (CON, NUL, COM1...) get a
// "_" prefix, and the result is cut to 80 bytes on a character boundary.
func SanitizeName(s string) string {
	var b strings.Builder
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\t' || r == '\u00a0':
			if space {
				continue
			}
			r = ' '
		case r == utf8.RuneError, r < 0x20, r == 0x7f:
			r = '_'
		case strings.ContainsRune(`/\:*?"<>|`, r):
			r = '_'
		}
		space = r == ' '
		b.WriteRune(r)
	}
	out := strings.TrimLeft(strings.TrimSpace(b.String()), ".")
	if len(out) > maxNameBytes {
		cut := maxNameBytes
		for cut > 0 && !utf8.RuneStart(out[cut]) {
			cut--
		}
		out = out[:cut]
	}
	out = strings.TrimRight(out, ". ")
	stem := out
	if i := strings.IndexByte(stem, '.'); i >= 0 {
		stem = stem[:i]
	}
	if reservedWindows[strings.ToUpper(strings.TrimSpace(stem))] {
		out = "_" + out
	}
	return out
}

// RecordPath is the job record's path for a result path.
func RecordPath(resultPath string) string {
	return strings.TrimSuffix(resultPath, filepath.Ext(resultPath)) + RecordSuffix
}

// Record writes the job record of the result at path, atomically: a
// temporary file in the same folder, fsync, rename, fsync of the folder.
func (l *Library) Record(m Meta, path string) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return fmt.Errorf("library: job record of %s: %w", m.JobID, err)
	}
	return WriteFileAtomic(RecordPath(path), append(data, '\n'))
}

// maxRecordFile bounds a job record's file (a few KB when SkipDesk wrote
// it, a merged result's listing its sources included).
const maxRecordFile = 16 << 20

// ReadRecord reads a job record: an ordinary file of at most maxRecordFile
// bytes.
func ReadRecord(recordPath string) (Meta, error) {
	var m Meta
	f, err := input.OpenRegular(recordPath)
	if err != nil {
		return m, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxRecordFile+1))
	if err != nil {
		return m, err
	}
	if len(data) > maxRecordFile {
		return m, fmt.Errorf("library: job record %s: larger than %d MB: not a job record", recordPath, maxRecordFile>>20)
	}
	if err := json.Unmarshal(data, &m); err != nil {
		return m, fmt.Errorf("library: job record %s: %w", recordPath, err)
	}
	return m, nil
}

// WriteFileAtomic replaces path with data so that a reader (or a crash)
// sees either the old file or the whole new one.
func WriteFileAtomic(path string, data []byte) error {
	return WriteAtomic(path, func(w *bufio.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteAtomic replaces path with what write writes, through a temporary
// file in its folder, synced and renamed: a reader (or a crash) sees
// either the old file or the whole new one, never a half-written file
// under the final name.
func WriteAtomic(path string, write func(w *bufio.Writer) error) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("library: write %s: %w", path, err)
	}
	tmp := f.Name()
	w := bufio.NewWriterSize(f, 256<<10)
	err = write(w)
	if err == nil {
		err = w.Flush()
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("library: write %s: %w", path, err)
	}
	SyncDir(filepath.Dir(path))
	return nil
}

// SyncDir flushes a folder's entries (a rename) to disk where the system
// allows it; errors are ignored (Windows cannot open a folder for sync).
func SyncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		_ = d.Sync()
		d.Close()
	}
}

// Entry is one result in the library.
type Entry struct {
	Path      string
	Meta      Meta
	HasRecord bool // false: Meta was guessed from the file name
	Size      int64
	ModTime   time.Time
}

// List returns every result in the library, newest first. A result without a
// job record is listed with what its file name tells (name, date, id ending).
func (l *Library) List() ([]Entry, error) {
	des, err := os.ReadDir(l.dir)
	if err != nil {
		return nil, fmt.Errorf("library: list %s: %w", l.dir, err)
	}
	var out []Entry
	for _, de := range des {
		name := de.Name()
		if strings.HasPrefix(name, ".") || !strings.EqualFold(filepath.Ext(name), ".csv") || !input.Regular(l.dir, de) {
			continue // a folder, a named pipe, a device: never opened
		}
		info, err := de.Info()
		if err != nil {
			continue // removed meanwhile
		}
		e := Entry{Path: filepath.Join(l.dir, name), Size: info.Size(), ModTime: info.ModTime()}
		if m, err := ReadRecord(RecordPath(e.Path)); err == nil {
			e.Meta, e.HasRecord = m, true
		} else {
			e.Meta = metaFromFileName(name)
			e.Meta.Kind = sniffKind(e.Path)
		}
		out = append(out, e)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		ta, tb := a.Meta.CreatedAt, b.Meta.CreatedAt
		if ta.IsZero() {
			ta = a.ModTime
		}
		if tb.IsZero() {
			tb = b.ModTime
		}
		if !ta.Equal(tb) {
			return ta.After(tb)
		}
		return a.Path < b.Path
	})
	return out, nil
}

// metaFromFileName reads "<name> <YYYY-MM-DD> <id end>.csv" back; any other
// name becomes the job name as is.
func metaFromFileName(file string) Meta {
	stem := strings.TrimSuffix(file, filepath.Ext(file))
	m := Meta{Name: stem}
	parts := strings.Split(stem, " ")
	if n := len(parts); n >= 3 {
		if t, err := time.Parse("2006-01-02", parts[n-2]); err == nil {
			m.Name = strings.Join(parts[:n-2], " ")
			m.CreatedAt = t
			m.JobID = parts[n-1]
		}
	}
	return m
}
