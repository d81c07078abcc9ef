package mapping

import (
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// memStore is an in-memory PresetStore.
type memStore struct {
	mu sync.Mutex
	ps []Preset
}

func (s *memStore) SavePreset(p Preset) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.ps {
		if s.ps[i].Name == p.Name {
			s.ps = append(s.ps[:i], s.ps[i+1:]...)
			break
		}
	}
	s.ps = append(s.ps, p)
	return nil
}

func (s *memStore) Presets() ([]Preset, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Preset(nil), s.ps...), nil
}

func (s *memStore) DeletePreset(name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	for i := range s.ps {
		if s.ps[i].Name == name {
			s.ps = append(s.ps[:i], s.ps[i+1:]...)
		}
	}
	return nil
}

func TestSignature(t *testing.T) {
	a := Signature([]string{"First Name", "Last Name", "Zip"})
	for _, same := range [][]string{{"Zip", "First Name", "Last Name"}, {"first_name", "LAST NAME", " zip "}} {
		if got := Signature(same); got != a {
			t.Errorf("Signature(%q) = %s, want %s", same, got, a)
		}
	}
	for _, other := range [][]string{{"First Name", "Last Name"}, {"First Name", "Last Name", "Zip", "City"}, {"First Name", "Last Name", "Zip4"}} {
		if Signature(other) == a {
			t.Errorf("Signature(%q) must differ", other)
		}
	}
}

func testStore(t *testing.T, s PresetStore) {
	hs := []string{"Owner First", "Owner Last", "Situs Address", "Situs City", "Situs State", "Situs Zip"}
	m := AutoMap(hs, nil, jobs.KindTrace).Mapping()
	if p, err := MatchPreset(s, hs, jobs.KindTrace); err != nil || p != nil {
		t.Fatalf("empty store matched %v, %v", p, err)
	}
	if err := s.SavePreset(NewPreset("county", hs, jobs.KindTrace, m, jobs.ModeEnhanced, true)); err != nil {
		t.Fatal(err)
	}
	if err := s.SavePreset(NewPreset("phones", []string{"Phone"}, jobs.KindDNC, Mapping{Phone: "Phone"}, "", false)); err != nil {
		t.Fatal(err)
	}
	// Same headers in another order and case.
	p, err := MatchPreset(s, []string{"situs zip", "Owner Last", "Owner First", "Situs Address", "Situs City", "Situs State"}, jobs.KindTrace)
	if err != nil || p == nil || p.Name != "county" || p.Mode != jobs.ModeEnhanced || !p.IncludeLLCs {
		t.Fatalf("match = %+v, %v", p, err)
	}
	// The mapping comes back spelled as the new file spells its headers.
	if p.Mapping[PropertyZip] != "situs zip" || p.Mapping[FirstName] != "Owner First" {
		t.Errorf("mapping not respelled: %v", p.Mapping)
	}
	if p, _ := MatchPreset(s, hs, jobs.KindDNC); p != nil {
		t.Errorf("matched a trace preset for a jobs.KindDNC file: %+v", p)
	}
	if p, _ := MatchPreset(s, hs[:5], jobs.KindTrace); p != nil {
		t.Errorf("matched other headers: %+v", p)
	}
	// Re-saved under another name: the newest wins.
	m2 := m.Clone()
	m2[MailingStreet] = "Situs Address"
	if err := s.SavePreset(NewPreset("county v2", hs, jobs.KindTrace, m2, jobs.ModeNormal, false)); err != nil {
		t.Fatal(err)
	}
	if p, _ := MatchPreset(s, hs, jobs.KindTrace); p == nil || p.Name != "county v2" {
		t.Errorf("newest preset should win: %+v", p)
	}
	if err := s.DeletePreset("county v2"); err != nil {
		t.Fatal(err)
	}
	if err := s.DeletePreset("never saved"); err != nil {
		t.Fatal(err)
	}
	if p, _ := MatchPreset(s, hs, jobs.KindTrace); p == nil || p.Name != "county" {
		t.Errorf("after delete: %+v", p)
	}
	ps, _ := s.Presets()
	if len(ps) != 2 {
		t.Errorf("presets = %+v", ps)
	}
}

func TestMemStore(t *testing.T) { testStore(t, &memStore{}) }

func TestFileStore(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sub", "presets.json")
	testStore(t, NewFileStore(path))
	// A new store on the same file sees what was saved.
	ps, err := NewFileStore(path).Presets()
	if err != nil || len(ps) != 2 || ps[0].Name != "county" {
		t.Fatalf("reopened: %+v, %v", ps, err)
	}
	left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".presets-*"))
	if len(left) != 0 {
		t.Errorf("temp files left: %v", left)
	}
	if err := NewFileStore(path).SavePreset(Preset{Name: " "}); err == nil {
		t.Error("a preset without a name was saved")
	}
	bad := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(bad, []byte("{not json"), 0o600)
	if _, err := NewFileStore(bad).Presets(); err == nil {
		t.Error("a corrupt file gave no error")
	}
}
