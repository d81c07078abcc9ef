package export

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
	"github.com/skipdesk/skipdesk/jobs/library"
	"github.com/skipdesk/skipdesk/jobs/phone"
	"github.com/skipdesk/skipdesk/jobs/testlists"
)

// writeDNC writes callableDNC with a job record saying it completed at
// done; it returns the result's path.
func writeDNC(t *testing.T, done time.Time) string {
	t.Helper()
	dnc := testlists.WriteFile(t, "dnc_1 scrub.csv", callableDNC)
	m := library.Meta{JobID: "dnc_1", Kind: jobs.KindDNC, Name: "phones.csv", Status: jobs.StatusCompleted, CompletedAt: done}
	b, _ := json.Marshal(m)
	if err := os.WriteFile(library.RecordPath(dnc), b, 0o600); err != nil {
		t.Fatal(err)
	}
	return dnc
}

// The company's own list applies to every callable export: a number on it
// appears nowhere in the file, and is counted as left out for it.
func TestCallableExportHonoursTheInternalList(t *testing.T) {
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	dnc := writeDNC(t, now.AddDate(0, 0, -2))
	for _, ext := range []string{".csv", ".xlsx"} {
		dst := filepath.Join(t.TempDir(), "callable"+ext)
		rep, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now,
			Internal: phone.NewKeySet([]uint64{phone.Key("2125550101")})})
		if err != nil {
			t.Fatal(err)
		}
		got := numbersIn(readOut(t, dst))
		if got["2125550101"] || !got["2125550104"] || len(got) != 1 {
			t.Errorf("%s: numbers written %v", ext, got)
		}
		if rep.Phones.Left["company do-not-call list"] != 1 {
			t.Errorf("%s: left out %v", ext, rep.Phones.Left)
		}
	}
}

// A scrub more than 31 days old: the export refuses, names the scrub and
// its date, lists the numbers to scrub again, and writes nothing; asked to
// leave them out, it does, and says so.
func TestCallableExportRefusesAStaleScrub(t *testing.T) {
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	done := now.AddDate(0, 0, -40)
	dnc := writeDNC(t, done)
	dir := t.TempDir()
	dst := filepath.Join(dir, "callable.xlsx")
	_, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now, Proof: &Proof{}})
	var se *StaleError
	if !errors.As(err, &se) {
		t.Fatalf("a 40-day-old scrub: %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"dnc_1 scrub.csv", done.Local().Format("Jan 2, 2006"), "more than 31 days old", "2 phones", "nothing was written"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal does not say %q: %s", want, msg)
		}
	}
	if strings.Join(se.Numbers, ",") != "2125550101,2125550104" || len(se.Scrubs) != 1 || !se.Scrubs[0].Date.Equal(done) {
		t.Errorf("stale: %+v", se)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 0 {
		t.Errorf("files written: %v", ents)
	}
	// 31 days to the minute is still usable.
	writeDNCAt(t, dnc, now.Add(-31*24*time.Hour))
	if _, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now}); err != nil {
		t.Fatalf("a 31-day-old scrub: %v", err)
	}
	os.Remove(dst)
	writeDNCAt(t, dnc, done)
	_, err = ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now, LeaveOutStale: true})
	// Both clean phones were cleared by the stale scrub alone: no list is
	// handed over as if it were one.
	var none *NothingCallableError
	if !errors.As(err, &none) || none.Phones.Left["scrub over 31 days old"] != 2 || !strings.Contains(err.Error(), "nothing was written") {
		t.Fatalf("leaving stale phones out: %v", err)
	}
	if _, err := os.Stat(dst); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("an empty callable list was left at %s", dst)
	}
}

func writeDNCAt(t *testing.T, dnc string, done time.Time) {
	t.Helper()
	m, err := library.ReadRecord(library.RecordPath(dnc))
	if err != nil {
		t.Fatal(err)
	}
	m.CompletedAt = done
	b, _ := json.Marshal(m)
	if err := os.WriteFile(library.RecordPath(dnc), b, 0o600); err != nil {
		t.Fatal(err)
	}
}

// The person's choices: mobiles left out for autodialed calls (and phones
// of unknown type with them), litigators kept, unknown answers kept.
func TestCallableExportChoices(t *testing.T) {
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	dnc := writeDNC(t, now.AddDate(0, 0, -1))
	for _, c := range []struct {
		name string
		opts CallableOptions
		want string
		left map[string]int
	}{
		{"default", CallableOptions{}, "2125550101,2125550104", nil},
		{"no mobiles", CallableOptions{LeaveOutMobiles: true}, "nothing", map[string]int{"mobile (autodialed calls)": 2}},
		{"litigators kept", CallableOptions{KeepLitigators: true}, "2125550101,2125550103,2125550104", nil},
		// 0199 was never scrubbed: kept only when the person asks, and its
		// flags say so.
		{"unknown kept", CallableOptions{KeepUnknown: true}, "2125550101,2125550104,2125550199", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "callable.csv")
			c.opts.OnlyCallable, c.opts.Now = true, now
			rep, err := ExportCallable(context.Background(), trace, dnc, dst, c.opts)
			var none *NothingCallableError
			if c.want == "nothing" {
				// Every phone left out: refused, with the reasons.
				if !errors.As(err, &none) {
					t.Fatalf("every phone left out: %v", err)
				}
				for reason, n := range c.left {
					if none.Phones.Left[reason] != n {
						t.Errorf("left out %v, want %s: %d", none.Phones.Left, reason, n)
					}
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows := readOut(t, dst)
			var got []string
			for n := range numbersIn(rows) {
				got = append(got, n)
			}
			slices.Sort(got)
			if strings.Join(got, ",") != c.want {
				t.Errorf("numbers %v, want %s", got, c.want)
			}
			for reason, n := range c.left {
				if rep.Phones.Left[reason] != n {
					t.Errorf("left out %v, want %s: %d", rep.Phones.Left, reason, n)
				}
			}
			if c.opts.KeepUnknown && !strings.Contains(flatten(rows), "DNC unknown") {
				t.Errorf("a kept unknown phone's flags do not say unknown: %q", rows)
			}
		})
	}
}

func flatten(rows [][]string) string {
	var b strings.Builder
	for _, r := range rows {
		b.WriteString(strings.Join(r, "|") + "\n")
	}
	return b.String()
}

// Every callable export has its proof: a PDF beside it, whose text names
// the export's time, the account and provider, each DNC job with its
// completion and valid-until dates, the SHA-256 of the result, of the DNC
// result and of the file written, the counts kept and left out by reason,
// the choices and the version; the .xlsx carries the same as a Compliance
// sheet.
func TestCallableExportProof(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed: the proof's text cannot be read back; .ci/run installs it")
	}
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	done := time.Date(2026, 6, 1, 9, 30, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	dnc := writeDNC(t, done)
	dst := filepath.Join(t.TempDir(), "owners callable.xlsx")
	p := &Proof{Account: "demo@example.com", Provider: "https://api.example.test", AppVersion: "1.2.3"}
	rep, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now,
		Internal: phone.NewKeySet([]uint64{phone.Key("2125550101")}), Proof: p})
	if err != nil {
		t.Fatal(err)
	}
	if p.PDF != filepath.Join(filepath.Dir(dst), "owners callable proof.pdf") {
		t.Fatalf("proof at %q", p.PDF)
	}
	out, err := exec.Command("pdftotext", "-layout", p.PDF, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Join(strings.Fields(string(out)), " ")
	sum := func(path string) string {
		s, err := fileSHA256(path)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	for _, want := range []string{
		"Proof of scrub", "Exported 2026-06-10 12:00:00 UTC", "Account demo@example.com", "Provider https://api.example.test",
		"SkipDesk version 1.2.3", "Result exported trace.csv", sum(trace), "File written owners callable.xlsx", sum(dst),
		"Scrub 1 dnc_1 scrub.csv", "Job dnc_1", "Dated by the job's completion",
		"Scrubbed 2026-06-01 09:30:00 UTC valid until 2026-07-02 09:30:00 UTC, 1 phone",
		"List valid until 2026-07-02 09:30:00 UTC",
		"Valid until 2026-07-02 09:30:00 UTC", sum(dnc), "Only callable phones", "Litigators: left out",
		"Internal do-not-call list 1 number", "Phones kept 1", "left out: company do-not-call list 1", "left out: DNC 1",
		"left out: litigator 1",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the proof does not say %q:\n%s", want, text)
		}
	}
	if rep.Phones.Kept != 1 {
		t.Errorf("kept %d", rep.Phones.Kept)
	}
	// The Compliance sheet: the same lines, without the workbook's own hash.
	rows, err := openXLSX(t, dst).GetRows("Compliance")
	if err != nil {
		t.Fatal(err)
	}
	sheet := flatten(rows)
	for _, want := range []string{"Job|dnc_1", sum(dnc), sum(trace), "left out: company do-not-call list|1",
		"Scrubbed 2026-06-01 09:30:00 UTC|valid until 2026-07-02 09:30:00 UTC, 1 phone", "List valid until|2026-07-02 09:30:00 UTC"} {
		if !strings.Contains(sheet, want) {
			t.Errorf("the Compliance sheet does not say %q:\n%s", want, sheet)
		}
	}
	if strings.Contains(sheet, "File written") {
		t.Error("the Compliance sheet claims the workbook's own hash")
	}
}

// The proof prints names in their own letters (Cyrillic, Greek, Polish,
// Hebrew), in an embedded Unicode font subset to the letters used, so the
// PDF stays small; the core fonts turned them into dots.
func TestProofPrintsNonLatinNames(t *testing.T) {
	if _, err := exec.LookPath("pdftotext"); err != nil {
		t.Skip("pdftotext (poppler-utils) is not installed: the proof's text cannot be read back; .ci/run installs it")
	}
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "Дмитриев Ωμέγα.csv", callableTrace)
	dnc := writeDNC(t, time.Date(2026, 6, 1, 9, 30, 0, 0, time.UTC))
	dst := filepath.Join(t.TempDir(), "Łódź שלום.csv")
	p := &Proof{Account: "jørgen@пример.рф", Provider: "https://api.example.test", AppVersion: "1.2.3"}
	if _, err := ExportCallable(context.Background(), trace, dnc, dst, CallableOptions{OnlyCallable: true, Now: now, Proof: p}); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("pdftotext", "-layout", p.PDF, "-").Output()
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, want := range []string{"Дмитриев Ωμέγα.csv", "jørgen@пример.рф", "Łódź"} {
		if !strings.Contains(text, want) {
			t.Errorf("the proof does not print %q:\n%s", want, text)
		}
	}
	if st, err := os.Stat(p.PDF); err != nil || st.Size() > 100<<10 {
		t.Errorf("the proof is %d bytes (%v): the font is not subset", st.Size(), err)
	}
}

// A trace's phones scrubbed twice: the export says which numbers the newer
// scrub found on a list that the one before did not.
func TestExportShowsWhatChangedSinceTheScrubBefore(t *testing.T) {
	now := time.Date(2026, 6, 10, 12, 0, 0, 0, time.UTC)
	trace := testlists.WriteFile(t, "trace.csv", callableTrace)
	before := writeDNC(t, now.AddDate(0, 0, -20))
	after := testlists.WriteFile(t, "dnc_2.csv", strings.Replace(callableDNC, "2125550101,2125550101,false,false", "2125550101,2125550101,true,false", 1))
	b, _ := json.Marshal(library.Meta{JobID: "dnc_2", Kind: jobs.KindDNC, CompletedAt: now.AddDate(0, 0, -1)})
	os.WriteFile(library.RecordPath(after), b, 0o600)
	dst := filepath.Join(t.TempDir(), "flags.csv")
	if _, err := ExportCallable(context.Background(), trace, after, dst, CallableOptions{DNC: []string{before}, Now: now}); err != nil {
		t.Fatal(err)
	}
	rows := readOut(t, dst)
	text := flatten(rows)
	want := "new since the scrub of " + now.AddDate(0, 0, -20).Format("2006-01-02") + ": DNC"
	if strings.Count(text, want) != 1 {
		t.Errorf("the change is not said once (%q):\n%s", want, text)
	}
}
