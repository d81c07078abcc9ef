package wizard

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/mapping"
	"github.com/skipdesk/skipdesk/ui/flow"

	"github.com/skipdesk/skipdesk/ui/keys"
)

// notMapped is the Select option that clears a slot.
const notMapped = "(not mapped)"

// maxProblemRunes caps a problem shown next to a field: "available headers"
// of a 200-column file would otherwise fill the screen.
const maxProblemRunes = 360

// origin says where a slot's mapping came from, for the confidence indicator.
type origin struct {
	auto bool
	// certain: the header names the field exactly (mapping.Guess.Certain).
	certain    bool
	confidence float64
	reason     string
	preset     string
}

// board is the mapping board: the file's headers as draggable chips, the
// service fields as slots grouped as the spec groups them, the problems of
// the mapping next to the field or group they concern.
//
// A change of mapping revalidates and updates only what changed: the ten
// slots, the group labels and the chips whose state moved. Nothing is rebuilt.
type board struct {
	headers []string
	column  map[string]int // header → index
	sample  [][]string
	// check validates a mapping with the application layer's rules (the
	// mode and the accepted splits are the wizard's).
	check func(mapping.Mapping) mapping.Result

	m       mapping.Mapping
	origins map[string]origin
	result  mapping.Result

	pool       []*chip
	poolBox    *fyne.Container
	poolScroll *container.Scroll
	poolTitle  *widget.Label
	find       *keys.Entry // "Find a column" (long lists only; Escape closes the wizard)
	slots      []*slot
	slotByK    map[string]*slot
	groups     map[string]*groupBox
	address    *widget.Label // "no full address group"
	general    *widget.Label // problems with no slot (unknown keys)
	dropUnk    *widget.Button
	slotPane   *container.Scroll
	slotBox    *fyne.Container

	layer   *fyne.Container
	ghost   *ghost
	drag    dragState
	root    fyne.CanvasObject
	sample3 map[string]string

	updating bool // true while the board sets its own Selects
	onChange func()
	// onConfirm is called when the person says a field's column is right
	// although its values do not look like the field's.
	onConfirm func(key string)
}

type dragState struct {
	active bool
	from   *chip
	grab   fyne.Position // pointer offset inside the chip
	ptr    fyne.Position // absolute pointer
	over   *slot
}

type slot struct {
	field   mapping.Field
	card    *fyne.Container
	bg      *canvas.Rectangle
	chip    *chip
	hint    *widget.Label
	sel     *keys.Select
	conf    *widget.Label
	samples *widget.Label
	problem *widget.Label
	// confirm says the column is right although most of its values do
	// not look like the field's (shown while that holds the mapping back).
	confirm *widget.Button
	body    *fyne.Container
	needed  bool
}

type groupBox struct {
	name    string
	title   *widget.Label
	problem *widget.Label
	box     *fyne.Container
}

// newBoard builds the board for a file. sample rows are aligned with
// headers; check validates a mapping.
func newBoard(headers []string, sample [][]string, check func(mapping.Mapping) mapping.Result) *board {
	b := &board{
		headers: headers,
		column:  make(map[string]int, len(headers)),
		sample:  sample,
		check:   check,
		m:       mapping.Mapping{},
		origins: map[string]origin{},
		slotByK: map[string]*slot{},
		groups:  map[string]*groupBox{},
		ghost:   newGhost(),
		sample3: map[string]string{},
	}
	for i, h := range headers {
		if _, dup := b.column[h]; !dup {
			b.column[h] = i
		}
	}
	b.build()
	b.refresh()
	return b
}

func (b *board) build() {
	// The header pool: every header as a chip, wrapping, scrolled.
	objs := make([]fyne.CanvasObject, len(b.headers))
	b.pool = make([]*chip, len(b.headers))
	for i, h := range b.headers {
		c := newChip(h, "", chipFree)
		c.onDrag, c.onDragEnd = b.chipDragged, b.chipDragEnd
		b.pool[i] = c
		objs[i] = c
	}
	// The pool asks only for its widest chip: a flow, not a RowWrapLayout,
	// whose minimum after a layout is the width it was given (the window
	// could then never be made narrower again).
	b.poolBox = flow.New(objs...)
	b.poolTitle = widget.NewLabelWithStyle(fmt.Sprintf("Columns in your file (%d)", len(b.headers)), fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	b.poolTitle.Truncation = fyne.TextTruncateEllipsis
	poolHint := wrapping("Drag one onto a field, or pick it in the field's list.", widget.MediumImportance)
	top := container.NewVBox(b.poolTitle, poolHint)
	if len(b.headers) > findFrom {
		// A long list of columns gets a search box.
		b.find = keys.NewEntry()
		b.find.SetPlaceHolder("Find a column…")
		b.find.OnChanged = b.findColumns
		top.Add(b.find)
	}
	b.poolScroll = container.NewVScroll(b.poolBox)
	pool := container.NewBorder(top, nil, nil, nil, b.poolScroll)

	// The slots, grouped.
	options := append([]string{notMapped}, b.headers...)
	order := []string{mapping.GroupName, mapping.GroupProperty, mapping.GroupMailing}
	titles := map[string]string{
		mapping.GroupName:     "Name",
		mapping.GroupProperty: "Property address",
		mapping.GroupMailing:  "Mailing address",
	}
	for _, g := range order {
		gb := &groupBox{name: g}
		gb.title = widget.NewLabelWithStyle(titles[g], fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		gb.problem = newProblemLabel()
		b.groups[g] = gb
	}
	for _, f := range mapping.Fields(jobs.KindTrace) {
		s := b.newSlot(f, options)
		b.slots = append(b.slots, s)
		b.slotByK[f.Key] = s
	}
	b.address = newProblemLabel()
	b.general = newProblemLabel()
	b.dropUnk = widget.NewButton("Remove unknown keys", b.removeUnknown)
	b.dropUnk.Hide()

	var sections []fyne.CanvasObject
	sections = append(sections, b.general, b.dropUnk)
	for _, g := range order {
		gb := b.groups[g]
		var cells []fyne.CanvasObject
		for _, s := range b.slots {
			if s.field.Group == g {
				cells = append(cells, s.card)
			}
		}
		grid := container.NewGridWithColumns(2, cells...)
		gb.box = container.NewVBox(gb.title, gb.problem, grid)
		if g == mapping.GroupProperty {
			sections = append(sections, widget.NewSeparator(), b.address)
		}
		sections = append(sections, gb.box)
	}
	b.slotBox = container.NewVBox(sections...)
	b.slotPane = container.NewVScroll(b.slotBox)

	split := container.NewHSplit(pool, b.slotPane)
	split.Offset = 0.32
	b.layer = container.NewWithoutLayout(b.ghost.box)
	b.root = container.NewStack(split, b.layer)
}

func newProblemLabel() *widget.Label {
	l := wrapping("", widget.DangerImportance)
	l.Hide()
	return l
}

func (b *board) newSlot(f mapping.Field, options []string) *slot {
	s := &slot{field: f}
	s.bg = canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	s.bg.CornerRadius = theme.InputRadiusSize()
	s.bg.StrokeWidth = 1
	s.chip = newChip("", f.Key, chipInSlot)
	s.chip.shrink = true
	s.chip.onDrag, s.chip.onDragEnd = b.chipDragged, b.chipDragEnd
	s.hint = widget.NewLabel("Drop a column here")
	s.hint.Importance = widget.LowImportance
	s.sel = keys.NewSelect(options, nil)
	s.sel.PlaceHolder = notMapped
	s.sel.OnChanged = func(v string) { b.selected(s, v) }
	s.conf = widget.NewLabel("")
	s.conf.TextStyle = fyne.TextStyle{Italic: true}
	s.conf.Alignment = fyne.TextAlignTrailing
	s.samples = widget.NewLabel("")
	s.samples.Truncation = fyne.TextTruncateEllipsis
	s.samples.Importance = widget.LowImportance
	s.problem = newProblemLabel()
	s.confirm = widget.NewButton("This column is right", func() {
		if b.onConfirm != nil {
			b.onConfirm(f.Key)
		}
	})
	s.confirm.Hide()

	title := widget.NewLabelWithStyle(f.Label, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	// Every line gives way before the board grows: the chip and the
	// samples are cut to the slot's width; the title, the dropdown and the
	// confidence keep theirs.
	head := title
	target := container.NewStack(s.chip, s.hint)
	row := container.NewBorder(nil, nil, nil, s.sel, target)
	sampleLine := container.NewBorder(nil, nil, nil, s.conf, s.samples)
	s.body = container.NewVBox(head, row, sampleLine, s.problem, container.NewHBox(s.confirm))
	s.card = container.NewStack(s.bg, container.NewPadded(s.body))
	return s
}

// findFrom is the number of columns above which the pool has a search box.
const findFrom = 12

// findColumns shows the chips whose header contains q (any case); the
// others are hidden until the search is cleared.
func (b *board) findColumns(q string) {
	q = strings.ToLower(strings.TrimSpace(q))
	shown := 0
	for _, c := range b.pool {
		ok := q == "" || strings.Contains(strings.ToLower(c.header), q)
		if ok {
			shown++
			if !c.Visible() {
				c.Show()
			}
		} else if c.Visible() {
			c.Hide()
		}
	}
	if q == "" {
		b.poolTitle.SetText(fmt.Sprintf("Columns in your file (%d)", len(b.headers)))
	} else {
		b.poolTitle.SetText(fmt.Sprintf("Columns in your file (%d of %d)", shown, len(b.headers)))
	}
	b.poolBox.Refresh()
	b.poolScroll.ScrollToTop()
	b.poolScroll.Refresh()
}

// object is the board's canvas object.
func (b *board) object() fyne.CanvasObject { return b.root }

// mapping returns a copy of the current mapping without cleared keys.
func (b *board) mapping() mapping.Mapping { return b.m.Clean() }

// setMapping replaces the whole mapping (auto-mapping, a preset).
func (b *board) setMapping(m mapping.Mapping, origins map[string]origin) {
	b.m = m.Clean()
	b.origins = map[string]origin{}
	for k, o := range origins {
		b.origins[k] = o
	}
	b.changed()
}

// revalidate validates again after a change the board does not see (the
// trace mode: names are ignored in enhanced).
func (b *board) revalidate() { b.changed() }

// assign maps key to header. A header feeds one field only: the field that
// had it loses it (a drag from one slot to another moves the column).
func (b *board) assign(key, header string) {
	if b.m[key] == header {
		return
	}
	for k, h := range b.m {
		if h == header && k != key {
			if _, known := b.slotByK[k]; known {
				delete(b.m, k)
				delete(b.origins, k)
			}
		}
	}
	b.m[key] = header
	delete(b.origins, key)
	b.changed()
}

// unassign clears a field.
func (b *board) unassign(key string) {
	if _, ok := b.m[key]; !ok {
		return
	}
	delete(b.m, key)
	delete(b.origins, key)
	b.changed()
}

func (b *board) removeUnknown() {
	for k := range b.m {
		if _, known := b.slotByK[k]; !known {
			delete(b.m, k)
		}
	}
	b.changed()
}

func (b *board) selected(s *slot, v string) {
	if b.updating {
		return
	}
	if v == "" || v == notMapped {
		b.unassign(s.field.Key)
		return
	}
	b.assign(s.field.Key, v)
}

func (b *board) changed() {
	b.refresh()
	if b.onChange != nil {
		b.onChange()
	}
}

func (b *board) validate() mapping.Result { return b.check(b.m) }

// refresh validates and brings every slot, group and chip up to date,
// touching only the widgets whose content changed.
func (b *board) refresh() {
	b.result = b.validate()

	pp := b.placeProblems()
	relayout := setProblem(b.general, pp.general)
	relayout = setProblem(b.address, pp.address) || relayout
	for g, gb := range b.groups {
		relayout = setProblem(gb.problem, pp.group[g]) || relayout
	}
	relayout = showIf(b.dropUnk, pp.unknown) || relayout

	b.updating = true
	for _, s := range b.slots {
		relayout = b.refreshSlot(s, pp.slot[s.field.Key], pp.needed[s.field.Key]) || relayout
		relayout = showIf(s.confirm, pp.confirm[s.field.Key]) || relayout
	}
	b.updating = false
	if relayout {
		// A problem appeared, went or changed length: the slot pane's
		// layout (and only it) is redone.
		b.slotBox.Refresh()
	}

	// Chips of the pool: mapped ones are dimmed.
	used := make(map[string]bool, len(b.m))
	for _, h := range b.m {
		used[h] = true
	}
	for _, c := range b.pool {
		st := chipFree
		if used[c.header] {
			st = chipMapped
		}
		c.set(c.header, st)
	}
}

// showChip shows the slot's chip for header h in state st, in place of
// the hint.
func (s *slot) showChip(h string, st chipState) {
	changed := s.chip.set(h, st)
	if !s.chip.Visible() {
		s.chip.Show()
		s.hint.Hide()
		changed = true
	}
	if changed {
		s.body.Refresh() // the chip's width follows its header
	}
}

// refreshSlot updates a slot; it reports whether its height may have changed.
func (b *board) refreshSlot(s *slot, problems []string, needed bool) bool {
	key := s.field.Key
	h := b.m[key]
	_, inFile := b.column[h]
	switch {
	case h == "":
		s.chip.set("", chipInSlot)
		if s.chip.Visible() {
			s.chip.Hide()
			s.hint.Show()
			s.body.Refresh()
		}
		if s.sel.Selected != "" {
			s.sel.ClearSelected()
		}
	case inFile:
		s.showChip(h, chipInSlot)
		if s.sel.Selected != h {
			s.sel.SetSelected(h)
		}
	default:
		s.showChip(h, chipMissing)
		if s.sel.Selected != "" {
			s.sel.ClearSelected()
		}
	}
	setText(s.samples, b.samplesOf(h))
	conf, imp := "", widget.MediumImportance
	if h != "" {
		if o, ok := b.origins[key]; ok {
			switch {
			case o.preset != "":
				conf, imp = "from preset "+o.preset, widget.MediumImportance
			case o.auto && o.certain:
				conf, imp = "auto · certain", widget.SuccessImportance
			case o.auto && o.confidence >= 0.9:
				conf, imp = fmt.Sprintf("auto · %d%% sure", pct(o.confidence)), widget.SuccessImportance
			case o.auto:
				conf, imp = fmt.Sprintf("auto · %d%% sure — check", pct(o.confidence)), widget.WarningImportance
			}
		}
	}
	if s.conf.Importance != imp {
		s.conf.Importance = imp
		s.conf.Refresh()
	}
	setText(s.conf, conf)
	changed := setProblem(s.problem, problems)
	s.needed = needed
	b.paintSlot(s, false)
	return changed
}

func pct(f float64) int { return int(f*100 + 0.5) }

// placedProblems are the mapping's problems by where the board shows
// them: beside a field's slot, a group's, the address's, or above all;
// the fields an error needs filled; those whose column's values do not
// fit until the person confirms it; and whether a key is unknown.
type placedProblems struct {
	slot, group      map[string][]string
	address, general []string
	needed, confirm  map[string]bool
	unknown          bool
}

// placeProblems sorts the last validation's problems by where they show.
func (b *board) placeProblems() placedProblems {
	pp := placedProblems{slot: map[string][]string{}, group: map[string][]string{}, needed: map[string]bool{}, confirm: map[string]bool{}}
	for _, p := range b.result.Problems {
		if p.Severity == mapping.Error {
			for _, k := range p.Keys {
				pp.confirm[k] = pp.confirm[k] || p.Code == mapping.CodeValuesDontFit
				pp.needed[k] = pp.needed[k] || b.m[k] == ""
			}
		}
		switch {
		case p.Code == mapping.CodeUnknownKey:
			pp.unknown = true
			pp.general = append(pp.general, p.Message)
		case p.Group == mapping.GroupAddress:
			pp.address = append(pp.address, p.Message)
		case b.groups[p.Group] != nil:
			pp.group[p.Group] = append(pp.group[p.Group], p.Message)
		case !b.placeInSlots(pp.slot, p):
			pp.general = append(pp.general, p.Message)
		}
	}
	return pp
}

// placeInSlots puts p beside each of its fields' slots; false when none
// of them has a slot.
func (b *board) placeInSlots(slot map[string][]string, p mapping.Problem) bool {
	placed := false
	for _, k := range p.Keys {
		if _, ok := b.slotByK[k]; ok {
			slot[k] = append(slot[k], p.Message)
			placed = true
		}
	}
	return placed
}

// showIf shows o when on, hides it otherwise; it reports a change.
func showIf(o fyne.CanvasObject, on bool) bool {
	if o.Visible() == on {
		return false
	}
	if on {
		o.Show()
	} else {
		o.Hide()
	}
	return true
}

// paintSlot colours a slot's frame: highlighted under a dragged chip, red
// when a field the rules need is empty.
func (b *board) paintSlot(s *slot, hover bool) {
	th := fyne.CurrentApp().Settings().Theme()
	v := fyne.CurrentApp().Settings().ThemeVariant()
	fill := th.Color(theme.ColorNameInputBackground, v)
	stroke := th.Color(theme.ColorNameInputBorder, v)
	switch {
	case hover:
		fill = th.Color(theme.ColorNameHover, v)
		stroke = th.Color(theme.ColorNamePrimary, v)
	case s.needed:
		stroke = th.Color(theme.ColorNameError, v)
	}
	if s.bg.FillColor == fill && s.bg.StrokeColor == stroke {
		return
	}
	s.bg.FillColor, s.bg.StrokeColor = fill, stroke
	s.bg.Refresh()
}

// samplesOf is a line of the first distinct non-blank values of a column.
func (b *board) samplesOf(header string) string {
	if header == "" {
		return " "
	}
	if s, ok := b.sample3[header]; ok {
		return s
	}
	i, ok := b.column[header]
	if !ok {
		return "not in this file"
	}
	var vals []string
	seen := map[string]bool{}
	for _, row := range b.sample {
		if i >= len(row) {
			continue
		}
		v := strings.TrimSpace(row[i])
		if v == "" || seen[v] {
			continue
		}
		seen[v] = true
		vals = append(vals, v)
		if len(vals) == 3 {
			break
		}
	}
	s := "e.g. " + strings.Join(vals, " · ")
	if len(vals) == 0 {
		s = "blank in the first rows"
	}
	b.sample3[header] = s
	return s
}

func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// setProblem shows msgs in l (hidden when none); it reports whether the
// label changed, so that its container can be laid out again.
func setProblem(l *widget.Label, msgs []string) bool {
	if len(msgs) == 0 {
		if l.Visible() {
			l.SetText("")
			l.Hide()
			return true
		}
		return false
	}
	for i, m := range msgs {
		if utf8.RuneCountInString(m) > maxProblemRunes {
			msgs[i] = string([]rune(m)[:maxProblemRunes-1]) + "…"
		}
	}
	text := strings.Join(msgs, "\n")
	if l.Text == text && l.Visible() {
		return false
	}
	l.SetText(text)
	l.Show()
	return true
}

// ---- dragging ----------------------------------------------------------

// pointerOf is the absolute pointer position of a drag event. The desktop
// driver fills AbsolutePosition; the test driver gives only the start
// position inside the object and the whole distance dragged.
func pointerOf(obj fyne.CanvasObject, ev *fyne.DragEvent) fyne.Position {
	if !ev.AbsolutePosition.IsZero() {
		return ev.AbsolutePosition
	}
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(obj)
	return at.Add(ev.Position).Add(fyne.NewPos(ev.Dragged.DX, ev.Dragged.DY))
}

func (b *board) chipDragged(c *chip, ev *fyne.DragEvent) {
	d := fyne.CurrentApp().Driver()
	ptr := pointerOf(c, ev)
	if !b.drag.active {
		grab := ptr.Subtract(d.AbsolutePositionForObject(c))
		if grab.X < 0 || grab.Y < 0 || grab.X > c.Size().Width || grab.Y > c.Size().Height {
			grab = fyne.NewPos(c.Size().Width/2, c.Size().Height/2)
		}
		b.drag = dragState{active: true, from: c, grab: grab}
		b.ghost.show(c.header, b.ghostPos(ptr))
	}
	b.drag.ptr = ptr
	b.ghost.moveTo(b.ghostPos(ptr))
	over := b.slotAt(ptr)
	if over != b.drag.over {
		if b.drag.over != nil {
			b.paintSlot(b.drag.over, false)
		}
		if over != nil {
			b.paintSlot(over, true)
		}
		b.drag.over = over
	}
}

func (b *board) ghostPos(ptr fyne.Position) fyne.Position {
	at := fyne.CurrentApp().Driver().AbsolutePositionForObject(b.layer)
	return ptr.Subtract(at).Subtract(b.drag.grab)
}

// chipDragEnd drops the dragged chip: onto a slot it maps the header there;
// a slot's chip dropped anywhere else unmaps that slot.
func (b *board) chipDragEnd(c *chip) {
	if !b.drag.active {
		return
	}
	ds := b.drag
	b.drag = dragState{}
	b.ghost.hide()
	if ds.over != nil {
		b.paintSlot(ds.over, false)
	}
	b.drop(c.header, c.key, b.slotAt(ds.ptr))
}

// drop is what a drop does, whichever way it was made: header from slot
// fromKey ("" for the pool) dropped on target (nil: outside every slot).
func (b *board) drop(header, fromKey string, target *slot) {
	switch {
	case target != nil:
		b.assign(target.field.Key, header)
	case fromKey != "":
		b.unassign(fromKey)
	}
}

// slotAt hit-tests the slots: there is no drop-target API between widgets,
// so the board compares the pointer with each slot's absolute rectangle,
// within the visible part of the slot pane.
func (b *board) slotAt(ptr fyne.Position) *slot {
	d := fyne.CurrentApp().Driver()
	if !inside(ptr, d.AbsolutePositionForObject(b.slotPane), b.slotPane.Size()) {
		return nil
	}
	for _, s := range b.slots {
		if inside(ptr, d.AbsolutePositionForObject(s.card), s.card.Size()) {
			return s
		}
	}
	return nil
}

// reveal scrolls the slot pane so that s is in view.
func (b *board) reveal(s *slot) {
	d := fyne.CurrentApp().Driver()
	y := d.AbsolutePositionForObject(s.card).Y - d.AbsolutePositionForObject(b.slotBox).Y
	view := b.slotPane.Size().Height
	off := b.slotPane.Offset.Y
	if y >= off && y+s.card.Size().Height <= off+view {
		return
	}
	b.slotPane.ScrollToOffset(fyne.NewPos(0, max(0, y-theme.Padding())))
}

func inside(p, at fyne.Position, size fyne.Size) bool {
	return p.X >= at.X && p.Y >= at.Y && p.X < at.X+size.Width && p.Y < at.Y+size.Height
}
