package export

import (
	"bufio"
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/library"
)

// CallableOptions tune ExportCallable.
type CallableOptions struct {
	// OnlyCallable keeps only phones that are on neither the DNC registry
	// nor the litigator list (and were found in the DNC result): other
	// phones are blanked with their type and flags, and rows left with no
	// phone are dropped.
	OnlyCallable bool
	Format       string        // "xlsx" or "csv"; empty: from dst's extension
	Meta         *library.Meta // the trace's job record, for the Summary sheet
	Progress     func(done, total int)
}

// Flag values of the merged columns.
const (
	FlagTrue    = "true"
	FlagFalse   = "false"
	FlagUnknown = "unknown" // the phone is not in the DNC result
)

var phoneCol = regexp.MustCompile(`^phone_(\d+)$`)

type dncFlags uint8

const (
	flagKnown dncFlags = 1 << iota
	flagDNC
	flagLitigator
)

// ExportCallable writes the trace result's rows with each phone's DNC and
// litigator flags merged in from a DNC result: after each phone_N (and its
// phone_N_type) come phone_N_dnc and phone_N_litigator ("true", "false",
// or "unknown" when the DNC result does not have the number). Numbers are
// joined on their normalised 10 digits (the DNC result's phone_normalized).
func ExportCallable(ctx context.Context, traceResult, dncResult, dst string, opts CallableOptions) (*Report, error) {
	format, err := formatOf(dst, opts.Format)
	if err != nil {
		return nil, err
	}
	flags, dncWarnings, err := loadDNC(ctx, dncResult)
	if err != nil {
		return nil, err
	}
	ms, err := newMergeSource(traceResult, flags, opts.OnlyCallable)
	if err != nil {
		return nil, err
	}
	ms.dncWarnings = dncWarnings
	defer ms.Close()
	eopts := Options{Meta: opts.Meta, Progress: opts.Progress}
	if format == FormatCSV {
		rep := &Report{Path: dst}
		total := -1
		if opts.Progress != nil {
			total = estimateRows(traceResult)
		}
		if err := writeAtomic(dst, func(f *os.File) error { return writeCSV(ctx, ms, f, total, eopts, rep) }); err != nil {
			return nil, err
		}
		return rep, nil
	}
	// The .xlsx export reads rows by range: write the merged rows to a
	// temporary CSV beside dst first (plain, no guard: the xlsx writer
	// stores every string as text).
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.csv.tmp")
	if err != nil {
		return nil, writeError(dst, err)
	}
	defer os.Remove(tmp.Name())
	bw := bufio.NewWriterSize(tmp, 1<<20)
	w := csv.NewWriter(bw)
	w.UseCRLF = true
	err = w.Write(ms.Headers())
	for n := 0; err == nil; n++ {
		if n%ctxEvery == 0 {
			if err = cancelled(ctx); err != nil {
				break
			}
		}
		var rec []string
		if rec, _, err = ms.Next(); err == nil {
			err = w.Write(rec)
		}
	}
	if err == io.EOF {
		w.Flush()
		err = w.Error()
	}
	if err == nil {
		err = bw.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if we := writeError(dst, err); we != err {
			return nil, we
		}
		return nil, fmt.Errorf("export: callable list: %w", err)
	}
	eopts.Format = FormatXLSX
	rep, err := Export(ctx, tmp.Name(), dst, eopts)
	if err != nil {
		return nil, err
	}
	// The temporary copy is sound; the damage was in the sources.
	rep.Warnings = append(ms.Warnings(), rep.Warnings...)
	return rep, nil
}

// column finds a result column, preferring the "result_" name the
// provider uses when an input column had the same name (CONTRACT §7).
func column(headers []string, name string) int {
	at := -1
	for i, h := range headers {
		switch strings.ToLower(strings.TrimSpace(h)) {
		case "result_" + name:
			return i
		case name:
			if at < 0 {
				at = i
			}
		}
	}
	return at
}

func loadDNC(ctx context.Context, path string) (map[uint64]dncFlags, []string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("export: DNC result: %w", err)
	}
	defer f.Close()
	rr, err := library.NewRowReader(f)
	if err != nil {
		return nil, nil, fmt.Errorf("export: DNC result %s: %w", path, err)
	}
	headers := rr.Headers()
	pc, dc, lc := column(headers, "phone_normalized"), column(headers, "dnc"), column(headers, "litigator")
	if pc < 0 || dc < 0 || lc < 0 {
		return nil, nil, fmt.Errorf("export: %s is not a DNC result: it needs the columns phone_normalized, dnc and litigator", path)
	}
	flags := map[uint64]dncFlags{}
	for n := 0; ; n++ {
		if n%ctxEvery == 0 {
			if err := cancelled(ctx); err != nil {
				return nil, nil, err
			}
		}
		rec, err := rr.Next()
		if err == io.EOF {
			var warns []string
			for _, w := range rr.Warnings() {
				warns = append(warns, "DNC result "+filepath.Base(path)+": "+w)
			}
			return flags, warns, nil
		}
		if err != nil {
			return nil, nil, fmt.Errorf("export: DNC result %s: %w", path, err)
		}
		if max(pc, dc, lc) >= len(rec) {
			continue
		}
		num, ok := NormalizePhone(rec[pc])
		if !ok {
			continue
		}
		key, _ := strconv.ParseUint(num, 10, 64)
		fl := flags[key] | flagKnown
		if strings.EqualFold(strings.TrimSpace(rec[dc]), "true") {
			fl |= flagDNC
		}
		if strings.EqualFold(strings.TrimSpace(rec[lc]), "true") {
			fl |= flagLitigator
		}
		flags[key] = fl
	}
}

// NormalizePhone returns the 10-digit form of a North American number
// (CONTRACT §5): digits kept, an extension after "x", "ext", "ext." or "#"
// dropped, a leading 1 dropped from 11 digits; valid when 10 digits remain
// with the area code and the exchange starting 2-9. Excel's "1.23E+10" form
// is not a phone.
func NormalizePhone(s string) (string, bool) {
	l := strings.ToLower(s)
	if i := strings.IndexAny(l, "x#"); i >= 0 {
		l = l[:i]
		l = strings.TrimSuffix(strings.TrimRight(l, " ."), "ext")
		l = strings.TrimSuffix(l, "e") // "ext" cut at its x
	}
	var d [16]byte
	n := 0
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case c >= '0' && c <= '9':
			if n == len(d) {
				return "", false
			}
			d[n] = c
			n++
		case c >= 'a' && c <= 'z':
			return "", false // 1.23e+10 and other text
		}
	}
	digits := d[:n]
	if n == 11 && digits[0] == '1' {
		digits = digits[1:]
	}
	if len(digits) != 10 || digits[0] < '2' || digits[3] < '2' {
		return "", false
	}
	return string(digits), true
}

type phoneCols struct {
	phone, typ int
}

// mergeSource yields the trace's rows with the flags merged in.
type mergeSource struct {
	src     *csvSource
	flags   map[uint64]dncFlags
	only    bool
	phones  []phoneCols
	headers []string
	// out[j] is the source column of output column j, or -(2+2k) for phone
	// k's dnc flag and -(3+2k) for its litigator flag.
	out []int
	rec []string

	dncWarnings []string // the DNC result's, prefixed with its name
}

func newMergeSource(path string, flags map[uint64]dncFlags, only bool) (*mergeSource, error) {
	src, err := openCSVSource(path)
	if err != nil {
		return nil, err
	}
	m := &mergeSource{src: src, flags: flags, only: only}
	hs := src.Headers()
	after := map[int]int{} // source column → phone index whose flags follow it
	for i, h := range hs {
		if phoneCol.MatchString(strings.ToLower(h)) {
			p := phoneCols{phone: i, typ: -1}
			tcol := strings.ToLower(h) + "_type"
			for j, h2 := range hs {
				if strings.ToLower(h2) == tcol {
					p.typ = j
				}
			}
			last := i
			if p.typ > i {
				last = p.typ
			}
			after[last] = len(m.phones)
			m.phones = append(m.phones, p)
		}
	}
	if len(m.phones) == 0 {
		src.Close()
		return nil, fmt.Errorf("export: %s is not a trace result: no phone_1, phone_2... columns", path)
	}
	for i, h := range hs {
		m.headers = append(m.headers, h)
		m.out = append(m.out, i)
		if k, ok := after[i]; ok {
			name := hs[m.phones[k].phone]
			m.headers = append(m.headers, name+"_dnc", name+"_litigator")
			m.out = append(m.out, -(2 + 2*k), -(3 + 2*k))
		}
	}
	return m, nil
}

func (m *mergeSource) Headers() []string { return m.headers }
func (m *mergeSource) Total() int        { return -1 }
func (m *mergeSource) Close() error      { return m.src.Close() }

// Warnings are the damage met in the trace result and the DNC result.
func (m *mergeSource) Warnings() []string {
	return append(slices.Clone(m.dncWarnings), m.src.Warnings()...)
}

func (m *mergeSource) Next() ([]string, int, error) {
	for {
		rec, n, err := m.src.Next()
		if err != nil {
			return nil, 0, err
		}
		// flags per phone: "", or the dnc and litigator values
		fl := make([][2]string, len(m.phones))
		blank := make([]bool, len(m.phones))
		callable := 0
		for k, p := range m.phones {
			if p.phone >= len(rec) || strings.TrimSpace(rec[p.phone]) == "" {
				continue
			}
			num, ok := NormalizePhone(rec[p.phone])
			var f dncFlags
			if ok {
				key, _ := strconv.ParseUint(num, 10, 64)
				f = m.flags[key]
			}
			if f&flagKnown == 0 {
				fl[k] = [2]string{FlagUnknown, FlagUnknown}
			} else {
				fl[k] = [2]string{boolFlag(f&flagDNC != 0), boolFlag(f&flagLitigator != 0)}
			}
			if f&flagKnown != 0 && f&(flagDNC|flagLitigator) == 0 {
				callable++
			} else if m.only {
				blank[k] = true
			}
		}
		if m.only && callable == 0 {
			continue
		}
		m.rec = m.rec[:0]
		for _, o := range m.out {
			switch {
			case o >= 0:
				v := ""
				if o < len(rec) {
					v = rec[o]
				}
				for k, p := range m.phones {
					if blank[k] && (o == p.phone || o == p.typ) {
						v = ""
					}
				}
				m.rec = append(m.rec, v)
			default:
				k, which := (-o-2)/2, (-o-2)%2
				v := fl[k][which]
				if blank[k] {
					v = ""
				}
				m.rec = append(m.rec, v)
			}
		}
		return m.rec, n, nil
	}
}

func boolFlag(b bool) string {
	if b {
		return FlagTrue
	}
	return FlagFalse
}
