//go:build harness

package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
)

// Pointer input. Click and Drag move the real X pointer with xdotool, so the
// event goes through the window system, GLFW and Fyne's hit-testing as a
// person's would. Where xdotool or an X display is missing they fall back to
// calling the object's Tapped / Dragged handlers and say so in the log.

// Click clicks the middle of obj with the left button.
func (h *Harness) Click(obj fyne.CanvasObject) error {
	at, err := h.settledCenter(obj)
	if err != nil {
		h.Logf("click without X (%v): calling Tapped", err)
		t, ok := obj.(fyne.Tappable)
		if !ok {
			return fmt.Errorf("e2e: click: %T is not tappable", obj)
		}
		h.Do(func() { t.Tapped(&fyne.PointEvent{}) })
		return nil
	}
	h.Logf("click %T at %d,%d", obj, at.X, at.Y)
	return xdotool(append(moveTo(at), "sleep", "0.15", "click", "1")...)
}

// Drag presses the left button on the middle of from, moves in steps to the
// middle of to and releases there.
func (h *Harness) Drag(from, to fyne.CanvasObject) error {
	a, errA := h.settledCenter(from)
	b, errB := h.settledCenter(to)
	if errA != nil || errB != nil {
		h.Logf("drag without X (%v): calling Dragged and DragEnd", errors(errA, errB))
		return h.syntheticDrag(from, to)
	}
	h.Logf("drag %T from %d,%d to %d,%d", from, a.X, a.Y, b.X, b.Y)
	args := append(moveTo(a), "sleep", "0.15", "mousedown", "1", "sleep", "0.15")
	const steps = 12
	for i := 1; i <= steps; i++ {
		x := a.X + (b.X-a.X)*i/steps
		y := a.Y + (b.Y-a.Y)*i/steps
		args = append(args, "mousemove", itoa(x), itoa(y), "sleep", "0.05")
	}
	args = append(args, "sleep", "0.2", "mouseup", "1")
	return xdotool(args...)
}

func (h *Harness) syntheticDrag(from, to fyne.CanvasObject) error {
	d, ok := from.(fyne.Draggable)
	if !ok {
		return fmt.Errorf("e2e: drag: %T is not draggable", from)
	}
	var ev fyne.DragEvent
	h.Do(func() {
		drv := fyne.CurrentApp().Driver()
		a := drv.AbsolutePositionForObject(from).Add(fyne.NewPos(from.Size().Width/2, from.Size().Height/2))
		b := drv.AbsolutePositionForObject(to).Add(fyne.NewPos(to.Size().Width/2, to.Size().Height/2))
		ev.AbsolutePosition = b
		ev.Position = fyne.NewPos(from.Size().Width/2+b.X-a.X, from.Size().Height/2+b.Y-a.Y)
		ev.Dragged = fyne.NewDelta(b.X-a.X, b.Y-a.Y)
		d.Dragged(&ev)
		d.DragEnd()
	})
	return nil
}

// point is a position on the X screen, in pixels.
type point struct{ X, Y int }

// moveTo are xdotool's arguments that move the pointer to p and wait
// until it is there; none when it is there already (a move there would
// wait for a motion event that never comes, until xdotool gives up).
func moveTo(p point) []string {
	if at, ok := pointerAt(); ok && at == p {
		return nil
	}
	return []string{"mousemove", "--sync", itoa(p.X), itoa(p.Y)}
}

// pointerAt is where the pointer is on the X screen.
func pointerAt() (point, bool) {
	out, err := exec.Command("xdotool", "getmouselocation", "--shell").Output()
	if err != nil {
		return point{}, false
	}
	var p point
	var n int
	for _, line := range strings.Fields(string(out)) {
		k, v, _ := strings.Cut(line, "=")
		if k != "X" && k != "Y" {
			continue
		}
		c, err := strconv.Atoi(v)
		if err != nil {
			return point{}, false
		}
		if k == "X" {
			p.X = c
		} else {
			p.Y = c
		}
		n++
	}
	return p, n == 2
}

// settledCenter is screenCenter once obj has its place: a dialog just
// shown is laid out at a later frame, and until then its buttons stand at
// the window's top left (a click there pressed nothing). The middle is
// taken frame after frame until two agree (a second at the most).
func (h *Harness) settledCenter(obj fyne.CanvasObject) (point, error) {
	at, err := h.screenCenter(obj)
	for range 60 {
		if err != nil {
			return at, err
		}
		frames(2) // one may be drawing as the wait starts
		var again point
		if again, err = h.screenCenter(obj); err == nil && again == at {
			return at, nil
		}
		at = again
	}
	return at, err
}

// screenCenter is the middle of obj on the X screen: the window's origin
// (from xdotool) plus the object's canvas position times the canvas scale.
// Objects larger than their minimum size are aimed at the middle of their
// minimum-size area, top left.
func (h *Harness) screenCenter(obj fyne.CanvasObject) (point, error) {
	if os.Getenv("DISPLAY") == "" {
		return point{}, fmt.Errorf("no DISPLAY")
	}
	if _, err := exec.LookPath("xdotool"); err != nil {
		return point{}, fmt.Errorf("xdotool is not installed")
	}
	var pos fyne.Position
	var size fyne.Size
	var scale float32
	var title string
	var visible bool
	h.Do(func() {
		pos = fyne.CurrentApp().Driver().AbsolutePositionForObject(obj)
		// The middle of what the object draws at its minimum: a check box
		// stretched across a form only reacts over its box and text.
		size = obj.Size().Min(obj.MinSize())
		scale = h.Window.Canvas().Scale()
		title = h.Window.Title()
		visible = obj.Visible()
	})
	if !visible || size.IsZero() {
		return point{}, fmt.Errorf("e2e: %T is not shown", obj)
	}
	ox, oy, err := windowOrigin(title)
	if err != nil {
		return point{}, err
	}
	return point{
		X: ox + int((pos.X+size.Width/2)*scale),
		Y: oy + int((pos.Y+size.Height/2)*scale),
	}, nil
}

// windowOrigin is the top-left corner of the window titled title.
func windowOrigin(title string) (x, y int, err error) {
	out, err := exec.Command("xdotool", "search", "--name", titlePattern(title)).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("e2e: no window titled %q: %v", title, err)
	}
	ids := strings.Fields(string(out))
	if len(ids) == 0 {
		return 0, 0, fmt.Errorf("e2e: no window titled %q", title)
	}
	geo, err := exec.Command("xdotool", "getwindowgeometry", "--shell", ids[0]).Output()
	if err != nil {
		return 0, 0, fmt.Errorf("e2e: geometry of %q: %v", title, err)
	}
	for _, line := range strings.Fields(string(geo)) {
		k, v, _ := strings.Cut(line, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "X":
			x = n
		case "Y":
			y = n
		}
	}
	return x, y, nil
}

// titlePattern matches a window title in xdotool's search. xdotool may
// compare with the Latin-1 WM_NAME, so only the title's ASCII start is
// matched ("SkipDesk — SANDBOX" is found as "^SkipDesk ").
func titlePattern(title string) string {
	ascii := title
	for i, r := range title {
		if r >= 0x80 {
			ascii = title[:i]
			break
		}
	}
	if ascii == title {
		return "^" + regexpQuote(title) + "$"
	}
	return "^" + regexpQuote(ascii)
}

func xdotool(args ...string) error {
	out, err := exec.Command("xdotool", args...).CombinedOutput()
	if err != nil {
		return fmt.Errorf("e2e: xdotool %s: %v: %s", strings.Join(args, " "), err, out)
	}
	drawn() // the app takes the events on its driver's next frames
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

func errors(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// Key presses and releases a key on the window with the keyboard focus
// (an X key name: "Return", "Escape").
func (h *Harness) Key(name string) error {
	h.Logf("key %s", name)
	return xdotool("key", "--clearmodifiers", name)
}

// Type types text on the window with the keyboard focus, key by key.
func (h *Harness) Type(text string) error {
	h.Logf("type %q", text)
	return xdotool("type", "--delay", "30", text)
}
