package ledger

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// RawPreset is a stored mapping preset: its name and its JSON document (the
// mapping package's Preset, encoded by the caller).
type RawPreset struct {
	Name      string
	Data      json.RawMessage
	UpdatedAt time.Time
}

// SaveRawPreset stores (or replaces) a preset under name.
func (l *Saved) SaveRawPreset(ctx context.Context, name string, data json.RawMessage) error {
	if name == "" {
		return errors.New("ledger: a preset needs a name")
	}
	if !json.Valid(data) {
		return fmt.Errorf("ledger: preset %q is not valid JSON", name)
	}
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		// saved orders the presets: the replaced one sorts as the most
		// recently saved.
		_, err := tx.ExecContext(ctx, `INSERT INTO presets (name, data, updated_at, updated_by, saved)
			VALUES (?, ?, ?, ?, (SELECT COALESCE(MAX(saved), 0) + 1 FROM presets))
			ON CONFLICT (name) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at,
				updated_by = excluded.updated_by, saved = excluded.saved`,
			name, string(data), l.now().UnixMilli(), l.me.Computer)
		if err != nil {
			return fmt.Errorf("ledger: save preset %q: %w", name, err)
		}
		return nil
	})
}

// RawPresets returns every preset, oldest saved first.
func (l *Saved) RawPresets(ctx context.Context) ([]RawPreset, error) {
	return listAll(ctx, l.db, "presets", scanRawPreset, "SELECT name, data, updated_at FROM presets ORDER BY saved, name")
}

func scanRawPreset(r scanner) (RawPreset, error) {
	var p RawPreset
	var data string
	var at int64
	if err := r.Scan(&p.Name, &data, &at); err != nil {
		return RawPreset{}, err
	}
	p.Data, p.UpdatedAt = json.RawMessage(data), time.UnixMilli(at).UTC()
	return p, nil
}

// DeleteRawPreset removes a preset; removing one that does not exist is not an
// error.
func (l *Saved) DeleteRawPreset(ctx context.Context, name string) error {
	return l.tx(ctx, func(tx *sqldb.Tx) error {
		_, err := tx.ExecContext(ctx, "DELETE FROM presets WHERE name = ?", name)
		if err != nil {
			return fmt.Errorf("ledger: delete preset %q: %w", name, err)
		}
		return nil
	})
}
