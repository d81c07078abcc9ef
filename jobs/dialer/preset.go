// Package dialer holds the layouts of the dialers and CRMs callable lists
// are loaded into (presets), as data files: each names its columns, the
// phone format (E.164 or 10 digits), one row per owner or per phone, the
// rows a file may hold, and what goes into notes and tags. The presets
// SkipDesk ships are in presets/*.toml, each citing its vendor's import
// documentation in a comment; a person saves their own in the data folder
// in the same format.
//
// Shape turns an owner with phones (flags, scrub date, valid-until and
// calling window) into the rows of a preset, whatever writes them (CSV,
// XLSX).
package dialer

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// FormatVersion is the version of the preset file format.
const FormatVersion = 1

// Phone formats.
const (
	E164      = "e164"    // +13055550100
	TenDigits = "10digit" // 3055550100
)

// Row shapes.
const (
	PerOwner = "per-owner" // one row per owner, phones in numbered columns
	PerPhone = "per-phone" // one row per phone, the owner's columns repeated
)

// Preset is one dialer or CRM layout.
type Preset struct {
	ID          string            `toml:"-"` // the file's name without .toml: what --preset takes
	Name        string            `toml:"name"`
	Format      int               `toml:"format"`
	PhoneFormat string            `toml:"phone_format"`
	Layout      string            `toml:"rows"`     // PerOwner or PerPhone
	Phones      int               `toml:"phones"`   // per-owner: phone slots per row
	MaxRows     int               `toml:"max_rows"` // data rows per file; 0: no limit
	Tags        string            `toml:"tags"`     // template for the tags value
	Notes       string            `toml:"notes"`    // template for the notes value
	PhoneTypes  map[string]string `toml:"phone_types"`
	Columns     []Column          `toml:"columns"`
	Builtin     bool              `toml:"-"`
	File        string            `toml:"-"` // where it was read from
	cells       []valueSpec       // the value of each column of the header
	tags, notes []segment         // the templates, read
}

// Column is one column of a preset.
type Column struct {
	Header string `toml:"header"`
	Value  string `toml:"value"`
	// EachPhone repeats the column for each phone slot: "{n}" in the header
	// and the value is the slot's number.
	EachPhone bool `toml:"each_phone,omitempty"`
	// Custom marks a column the vendor's documented list does not name: its
	// importer maps it by hand or makes a custom field of it.
	Custom bool `toml:"custom,omitempty"`
}

//go:embed presets/*.toml
var builtinFS embed.FS

// Builtin returns the presets SkipDesk ships, in name order.
func Builtin() ([]*Preset, error) {
	entries, err := fs.Glob(builtinFS, "presets/*.toml")
	if err != nil {
		return nil, err
	}
	var out []*Preset
	for _, name := range entries {
		raw, err := builtinFS.ReadFile(name)
		if err != nil {
			return nil, err
		}
		p, err := Parse(raw, name)
		if err != nil {
			return nil, err
		}
		p.Builtin = true
		out = append(out, p)
	}
	sortPresets(out)
	return out, nil
}

func sortPresets(ps []*Preset) {
	slices.SortFunc(ps, func(a, b *Preset) int { return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name)) })
}

// Parse reads a preset file. file names it in errors (and gives its ID).
func Parse(raw []byte, file string) (*Preset, error) {
	p := &Preset{File: file, ID: strings.TrimSuffix(filepath.Base(file), ".toml")}
	md, err := toml.Decode(string(raw), p)
	if err != nil {
		return nil, &FileError{File: file, Msg: strings.TrimPrefix(err.Error(), "toml: ")}
	}
	if un := md.Undecoded(); len(un) > 0 {
		return nil, &FileError{File: file, Msg: fmt.Sprintf("unknown setting %q", un[0].String())}
	}
	if err := p.check(); err != nil {
		return nil, &FileError{File: file, Msg: err.Error()}
	}
	return p, nil
}

// FileError is a preset file that cannot be used, naming the file and what
// is wrong (with the line where the file's syntax is at fault).
type FileError struct {
	File string
	Msg  string
}

func (e *FileError) Error() string { return filepath.Base(e.File) + ": " + e.Msg }

var idRE = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// check holds a preset to the format.
func (p *Preset) check() error {
	switch {
	case p.Format != FormatVersion:
		return fmt.Errorf("format = %d; this SkipDesk reads format %d", p.Format, FormatVersion)
	case !idRE.MatchString(p.ID):
		return fmt.Errorf("the file name %q must be lower-case letters, digits and dashes", p.ID)
	case strings.TrimSpace(p.Name) == "":
		return errors.New("name is empty")
	case p.PhoneFormat != E164 && p.PhoneFormat != TenDigits:
		return fmt.Errorf("phone_format = %q; use %q or %q", p.PhoneFormat, E164, TenDigits)
	case p.Layout != PerOwner && p.Layout != PerPhone:
		return fmt.Errorf("rows = %q; use %q or %q", p.Layout, PerOwner, PerPhone)
	case p.Layout == PerOwner && p.Phones < 1:
		return errors.New("phones must be at least 1 for one row per owner")
	case p.MaxRows < 0:
		return fmt.Errorf("max_rows = %d cannot be negative", p.MaxRows)
	case len(p.Columns) == 0:
		return errors.New("no columns")
	}
	for _, t := range []struct{ name, tmpl string }{{"tags", p.Tags}, {"notes", p.Notes}} {
		if err := checkTemplate(t.tmpl, p.Layout); err != nil {
			return fmt.Errorf("%s: %w", t.name, err)
		}
	}
	if err := p.checkColumns(); err != nil {
		return err
	}
	p.compile()
	return nil
}

func (p *Preset) checkColumns() error {
	seen := map[string]bool{}
	phone := false
	for i, c := range p.Columns {
		where := fmt.Sprintf("column %d (%q)", i+1, c.Header)
		v, err := parseValue(c.Value)
		switch {
		case err != nil:
			return fmt.Errorf("%s: %w", where, err)
		case strings.TrimSpace(c.Header) == "":
			return fmt.Errorf("column %d has no header", i+1)
		case c.EachPhone && p.Layout != PerOwner:
			return fmt.Errorf("%s: each_phone is for one row per owner", where)
		case c.EachPhone && !strings.Contains(c.Header, "{n}"):
			return fmt.Errorf("%s: a column repeated for each phone needs {n} in its header", where)
		case v.phone && p.Layout == PerOwner && !c.EachPhone && v.slot == 0:
			return fmt.Errorf("%s: in one row per owner a phone value needs a slot (%s.1) or each_phone", where, v.field)
		case v.slot > p.Phones && p.Layout == PerOwner:
			return fmt.Errorf("%s: phone slot %d, but phones = %d", where, v.slot, p.Phones)
		}
		phone = phone || v.field == "phone" || v.field == "phone_display"
		for _, h := range p.expand(c) {
			if seen[strings.ToLower(h.Header)] {
				return fmt.Errorf("%s: header %q twice", where, h.Header)
			}
			seen[strings.ToLower(h.Header)] = true
		}
	}
	if !phone {
		return errors.New("no column holds the phone number (value \"phone\" or \"phone_display\")")
	}
	return nil
}

// Header is the preset's header row.
func (p *Preset) Header() []string {
	var out []string
	for _, c := range p.Columns {
		for _, e := range p.expand(c) {
			out = append(out, e.Header)
		}
	}
	return out
}

// expand repeats an each_phone column for every slot.
func (p *Preset) expand(c Column) []Column {
	if !c.EachPhone {
		return []Column{c}
	}
	out := make([]Column, 0, p.Phones)
	for n := 1; n <= p.Phones; n++ {
		s := fmt.Sprint(n)
		out = append(out, Column{
			Header: strings.ReplaceAll(c.Header, "{n}", s),
			Value:  c.Value + "." + s,
			Custom: c.Custom,
		})
	}
	return out
}

// Parts is how many files n data rows take under the preset's limit.
func (p *Preset) Parts(n int) int {
	if p.MaxRows == 0 || n <= p.MaxRows {
		return 1
	}
	return (n + p.MaxRows - 1) / p.MaxRows
}

// Find returns the preset whose ID or name is s (any case).
func Find(ps []*Preset, s string) (*Preset, bool) {
	for _, p := range ps {
		if strings.EqualFold(p.ID, s) || strings.EqualFold(p.Name, s) {
			return p, true
		}
	}
	return nil, false
}

// LoadDir reads a person's presets from a folder (missing: none). A file
// that cannot be used is reported and left out; the others still load. A
// person's preset may not take a built-in preset's name or ID.
func LoadDir(dir string, builtin []*Preset) ([]*Preset, []error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.toml"))
	if err != nil {
		return nil, []error{err}
	}
	var out []*Preset
	var errs []error
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err == nil {
			var p *Preset
			if p, err = Parse(raw, f); err == nil {
				if _, clash := Find(builtin, p.ID); clash {
					err = &FileError{File: f, Msg: "has the name of a preset SkipDesk ships; save it under another name"}
				} else if _, clash := Find(builtin, p.Name); clash {
					err = &FileError{File: f, Msg: fmt.Sprintf("name %q is a preset SkipDesk ships; choose another", p.Name)}
				} else {
					out = append(out, p)
					continue
				}
			}
		}
		errs = append(errs, err)
	}
	sortPresets(out)
	return out, errs
}

// Save writes a person's preset into dir as <ID>.toml (through a temporary
// file, synced and renamed, so a failed save leaves the earlier file).
func Save(dir string, p *Preset, builtin []*Preset) error {
	if _, clash := Find(builtin, p.ID); clash {
		return fmt.Errorf("preset %q: SkipDesk ships a preset of that name; choose another", p.ID)
	}
	p.Format = FormatVersion
	if err := p.check(); err != nil {
		return fmt.Errorf("preset %q: %w", p.ID, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: a preset saved in SkipDesk.\n", p.Name)
	if err := toml.NewEncoder(&b).Encode(p); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return writeFile(filepath.Join(dir, p.ID+".toml"), []byte(b.String()))
}

func writeFile(path string, data []byte) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".preset-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
