package ledger

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/skipdesk/skipdesk/jobs/mapping"
)

// PresetStore keeps mapping presets in the ledger. It implements
// mapping.PresetStore.
type PresetStore struct {
	L *Ledger
}

var _ mapping.PresetStore = PresetStore{}

// SavePreset adds or replaces the preset of the same name; it then counts as
// the most recently saved.
func (s PresetStore) SavePreset(p mapping.Preset) error {
	data, err := json.Marshal(p)
	if err != nil {
		return fmt.Errorf("ledger: preset %q: %w", p.Name, err)
	}
	return s.L.saved().SaveRawPreset(context.Background(), p.Name, data)
}

// Presets returns every preset, oldest saved first.
func (s PresetStore) Presets() ([]mapping.Preset, error) {
	raw, err := s.L.saved().RawPresets(context.Background())
	if err != nil {
		return nil, err
	}
	out := make([]mapping.Preset, 0, len(raw))
	for _, r := range raw {
		var p mapping.Preset
		if err := json.Unmarshal(r.Data, &p); err != nil {
			return nil, fmt.Errorf("ledger: preset %q: %w", r.Name, err)
		}
		p.Name = r.Name
		out = append(out, p)
	}
	return out, nil
}

// DeletePreset removes a preset; a missing name is not an error.
func (s PresetStore) DeletePreset(name string) error {
	return s.L.saved().DeleteRawPreset(context.Background(), name)
}
