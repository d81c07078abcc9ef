package ui

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
)

// Every character the window can show from the program's own text is in the
// fonts Fyne bundles. A character they lack is drawn from a system font where
// one has it (most Linux desktops) and as a replacement box where none does
// (Windows, whose fonts Fyne does not search the same way): "→" showed as a
// box under Windows. The text comes from string literals in ui/ and jobs/
// (jobs words the errors and explanations the window shows).
func TestTextUsesOnlyBundledGlyphs(t *testing.T) {
	// Each text style falls back to the bundled emoji font, then to the
	// system's fonts: a character must be in every text face, or in the emoji
	// font. (The window shows no monospace text; if it ever does, add
	// theme.DefaultTextMonospaceFont() here.)
	faces := map[string]fyne.Resource{
		"regular":     theme.DefaultTextFont(),
		"bold":        theme.DefaultTextBoldFont(),
		"italic":      theme.DefaultTextItalicFont(),
		"bold italic": theme.DefaultTextBoldItalicFont(),
	}
	parsed := map[string]*font.Face{}
	for name, res := range faces {
		parsed[name] = parseFont(t, res)
	}
	emoji := parseFont(t, theme.DefaultEmojiFont())
	missing := func(r rune) []string {
		if _, ok := emoji.NominalGlyph(r); ok {
			return nil
		}
		var lack []string
		for name, f := range parsed {
			if _, ok := f.NominalGlyph(r); !ok {
				lack = append(lack, name)
			}
		}
		sort.Strings(lack)
		return lack
	}

	var problems []string
	checked := 0
	for _, dir := range []string{".", "../jobs"} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
			if err != nil {
				return err
			}
			checked++
			ast.Inspect(f, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || (lit.Kind != token.STRING && lit.Kind != token.CHAR) {
					return true
				}
				s, err := strconv.Unquote(lit.Value)
				if err != nil {
					return true
				}
				for _, r := range s {
					if r < 0x20 || r == 0x7f {
						continue // control characters (\n, \t, \x1f) are not drawn
					}
					if lack := missing(r); len(lack) > 0 {
						problems = append(problems, fmt.Sprintf("%s: %q (%U) is not in the %s font",
							fset.Position(lit.Pos()), r, r, strings.Join(lack, ", ")))
					}
				}
				return true
			})
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if checked < 50 {
		t.Fatalf("only %d files checked: the walk missed the sources", checked)
	}
	if len(problems) > 0 {
		t.Errorf("characters Fyne's fonts do not have (use ASCII such as -> or words instead):\n%s", strings.Join(problems, "\n"))
	}
}

func parseFont(t *testing.T, res fyne.Resource) *font.Face {
	t.Helper()
	f, err := font.ParseTTF(bytes.NewReader(res.Content()))
	if err != nil {
		t.Fatalf("font %s: %v", res.Name(), err)
	}
	return f
}

// The check itself finds a missing character and passes a present one.
func TestBundledFontsCoverage(t *testing.T) {
	f := parseFont(t, theme.DefaultTextFont())
	for _, r := range "Aé…—·•" {
		if _, ok := f.NominalGlyph(r); !ok {
			t.Errorf("%q should be in the text font", r)
		}
	}
	if _, ok := f.NominalGlyph('→'); ok {
		t.Error("the text font has → now: the glyph rules can be relaxed")
	}
}
