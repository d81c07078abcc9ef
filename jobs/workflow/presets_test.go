package workflow

import (
	"path/filepath"
	"slices"
	"testing"

	"github.com/skipdesk/skipdesk/jobs"
)

// The presets saved are listed by name, sorted, and each loads with its
// own mapping; a name never saved is an error.
func TestPresetNamesAndLoad(t *testing.T) {
	t.Parallel()
	cfg := testConfig(t)
	cfg.PresetsFile = filepath.Join(t.TempDir(), "presets.json")
	d, err := Open(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	ctx := t.Context()
	ps := d.Presets()
	headers := []string{"First Name", "Last Name", "Address", "City", "State", "Zip"}
	plan := Plan{Kind: jobs.KindTrace, Mapping: sampleMapping, Mode: jobs.ModeNormal}
	for _, name := range []string{"county", "auction"} {
		if err := ps.SavePreset(ctx, name, headers, plan); err != nil {
			t.Fatal(err)
		}
	}
	names, err := ps.PresetNames(ctx)
	if err != nil || !slices.Equal(names, []string{"auction", "county"}) {
		t.Fatalf("PresetNames: %q, %v", names, err)
	}
	p, err := ps.LoadPreset(ctx, "county")
	if err != nil || p.Name != "county" || p.Kind != jobs.KindTrace || len(p.Mapping) == 0 {
		t.Fatalf("LoadPreset: %+v, %v", p, err)
	}
	if p, err := ps.LoadPreset(ctx, "none"); err == nil {
		t.Fatalf("LoadPreset of a name never saved: %+v", p)
	}
}
