package calltime

import (
	"fmt"
	"strings"
)

// kindTitles head the sections of the Help text, in order.
var kindTitles = []struct {
	kind  Kind
	title string
}{
	{KindWindow, "Calling windows (the called person's local time)"},
	{KindBan, "Days with no calls"},
	{KindPresumption, "Area codes presumed to reach a resident"},
	{KindCap, "Calls per number in 24 hours"},
	{KindAutodial, "Autodialed calls"},
	{KindOptOut, "Opt-outs"},
	{KindRecords, "Records"},
	{KindNotice, "Left to you"},
}

// helpIntro is what the engine does with the rules, as Help says it.
var helpIntro = []string{
	"A phone may be called only when every place its person may be allows it, each at its own",
	"local time: the area code's state (and zone), and the states and ZIP zones of the owner's",
	"property and mailing addresses. A phone that cannot be placed is held to every state's rules",
	"in every zone. States not listed follow the federal rules only.",
}

// helpWriter writes Help's parts in one form: the title, the intro, a
// section's heading, a rule.
type helpWriter struct {
	title   func(version string) string
	intro   func(lines []string) string
	heading func(title string) string
	rule    func(r *Rule) string
}

// help writes the rules table with w: grouped by kind, one entry per rule,
// under the table's version and what the engine does with them.
func help(t *Table, w helpWriter) string {
	var b strings.Builder
	b.WriteString(w.title(t.Version))
	b.WriteString(w.intro(helpIntro))
	for _, k := range kindTitles {
		rows := kindRows(t, k.kind)
		if len(rows) == 0 {
			continue
		}
		b.WriteString(w.heading(k.title))
		for _, r := range rows {
			b.WriteString(w.rule(r))
		}
	}
	return b.String()
}

// HelpText renders the rules table as a person reads it: grouped by kind,
// one line per rule with its days, hours, source and note, under the
// table's version and what the engine does with them.
func HelpText(t *Table) string {
	return help(t, helpWriter{
		title:   func(v string) string { return "Calling rules, version " + v + "\n\n" },
		intro:   func(lines []string) string { return strings.Join(lines, "\n") + "\n" },
		heading: func(title string) string { return "\n" + title + "\n" },
		rule:    func(r *Rule) string { return "  " + ruleLine(r) + "\n" },
	})
}

// HelpMarkdown is HelpText as Markdown for a window: a heading per kind,
// one item per rule with its state, days and hours in bold, its source and
// note after; text in a proportional font that wraps under its item.
func HelpMarkdown(t *Table) string {
	return help(t, helpWriter{
		title:   func(v string) string { return "**Calling rules, version " + mdEscape(v) + "**\n\n" },
		intro:   func(lines []string) string { return mdEscape(strings.Join(lines, " ")) + "\n" },
		heading: func(title string) string { return "\n### " + mdEscape(title) + "\n\n" },
		rule:    func(r *Rule) string { return "- **" + mdEscape(ruleHead(r)) + "** — " + mdEscape(ruleTail(r)) + "\n" },
	})
}

// mdEscape keeps text that is not Markdown from being read as such.
func mdEscape(s string) string {
	return mdEscaper.Replace(s)
}

var mdEscaper = strings.NewReplacer(`\`, `\\`, `*`, `\*`, `_`, `\_`, "`", "\\`", `[`, `\[`, `]`, `\]`, `#`, `\#`, `<`, `\<`)

func kindRows(t *Table, k Kind) []*Rule {
	var out []*Rule
	for _, r := range t.Rules {
		if r.Kind == k {
			out = append(out, r)
		}
	}
	return out
}

// ruleLine is one rule in words: "FL  every day 08:00–20:00 — Fla. Stat. §
// 501.616(6)(a), since 2021-07-01; as amended by SB 1120 (2021)" (a note
// after a semicolon: the notes are written in lower case).
func ruleLine(r *Rule) string { return ruleHead(r) + " — " + ruleTail(r) }

// ruleHead is a rule's state, days, hours or value: "FL every day
// 08:00–20:00".
func ruleHead(r *Rule) string {
	state := r.State
	if state == Federal {
		state = "US (federal)"
	}
	parts := []string{state}
	if d := daysText(r.Days); d != "" {
		parts = append(parts, d)
	}
	if r.Kind == KindWindow {
		when := fmt.Sprintf("%s–%s", r.From, r.Until)
		if r.ClockName != "" {
			when += " " + r.ClockName
		}
		parts = append(parts, when)
	}
	if r.Value != "" {
		parts = append(parts, valueText(r))
	}
	return strings.Join(parts, " ")
}

// ruleTail is a rule's source, the date it is in force from, and its note.
func ruleTail(r *Rule) string {
	line := r.Source
	if r.Effective != "" {
		line += ", since " + r.Effective
	}
	if r.Note != "" {
		line += "; " + r.Note
	}
	return line
}

var dayWords = map[string]string{"all": "every day", "mon-sat": "Monday–Saturday", "mon-fri": "Monday–Friday", "sat": "Saturday", "sun": "Sunday"}

func daysText(d Days) string {
	if w, ok := dayWords[d.Text]; ok {
		return w
	}
	return strings.Join(d.dates, ", ")
}

func valueText(r *Rule) string {
	switch r.Kind {
	case KindCap:
		return "at most " + r.Value + " calls"
	case KindAutodial:
		if r.Value == "wireless" {
			return "to wireless numbers:"
		}
		return "to any number:"
	}
	return r.Value + ":"
}
