package mapping

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/skipdesk/skipdesk/jobs"
)

// Preset is a mapping the user saved under a name, found again when a file
// with the same header signature comes back.
type Preset struct {
	Name        string    `json:"name"`
	Signature   string    `json:"signature"` // Signature of the headers it was saved for
	Kind        jobs.Kind `json:"kind"`
	Mapping     Mapping   `json:"mapping"`
	Mode        jobs.Mode `json:"mode,omitempty"`
	IncludeLLCs bool      `json:"include_llcs,omitempty"`
}

// PresetStore keeps presets. The job ledger implements it; NewFileStore is a
// JSON file for use without the ledger.
type PresetStore interface {
	// SavePreset adds a preset or replaces the one with the same name (the
	// saved one then counts as the most recent).
	SavePreset(Preset) error
	// Presets returns every preset, oldest saved first.
	Presets() ([]Preset, error)
	// DeletePreset removes a preset; deleting a missing name is not an error.
	DeletePreset(name string) error
}

// Signature identifies a set of headers whatever their order, case, spacing
// or punctuation: "v1:" and the hex SHA-256 of the sorted compact headers.
func Signature(headers []string) string {
	norm := make([]string, 0, len(headers))
	for _, h := range headers {
		norm = append(norm, compact(h))
	}
	sort.Strings(norm)
	sum := sha256.Sum256([]byte(strings.Join(norm, "\x1f")))
	return "v1:" + hex.EncodeToString(sum[:16])
}

// MatchPreset returns the preset saved for files with these headers (of the
// given kind; "" matches any kind), or nil when there is none. When several
// match, the most recently saved one (last in the store's order) wins. The
// returned preset's mapping names the headers as this file spells them (the
// signature ignores case and punctuation).
func MatchPreset(store PresetStore, headers []string, kind jobs.Kind) (*Preset, error) {
	ps, err := store.Presets()
	if err != nil {
		return nil, err
	}
	sig := Signature(headers)
	for i := len(ps) - 1; i >= 0; i-- {
		p := ps[i]
		if p.Signature != sig || (kind != "" && p.Kind != "" && p.Kind != kind) {
			continue
		}
		m, ok := respell(p.Mapping, headers)
		if ok {
			p.Mapping = m
			return &p, nil
		}
	}
	return nil, nil
}

// respell maps each mapped header to the header of this file it names,
// exactly or ignoring case and punctuation.
func respell(m Mapping, headers []string) (Mapping, bool) {
	out := make(Mapping, len(m))
	for k, h := range m {
		if h == "" {
			continue
		}
		found := ""
		for _, x := range headers {
			if x == h {
				found = x
				break
			}
		}
		if found == "" {
			found = looseHeader(h, headers)
		}
		if found == "" {
			return nil, false
		}
		out[k] = found
	}
	return out, true
}

// NewPreset makes a preset for a file's headers.
func NewPreset(name string, headers []string, kind jobs.Kind, m Mapping, mode jobs.Mode, includeLLCs bool) Preset {
	return Preset{Name: name, Signature: Signature(headers), Kind: kind, Mapping: m.Clean(), Mode: mode, IncludeLLCs: includeLLCs}
}

// FileStore is a PresetStore in one JSON file, rewritten atomically (temp
// file, fsync, rename) on every change. Safe for concurrent use within one
// process.
type FileStore struct {
	path string
	mu   sync.Mutex
}

// NewFileStore uses the JSON file at path; it need not exist yet.
func NewFileStore(path string) *FileStore { return &FileStore{path: path} }

type presetFile struct {
	Presets []Preset `json:"presets"`
}

func (s *FileStore) load() ([]Preset, error) {
	b, err := os.ReadFile(s.path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("mapping presets: %w", err)
	}
	var f presetFile
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("mapping presets: %s is not a preset file: %v", s.path, err)
	}
	return f.Presets, nil
}

func (s *FileStore) store(ps []Preset) error {
	b, err := json.MarshalIndent(presetFile{Presets: ps}, "", "  ")
	if err != nil {
		return err
	}
	dir := filepath.Dir(s.path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("mapping presets: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".presets-*.tmp")
	if err != nil {
		return fmt.Errorf("mapping presets: %w", err)
	}
	_, werr := tmp.Write(append(b, '\n'))
	if werr == nil {
		werr = tmp.Sync()
	}
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), s.path)
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("mapping presets: writing %s: %w", s.path, werr)
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// SavePreset implements PresetStore.
func (s *FileStore) SavePreset(p Preset) error {
	if strings.TrimSpace(p.Name) == "" {
		return errors.New("mapping presets: a preset needs a name")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := s.load()
	if err != nil {
		return err
	}
	p.Mapping = p.Mapping.Clean()
	for i := range ps {
		if ps[i].Name == p.Name {
			// Re-saving moves it last: it is now the most recent.
			ps = append(ps[:i], ps[i+1:]...)
			break
		}
	}
	return s.store(append(ps, p))
}

// Presets implements PresetStore.
func (s *FileStore) Presets() ([]Preset, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.load()
}

// DeletePreset implements PresetStore.
func (s *FileStore) DeletePreset(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	ps, err := s.load()
	if err != nil {
		return err
	}
	for i := range ps {
		if ps[i].Name == name {
			return s.store(append(ps[:i], ps[i+1:]...))
		}
	}
	return nil
}
