package uitest

import (
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"
)

// Work handed to one Thread from many goroutines never overlaps.
func TestThreadTakesTurns(t *testing.T) {
	var th Thread
	var wg sync.WaitGroup
	inside, most := 0, 0
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 100 {
				th.Do(func() {
					inside++
					most = max(most, inside)
					inside--
				})
			}
		}()
	}
	wg.Wait()
	if most != 1 {
		t.Fatalf("%d at once on the thread", most)
	}
}

// A shot is written where the variable says, and nowhere when it is unset.
func TestSaveShot(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 3, 2))
	t.Setenv("UITEST_SHOTS", "")
	SaveShot(t, "UITEST_SHOTS", "none.png", func() image.Image { t.Fatal("captured with no folder"); return nil })
	dir := filepath.Join(t.TempDir(), "shots")
	t.Setenv("UITEST_SHOTS", dir)
	SaveShot(t, "UITEST_SHOTS", "a.png", func() image.Image { return img })
	f, err := os.Open(filepath.Join(dir, "a.png"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got, err := png.Decode(f)
	if err != nil || got.Bounds() != img.Bounds() {
		t.Fatalf("read back %v, %v", got.Bounds(), err)
	}
}

// Text reads the labels, the buttons and the canvas texts, and nothing
// where nothing is written.
func TestText(t *testing.T) {
	test.NewTempApp(t)
	o := container.NewVBox(widget.NewLabel("Not enough credits"), widget.NewButton("Top up", nil),
		container.NewHBox(canvas.NewText("needs 2 credits", color.Black)))
	got := Text(o)
	for _, want := range []string{"Not enough credits\n", "Top up\n", "needs 2 credits\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("Text = %q, lacks %q", got, want)
		}
	}
	if got := Text(container.NewVBox(widget.NewEntry())); strings.TrimSpace(got) != "" {
		t.Errorf("Text of an empty entry = %q", got)
	}
}
