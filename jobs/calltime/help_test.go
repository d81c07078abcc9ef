package calltime

import (
	"strings"
	"testing"
)

// TestHelpTextNamesEveryRule: each rule's source and note appear under the
// table's version, and the sections are in order.
func TestHelpTextNamesEveryRule(t *testing.T) {
	tab, err := Rules()
	if err != nil {
		t.Fatal(err)
	}
	text := HelpText(tab)
	if !strings.HasPrefix(text, "Calling rules, version "+tab.Version) {
		t.Errorf("help starts %q", text[:60])
	}
	for _, r := range tab.Rules {
		if !strings.Contains(text, r.Source) || !strings.Contains(text, r.Note) {
			t.Errorf("line %d (%s) is not in the help", r.Line, r.Source)
		}
	}
	for _, want := range []string{
		"FL every day 08:00–20:00 — Fla. Stat. § 501.616(6)(a), since 2021-07-01",
		"TX Sunday 12:00–21:00",
		"MS Monday–Saturday 08:00–20:00 UTC-06:00",
		"FL at most 3 calls",
		"VA 10y text:",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if strings.Index(text, "Calling windows") > strings.Index(text, "Days with no calls") {
		t.Error("sections out of order")
	}
}

// TestHelpMarkdown: the window's Help has a heading per kind and an item
// per rule, its state, days and hours in bold before its source; text that
// Markdown would read (an asterisk, an underscore) is escaped.
func TestHelpMarkdown(t *testing.T) {
	tab, err := Rules()
	if err != nil {
		t.Fatal(err)
	}
	md := HelpMarkdown(tab)
	items := 0
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "- **") {
			items++
		}
	}
	if items != len(tab.Rules) {
		t.Errorf("%d items for %d rules", items, len(tab.Rules))
	}
	for _, want := range []string{"### Calling windows (the called person's local time)",
		"- **FL every day 08:00–20:00** — Fla. Stat. § 501.616(6)(a), since 2021-07-01"} {
		if !strings.Contains(md, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if got := mdEscape("a_b*c [d]"); got != `a\_b\*c \[d\]` {
		t.Errorf("escaped %q", got)
	}
}
