package calltime

import (
	"bytes"
	"embed"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // the zones must resolve where the system has no zone database (Windows)
)

//go:embed data/*.csv
var dataFS embed.FS

// DataError is a fault in one of the embedded or saved tables, naming the
// file, its line and the field.
type DataError struct {
	File  string
	Line  int
	Field string
	Msg   string
}

func (e *DataError) Error() string {
	s := e.File
	if e.Line > 0 {
		s += fmt.Sprintf(" line %d", e.Line)
	}
	if e.Field != "" {
		s += fmt.Sprintf(" field %q", e.Field)
	}
	return s + ": " + e.Msg
}

// AreaCode is what the numbering data says of one area code.
type AreaCode struct {
	NPA    int
	Region string   // the country or territory (ISO code): US, PR, CA, JM…
	State  string   // postal code of the US state or territory; "" when non-geographic or foreign
	Zones  []string // IANA zones, sorted; empty when the code is not a place
}

// zipKey is a state and the first three digits of a ZIP code.
type zipKey struct {
	state string
	zip3  int
}

// places holds the location tables.
type places struct {
	codes      map[int]*AreaCode
	exchanges  map[int][]string    // npa*1000+nxx → zones, for area codes spanning zones
	stateZones map[string][]string // state → every zone of it
	zipZones   map[zipKey][]string // a state's ZIP prefix → zones
	zipStates  map[int]string      // zip3 → state
	zones      map[string]*time.Location
	lists      map[string][]string // zone lists by their text: one slice for each list
	dataInfo   string              // the numbering data's origin, from its first line
}

var loadPlaces = sync.OnceValues(func() (*places, error) {
	p := &places{
		codes: map[int]*AreaCode{}, exchanges: map[int][]string{}, stateZones: map[string][]string{},
		zipZones: map[zipKey][]string{}, zipStates: map[int]string{}, zones: map[string]*time.Location{}, lists: map[string][]string{},
	}
	steps := []struct {
		file string
		read func(rec []string, line int) error
	}{
		{"areacodes.csv", p.readAreaCode},
		{"exchanges.csv", p.readExchange},
		{"zipzones.csv", p.readZipZone},
		{"zipstates.csv", p.readZipState},
	}
	for _, s := range steps {
		raw, err := dataFS.ReadFile("data/" + s.file)
		if err != nil {
			return nil, err
		}
		if s.file == "areacodes.csv" {
			p.dataInfo = strings.TrimSpace(strings.TrimPrefix(firstLine(raw), "#"))
		}
		if err := eachRecord(raw, s.file, s.read); err != nil {
			return nil, err
		}
	}
	return p, nil
})

func firstLine(b []byte) string {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return string(b[:i])
	}
	return string(b)
}

// eachRecord calls read for every data record of a CSV table (comment lines
// start with #; the first record is the header), wrapping its error with the
// file and line.
func eachRecord(raw []byte, file string, read func(rec []string, line int) error) error {
	r := csv.NewReader(bytes.NewReader(raw))
	r.Comment = '#'
	r.FieldsPerRecord = -1
	header := true
	for {
		rec, err := r.Read()
		if err == io.EOF {
			return nil
		}
		line, _ := r.FieldPos(0)
		if err != nil {
			var pe *csv.ParseError
			if errors.As(err, &pe) {
				return &DataError{File: file, Line: pe.Line, Msg: pe.Err.Error()}
			}
			return &DataError{File: file, Msg: err.Error()}
		}
		if header {
			header = false
			continue
		}
		if err := read(rec, line); err != nil {
			var de *DataError
			if errors.As(err, &de) {
				de.File, de.Line = file, line
				return de
			}
			return &DataError{File: file, Line: line, Msg: err.Error()}
		}
	}
}

func fieldErr(field, format string, args ...any) error {
	return &DataError{Field: field, Msg: fmt.Sprintf(format, args...)}
}

// zoneList reads a list of zones; lists of the same zones are one slice,
// so that placements can be compared by the identity of their lists.
func (p *places) zoneList(field, s string) ([]string, error) {
	zs := strings.Fields(s)
	key := strings.Join(zs, " ")
	if l, ok := p.lists[key]; ok {
		return l, nil
	}
	p.lists[key] = zs
	for _, z := range zs {
		if _, err := p.zone(z); err != nil {
			return nil, fieldErr(field, "unknown time zone %q", z)
		}
	}
	return zs, nil
}

// zone resolves an IANA name once.
func (p *places) zone(name string) (*time.Location, error) {
	if z, ok := p.zones[name]; ok {
		return z, nil
	}
	z, err := time.LoadLocation(name)
	if err != nil {
		return nil, err
	}
	p.zones[name] = z
	return z, nil
}

func (p *places) readAreaCode(rec []string, _ int) error {
	if len(rec) != 4 {
		return fieldErr("", "%d fields, want 4 (npa,region,state,zones)", len(rec))
	}
	npa, err := strconv.Atoi(rec[0])
	if err != nil || npa < 200 || npa > 999 {
		return fieldErr("npa", "%q is not an area code", rec[0])
	}
	zones, err := p.zoneList("zones", rec[3])
	if err != nil {
		return err
	}
	p.codes[npa] = &AreaCode{NPA: npa, Region: rec[1], State: rec[2], Zones: zones}
	return nil
}

func (p *places) readExchange(rec []string, _ int) error {
	if len(rec) != 3 {
		return fieldErr("", "%d fields, want 3 (npa,nxx,zones)", len(rec))
	}
	npa, err1 := strconv.Atoi(rec[0])
	nxx, err2 := strconv.Atoi(rec[1])
	if err1 != nil || err2 != nil || nxx < 200 || nxx > 999 {
		return fieldErr("nxx", "%q %q is not an area code and exchange", rec[0], rec[1])
	}
	zones, err := p.zoneList("zones", rec[2])
	if err != nil {
		return err
	}
	p.exchanges[npa*1000+nxx] = zones
	return nil
}

func (p *places) readZipZone(rec []string, _ int) error {
	if len(rec) != 4 {
		return fieldErr("", "%d fields, want 4 (state,zip3,zones,note)", len(rec))
	}
	zones, err := p.zoneList("zones", rec[2])
	if err != nil {
		return err
	}
	if rec[1] == "*" {
		p.stateZones[rec[0]] = zones
		return nil
	}
	lo, hi, err := zipRange(rec[1])
	if err != nil {
		return err
	}
	for z := lo; z <= hi; z++ {
		p.zipZones[zipKey{rec[0], z}] = zones
	}
	return nil
}

// readZipState: a later row overrides an earlier one (733 is Texas inside
// Oklahoma's range).
func (p *places) readZipState(rec []string, _ int) error {
	if len(rec) != 2 {
		return fieldErr("", "%d fields, want 2 (zip3,state)", len(rec))
	}
	lo, hi, err := zipRange(rec[0])
	if err != nil {
		return err
	}
	for z := lo; z <= hi; z++ {
		p.zipStates[z] = rec[1]
	}
	return nil
}

// zipRange reads "320" or "320-323".
func zipRange(s string) (lo, hi int, err error) {
	a, b, isRange := strings.Cut(s, "-")
	if !isRange {
		b = a
	}
	lo, err1 := strconv.Atoi(a)
	hi, err2 := strconv.Atoi(b)
	if err1 != nil || err2 != nil || len(a) != 3 || len(b) != 3 || lo > hi {
		return 0, 0, fieldErr("zip3", "%q is not a ZIP prefix or range of them", s)
	}
	return lo, hi, nil
}
