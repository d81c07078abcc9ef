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

// HelpText renders the rules table as a person reads it: grouped by kind,
// one line per rule with its days, hours, source and note, under the
// table's version and what the engine does with them.
func HelpText(t *Table) string {
	var b strings.Builder
	fmt.Fprintf(&b, "Calling rules, version %s\n\n", t.Version)
	b.WriteString("A phone may be called only when every place its person may be allows it, each at its own\n" +
		"local time: the area code's state (and zone), and the states and ZIP zones of the owner's\n" +
		"property and mailing addresses. A phone that cannot be placed is held to every state's rules\n" +
		"in every zone. States not listed follow the federal rules only.\n")
	for _, k := range kindTitles {
		rows := kindRows(t, k.kind)
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n%s\n", k.title)
		for _, r := range rows {
			b.WriteString("  " + ruleLine(r) + "\n")
		}
	}
	return b.String()
}

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
func ruleLine(r *Rule) string {
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
	line := strings.Join(parts, " ") + " — " + r.Source
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
