package index

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/input"
	"github.com/skipdesk/skipdesk/jobs/layout"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/sqldb"
)

// markEvery is how many rows apart the index notes where a row starts: a
// hit reads at most this many rows of its file.
const markEvery = 16

// segBudget caps the memory a file's postings take while it is indexed:
// past it they are written out as a segment and the next rows start
// another. It keeps memory flat whatever the file's size.
var segBudget = 40 << 20

// batchRows is how many phone entries are written in one go.
const batchRows = 8192

// The owner keys of a file are written as runs sorted by hash, each run in
// chunks: a file's runs sit together (written and removed as a range, never
// touching the rest of the table), and a lookup reads only the chunks whose
// hash range holds a key it looks for.
const (
	ownerRun   = 65536
	ownerChunk = 256
)

// colKind is how the index reads a column's values.
type colKind uint8

const (
	colNone    colKind = iota
	colName            // folded words
	colAddress         // folded words in canonical form
	colZip             // a zip code (Zip5), else as an address
	colEmail           // the whole address
	colPhone           // the 10 digits of a valid number
)

// columns are the columns of a result the index reads, by what they hold.
type columns struct {
	kinds []colKind // by column

	// The owner key's columns (-1 none).
	first, last, full                            int
	propStreet, propStreet2, propCity, propState int
	propZip, propFull                            int

	emails     []int
	sourceDate int // a merged result's source_date column; -1 none
}

// savedColumns is columns as files.cols keeps them.
type savedColumns struct {
	Kinds      []colKind `json:"kinds"`
	Owner      [9]int    `json:"owner"` // first, last, full, street, street2, city, state, zip, full address
	Emails     []int     `json:"emails"`
	SourceDate int       `json:"source_date"`
	Keys       []int     `json:"keys"` // the columns shown with a hit
}

func (c *columns) saved(keys []int) savedColumns {
	return savedColumns{Kinds: c.kinds, Owner: [9]int{c.first, c.last, c.full, c.propStreet, c.propStreet2, c.propCity,
		c.propState, c.propZip, c.propFull}, Emails: c.emails, SourceDate: c.sourceDate, Keys: keys}
}

func (s savedColumns) columns() columns {
	o := s.Owner
	return columns{kinds: s.Kinds, first: o[0], last: o[1], full: o[2], propStreet: o[3], propStreet2: o[4], propCity: o[5],
		propState: o[6], propZip: o[7], propFull: o[8], emails: s.Emails, sourceDate: s.SourceDate}
}

// columnsOf picks the columns from the layout; mapped, when known, is the
// column mapping the job's upload was sent with: its name and property
// columns are the owner key's.
func columnsOf(l *layout.Layout, mapped map[string]string) columns {
	c := columns{first: -1, last: -1, full: -1, propStreet: -1, propStreet2: -1, propCity: -1, propState: -1,
		propZip: -1, propFull: -1, sourceDate: -1}
	// The person's own columns come first in a result: the first column
	// of a role (an input one when marked) is the owner's.
	pick := func(dst *int, i int, input bool) {
		if dst != nil && (*dst < 0 || (input && !l.Columns[*dst].Input)) {
			*dst = i
		}
	}
	c.kinds = make([]colKind, len(l.Columns))
	for i, col := range l.Columns {
		c.kinds[i] = kindOfRole[col.Role]
		if col.Role == layout.RoleEmail {
			c.emails = append(c.emails, i)
		}
		if c.kinds[i] == colName && (col.Group == "" || col.Input) {
			pick(c.nameColumn(col.Role), i, col.Input)
		}
		if col.Place == "property" {
			pick(c.propertyColumn(col.Role), i, col.Input)
		}
		if strings.EqualFold(strings.TrimSpace(col.Header), library.SourceDateColumn) {
			c.sourceDate = i
		}
	}
	if len(mapped) > 0 {
		c.mapped(l, mapped)
	}
	return c
}

// kindOfRole is how the index reads a column of each role (colNone: not).
var kindOfRole = map[layout.Role]colKind{
	layout.RoleFirstName: colName, layout.RoleLastName: colName, layout.RoleFullName: colName,
	layout.RoleStreet: colAddress, layout.RoleStreet2: colAddress, layout.RoleCity: colAddress,
	layout.RoleState: colAddress, layout.RoleAddress: colAddress,
	layout.RoleZip: colZip, layout.RoleEmail: colEmail, layout.RolePhone: colPhone,
}

// nameColumn is the owner's column of a name role.
func (c *columns) nameColumn(r layout.Role) *int {
	switch r {
	case layout.RoleFirstName:
		return &c.first
	case layout.RoleLastName:
		return &c.last
	}
	return &c.full
}

// propertyColumn is the property's column of an address role (nil: none).
func (c *columns) propertyColumn(r layout.Role) *int {
	switch r {
	case layout.RoleStreet:
		return &c.propStreet
	case layout.RoleStreet2:
		return &c.propStreet2
	case layout.RoleCity:
		return &c.propCity
	case layout.RoleState:
		return &c.propState
	case layout.RoleZip:
		return &c.propZip
	case layout.RoleAddress:
		return &c.propFull
	}
	return nil
}

// mapped takes the owner key's columns from the mapping the upload was
// sent with.
func (c *columns) mapped(l *layout.Layout, mapped map[string]string) {
	at := func(key string) int {
		if h, ok := mapped[key]; ok {
			return slices.Index(l.Headers, h)
		}
		return -1
	}
	c.first, c.last, c.full = at(mapping.FirstName), at(mapping.LastName), -1
	c.propStreet, c.propStreet2, c.propCity = at(mapping.PropertyStreet), -1, at(mapping.PropertyCity)
	c.propState, c.propZip, c.propFull = at(mapping.PropertyState), at(mapping.PropertyZip), -1
}

// appendOwnerKey appends the row's owner key (nothing without a property
// address): OwnerKey of its name and address keys.
func (c *columns) appendOwnerKey(dst []byte, sc *scratch, rec []string) []byte {
	start := len(dst)
	dst = appendNameKey(dst, sc, cell(rec, c.first), cell(rec, c.last), cell(rec, c.full))
	dst = append(dst, '\x1f')
	n := len(dst)
	dst = appendAddressKey(dst, sc, Address{Street: cell(rec, c.propStreet), Street2: cell(rec, c.propStreet2), City: cell(rec, c.propCity),
		State: cell(rec, c.propState), Zip: cell(rec, c.propZip), Full: cell(rec, c.propFull)})
	if len(dst) == n {
		return dst[:start]
	}
	return dst
}

func cell(rec []string, i int) string {
	if i < 0 || i >= len(rec) {
		return ""
	}
	return rec[i]
}

// posting is one term's rows in the segment being built.
type posting struct {
	last int32 // the last row added, plus one (0: none yet)
	buf  []byte
}

type ownerEntry struct {
	h    int64
	row  int32
	date int64 // 0: the file's
}

// ownerDay is a row's own date as the owners' chunks keep it: days since
// the epoch plus one (0: the file's date).
func ownerDay(date int64) uint64 {
	if date == 0 {
		return 0
	}
	return uint64(date/86400) + 1
}

type phoneEntry struct {
	key   int64
	row   int32
	flags int64
	date  int64
}

// builder indexes the rows of one file inside its transaction.
type builder struct {
	ctx  context.Context
	tx   *sqldb.Tx
	file int64
	kind layout.FileKind
	cols columns
	rd   *layout.Reader
	row  layout.Row

	terms map[string]int32 // term → index in posts
	posts []posting
	mem   int
	seg   int

	owners []ownerEntry
	run    int // the owners' next run
	phones []phoneEntry
	marks  []byte
	lastM  [2]int64 // offset and line of the last mark

	// cells caches, per column, the postings a value adds: most columns
	// (names, cities, states, streets) repeat a few values. A column past
	// cacheCap distinct values is read word by word.
	cells []map[string][]int32
	stmts map[string]*sql.Stmt // the full batches' INSERTs

	buf  []byte
	got  []int32
	key  []byte
	sc   scratch
	rows int32
}

// cacheCap is how many distinct values of a column the builder remembers.
const cacheCap = 2048

func newBuilder(ctx context.Context, tx *sqldb.Tx, file int64, l *layout.Layout, kind layout.FileKind, mapped map[string]string) *builder {
	b := &builder{ctx: ctx, tx: tx, file: file, kind: kind, cols: columnsOf(l, mapped), rd: l.NewReader(nil),
		terms: map[string]int32{}, stmts: map[string]*sql.Stmt{}}
	b.cells = make([]map[string][]int32, len(b.cols.kinds))
	for i, k := range b.cols.kinds {
		if k == colName || k == colAddress || k == colZip {
			b.cells[i] = map[string][]int32{}
		}
	}
	return b
}

// exec runs an INSERT of a full batch through a statement prepared once,
// and of a shorter one directly.
func (b *builder) exec(q string, full bool, args []any) error {
	if !full {
		_, err := b.tx.ExecContext(b.ctx, q, args...)
		return err
	}
	st := b.stmts[q]
	if st == nil {
		var err error
		if st, err = b.tx.PrepareContext(b.ctx, q); err != nil {
			return err
		}
		b.stmts[q] = st
	}
	_, err := st.ExecContext(b.ctx, args...)
	return err
}

// add indexes one row, which starts at offset on line.
func (b *builder) add(rec []string, offset int64, line int) error {
	r := b.rows
	b.rows++
	if r%markEvery == 0 {
		b.marks = binary.AppendUvarint(b.marks, uint64(offset-b.lastM[0]))
		b.marks = binary.AppendUvarint(b.marks, uint64(int64(line)-b.lastM[1]))
		b.lastM = [2]int64{offset, int64(line)}
	}
	for i, k := range b.cols.kinds {
		if k != colNone && i < len(rec) && rec[i] != "" {
			b.cell(r, i, k, rec[i])
		}
	}
	switch b.kind {
	case layout.KindTrace:
		b.rd.ReadPhones(rec, &b.row)
		if b.traced(rec) {
			if b.key = b.cols.appendOwnerKey(b.key[:0], &b.sc, rec); len(b.key) > 0 {
				b.owners = append(b.owners, ownerEntry{h: OwnerHash(string(b.key)), row: r, date: b.rowDate(rec)})
			}
		}
	case layout.KindDNC:
		b.rd.ReadPhones(rec, &b.row)
		for i := range b.row.Phones {
			if p := &b.row.Phones[i]; p.Key != 0 && p.Flags.Has != 0 {
				b.phones = append(b.phones, phoneEntry{key: int64(p.Key), row: r, flags: encodeFlags(p.Answers()), date: b.rowDate(rec)})
			}
		}
	}
	return b.flushFull()
}

// cell adds the terms of a value of column i (of kind k) to row r: from
// the column's cache when the value was met before.
func (b *builder) cell(r int32, i int, k colKind, v string) {
	m := b.cells[i]
	if ps, ok := m[v]; ok {
		for _, p := range ps {
			b.addRow(p, r)
		}
		return
	}
	b.got = b.got[:0] // the postings this value adds, for the cache
	switch k {
	case colName:
		b.words(r, v, false)
	case colAddress:
		b.words(r, v, true)
	case colZip:
		if z := Zip5(v); z != "" {
			b.term(r, []byte(z))
		} else {
			b.words(r, v, true)
		}
	case colEmail:
		if e := emailTerm(v); e != "" {
			b.term(r, []byte(e))
		}
	case colPhone:
		if k := phone.Key(v); k != 0 {
			b.buf = strconv.AppendUint(b.buf[:0], k, 10)
			b.term(r, b.buf)
		}
	}
	switch {
	case m == nil:
	case len(m) < cacheCap:
		m[strings.Clone(v)] = slices.Clone(b.got)
	default:
		b.cells[i] = nil // too many values to remember
	}
}

// rowDate is a merged result's row's own date (its source_date), 0 for
// the file's.
func (b *builder) rowDate(rec []string) int64 {
	if b.cols.sourceDate < 0 {
		return 0
	}
	if t, err := time.Parse(time.DateOnly, strings.TrimSpace(cell(rec, b.cols.sourceDate))); err == nil {
		return t.Unix()
	}
	return 0
}

// flushFull writes out the entries whose batch is full, and the postings
// past their budget.
func (b *builder) flushFull() error {
	if len(b.owners) >= ownerRun {
		if err := b.flushOwners(); err != nil {
			return err
		}
	}
	if len(b.phones) >= batchRows {
		if err := b.flushPhones(); err != nil {
			return err
		}
	}
	if b.mem >= segBudget {
		return b.flushTerms()
	}
	return nil
}

// traced reports whether a row of a trace result found the owner: matched
// by its match status, or, without one, with a valid phone or an e-mail.
// Rows not found are refunded and are worth tracing again.
func (b *builder) traced(rec []string) bool {
	if b.rd.Layout().Match >= 0 {
		return b.row.Match == layout.Matched
	}
	for _, p := range b.row.Phones {
		if p.Key != 0 {
			return true
		}
	}
	for _, i := range b.cols.emails {
		if strings.TrimSpace(cell(rec, i)) != "" {
			return true
		}
	}
	return false
}

// words adds the folded words of v (in canonical form for an address).
func (b *builder) words(r int32, v string, address bool) {
	if v == "" {
		return
	}
	b.buf = fold(b.buf[:0], v)
	s := b.buf
	for i := 0; i < len(s); {
		for i < len(s) && s[i] == ' ' {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' {
			j++
		}
		if j > i && !(j == i+1 && s[i] == '#') {
			w := s[i:j]
			if address {
				if c, ok := addressWords[string(w)]; ok {
					if c == "#" {
						i = j
						continue
					}
					w = []byte(c)
				}
			}
			b.term(r, w)
		}
		i = j
	}
}

// term adds row r to term w's postings (once per row).
func (b *builder) term(r int32, w []byte) {
	id, ok := b.terms[string(w)]
	if !ok {
		id = int32(len(b.posts))
		b.posts = append(b.posts, posting{})
		b.terms[string(w)] = id
		b.mem += len(w) + 80 // the map's entry, the key, the posting
	}
	b.got = append(b.got, id)
	b.addRow(id, r)
}

func (b *builder) addRow(id int32, r int32) {
	p := &b.posts[id]
	if p.last == r+1 {
		return
	}
	n := cap(p.buf)
	p.buf = binary.AppendUvarint(p.buf, uint64(r+1-p.last))
	b.mem += cap(p.buf) - n // what the buffers really hold
	p.last = r + 1
}

// emailTerm is an e-mail address as the index keeps it: trimmed, lower
// case; "" when v is not one.
func emailTerm(v string) string {
	v = strings.TrimSpace(v)
	if strings.IndexByte(v, '@') <= 0 || strings.ContainsAny(v, " ,;") {
		return ""
	}
	return strings.ToLower(v)
}

// flushTerms writes the postings built so far as a segment.
func (b *builder) flushTerms() error {
	if len(b.terms) == 0 {
		return nil
	}
	keys := make([]string, 0, len(b.terms))
	for k := range b.terms {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	const per = 200
	args := make([]any, 0, per*4)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		q := "INSERT INTO terms(file, term, seg, rows) VALUES " + placeholders(len(args)/4, 4)
		err := b.exec(q, len(args) == per*4, args)
		args = args[:0]
		return err
	}
	for _, k := range keys {
		args = append(args, b.file, k, b.seg, b.posts[b.terms[k]].buf)
		if len(args) == per*4 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	if err := flush(); err != nil {
		return err
	}
	clear(b.terms) // keeps its room: the next segment has as many terms
	clear(b.posts) // the buffers go: a term's share differs between segments
	b.posts = b.posts[:0]
	for _, m := range b.cells {
		clear(m)
	}
	b.mem = 0
	b.seg++
	runtime.Gosched()
	return nil
}

func (b *builder) flushOwners() error {
	if len(b.owners) == 0 {
		return nil
	}
	slices.SortFunc(b.owners, func(a, c ownerEntry) int {
		switch {
		case a.h < c.h:
			return -1
		case a.h > c.h:
			return 1
		}
		return int(a.row - c.row)
	})
	var data []byte
	for i := 0; i < len(b.owners); {
		// A hash is never split between chunks (a chunk is found by its
		// first hash).
		end := min(i+ownerChunk, len(b.owners))
		for end < len(b.owners) && b.owners[end].h == b.owners[end-1].h {
			end++
		}
		chunk := b.owners[i:end]
		i = end
		data = data[:0]
		for _, o := range chunk {
			data = binary.BigEndian.AppendUint64(data, uint64(o.h))
			data = binary.AppendUvarint(data, uint64(o.row))
			data = binary.AppendUvarint(data, ownerDay(o.date))
		}
		var id int64
		if err := b.tx.QueryRowContext(b.ctx, "INSERT INTO owner_chunks(data) VALUES (?) RETURNING id", data).Scan(&id); err != nil {
			return err
		}
		if err := b.exec("INSERT INTO owners(file, run, first, chunk) VALUES (?, ?, ?, ?)", true, []any{b.file, b.run, chunk[0].h, id}); err != nil {
			return err
		}
	}
	if b.tx.Engine() == sqldb.SQLite {
		hashes, days := runHashes(b.owners)
		if err := b.exec("INSERT INTO owner_hashes(file, run, hashes, days) VALUES (?, ?, ?, ?)", false, []any{b.file, b.run, hashes, days}); err != nil {
			return err
		}
	}
	b.owners = b.owners[:0]
	b.run++
	return nil
}

// runHashes is a run's entries (sorted by hash) as owner_hashes keeps
// them: the hashes, 8 bytes each, and their days, 4 bytes each (nil when
// every one is 0: the file's date).
func runHashes(run []ownerEntry) (hashes, days []byte) {
	hashes = make([]byte, 0, 8*len(run))
	for _, o := range run {
		hashes = binary.LittleEndian.AppendUint64(hashes, uint64(o.h))
	}
	for i, o := range run {
		if o.date != 0 {
			if days == nil {
				days = make([]byte, 4*len(run))
			}
			binary.LittleEndian.PutUint32(days[4*i:], uint32(ownerDay(o.date)))
		}
	}
	return hashes, days
}

func (b *builder) flushPhones() error {
	if len(b.phones) == 0 {
		return nil
	}
	const per = 200
	args := make([]any, 0, per*5)
	flush := func() error {
		if len(args) == 0 {
			return nil
		}
		q := "INSERT INTO phones(file, key, row, flags, date) VALUES " + placeholders(len(args)/5, 5) + " ON CONFLICT DO NOTHING"
		err := b.exec(q, len(args) == per*5, args)
		args = args[:0]
		return err
	}
	for _, p := range b.phones {
		var d any
		if p.date != 0 {
			d = p.date
		}
		args = append(args, b.file, p.key, p.row, p.flags, d)
		if len(args) == per*5 {
			if err := flush(); err != nil {
				return err
			}
		}
	}
	b.phones = b.phones[:0]
	return flush()
}

// finish writes what is left.
func (b *builder) finish() error {
	defer func() {
		for _, st := range b.stmts {
			st.Close()
		}
	}()
	if err := b.flushTerms(); err != nil {
		return err
	}
	if err := b.flushOwners(); err != nil {
		return err
	}
	return b.flushPhones()
}

// placeholders is "(?,?,…),(?,?,…)…": rows groups of n.
func placeholders(rows, n int) string {
	one := "(" + strings.TrimSuffix(strings.Repeat("?,", n), ",") + ")"
	return strings.TrimSuffix(strings.Repeat(one+",", rows), ",")
}

// encodeFlags packs a phone's flags into an integer: the lists reported
// (16 bits), then 2 bits per list.
func encodeFlags(f layout.Flags) int64 {
	v := int64(f.Has)
	for k := layout.FlagKind(0); k < 16; k++ {
		v |= int64(f.Of(k)) << (16 + 2*k)
	}
	return v
}

// decodeFlags is encodeFlags undone.
func decodeFlags(v int64) layout.Flags {
	var f layout.Flags
	has := layout.Kinds(v & 0xffff)
	for _, k := range has.List() {
		f.Set(k, layout.Flag((v>>(16+2*k))&3))
	}
	return f
}

// fileMeta is what Sync knows of a result before reading it.
type fileMeta struct {
	name             string
	size, mtime      int64
	recSize, recTime int64
	meta             library.Meta
	hasRecord        bool
}

// kindOf is the file's kind: its job record's, else the layout's.
func (f *fileMeta) kindOf(l *layout.Layout) layout.FileKind {
	switch f.meta.Kind {
	case jobs.KindTrace:
		return layout.KindTrace
	case jobs.KindDNC:
		return layout.KindDNC
	}
	if l.Kind == layout.KindTrace || l.Kind == layout.KindDNC {
		return l.Kind
	}
	return ""
}

// date is when the file's job completed (else was created), from its job
// record; else the file's modification time. dated says whether its rows
// may be reused: a job record is needed, and a scrub's answers only from a
// job of ours (an imported DNC result's date is its file's, which says
// nothing of when it was scrubbed).
func (f *fileMeta) date() (int64, bool) {
	dated := f.hasRecord && !(f.meta.Kind == jobs.KindDNC && strings.HasPrefix(f.meta.JobID, importedPrefix))
	switch {
	case !f.meta.CompletedAt.IsZero():
		return f.meta.CompletedAt.Unix(), dated
	case !f.meta.CreatedAt.IsZero():
		return f.meta.CreatedAt.Unix(), dated
	}
	return f.mtime / 1e9, false
}

// importedPrefix starts the job id of a result imported from elsewhere.
const importedPrefix = "imp_"

// errUnreadable marks a file that is not a result the index can read (no
// header, a line or a row past the limits a list keeps, not an ordinary
// file): it is noted with the reason, not indexed.
var errUnreadable = errors.New("not read")

// unreadable is errUnreadable with the reason.
func unreadable(why error) error { return fmt.Errorf("%w: %v", errUnreadable, why) }

// notRead is the reading error that makes a file unreadable (the file's
// own fault), else err as it is (the disk's, the context's).
func notRead(err error) error {
	if errors.Is(err, library.ErrTooLong) || errors.Is(err, input.ErrNotRegular) {
		return unreadable(err)
	}
	return err
}

// readFile streams the file's rows into b (created once the layout is
// known). progress receives the bytes read.
func (x *Index) readFile(ctx context.Context, tx *sqldb.Tx, id int64, f *fileMeta, progress func(int64)) (*builder, *layout.Layout, error) {
	fh, err := input.OpenRegular(x.pathOf(f.name))
	if err != nil {
		return nil, nil, notRead(err)
	}
	defer fh.Close()
	rr, err := library.NewRowReader(fh)
	if err != nil {
		if errors.Is(err, io.EOF) || strings.Contains(err.Error(), "header") {
			return nil, nil, unreadable(errors.New("no header row"))
		}
		return nil, nil, notRead(err)
	}
	// The layout from the first rows, then those rows and the rest.
	sample, err := readSample(rr)
	if err != nil {
		return nil, nil, err
	}
	// The layout as every reader of the file reads it: over the whole file,
	// with the person's answers for its header.
	l, err := library.DetectLayoutContext(ctx, x.pathOf(f.name), layout.Options{Corrections: x.corrections})
	if err != nil {
		return nil, nil, err
	}
	b := newBuilder(ctx, tx, id, l, f.kindOf(l), f.meta.Mapping)
	for _, s := range sample {
		if err := b.add(s.rec, s.off, s.line); err != nil {
			return nil, nil, err
		}
	}
	if err := addRest(ctx, rr, b, progress); err != nil {
		return nil, nil, err
	}
	if err := b.finish(); err != nil {
		return nil, nil, err
	}
	if progress != nil {
		progress(f.size)
	}
	return b, l, nil
}

// heldRow is a row read ahead, with where it was.
type heldRow struct {
	rec  []string
	off  int64
	line int
}

// readSample reads the first rows of a file, those its layout is first
// seen from.
func readSample(rr *library.RowReader) ([]heldRow, error) {
	var sample []heldRow
	for len(sample) < library.LayoutSample {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, notRead(err)
		}
		sample = append(sample, heldRow{slices.Clone(rec), rr.Offset(), rr.Line()})
	}
	return sample, nil
}

// addRest adds the rest of the file's rows to b, reporting progress in
// bytes and giving way to the window every 4,096 rows.
func addRest(ctx context.Context, rr *library.RowReader, b *builder, progress func(int64)) error {
	for n := 0; ; n++ {
		rec, err := rr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return notRead(err)
		}
		if err := b.add(rec, rr.Offset(), rr.Line()); err != nil {
			return err
		}
		if n&4095 == 0 {
			if err := ctx.Err(); err != nil {
				return err
			}
			if progress != nil {
				progress(rr.Offset())
			}
			// Leave room for the window on a busy machine.
			runtime.Gosched()
		}
	}
	return nil
}

// kindName is a file kind as files.kind keeps it.
func kindName(k layout.FileKind) string {
	switch k {
	case layout.KindTrace:
		return string(jobs.KindTrace)
	case layout.KindDNC:
		return string(jobs.KindDNC)
	}
	return ""
}

// cellTerms are the terms the index keeps for a value of a column of kind
// k (what the builder adds, one value at a time).
func cellTerms(k colKind, v string) []string {
	switch k {
	case colName:
		return Words(v)
	case colAddress:
		return addressTerms(v)
	case colZip:
		if z := Zip5(v); z != "" {
			return []string{z}
		}
		return addressTerms(v)
	case colEmail:
		if e := emailTerm(v); e != "" {
			return []string{e}
		}
	case colPhone:
		if k := phone.Key(v); k != 0 {
			return []string{strconv.FormatUint(k, 10)}
		}
	}
	return nil
}

func addressTerms(v string) []string {
	var out []string
	for _, w := range Words(v) {
		if c := canon(w); c != "#" {
			out = append(out, c)
		}
	}
	return out
}
