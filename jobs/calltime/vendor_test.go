package calltime

import (
	"strings"
	"testing"
)

func TestVendorWindow(t *testing.T) {
	cases := []struct {
		in, want, zone string
	}{
		{"8:00 AM - 8:00 PM", "08:00–20:00", ""},
		{"08:00-20:00", "08:00–20:00", ""},
		{"8am–9pm CST", "08:00–21:00", "America/Chicago"},
		{"0900-2100", "09:00–21:00", ""},
		{"9 a.m. to 5 p.m. Eastern", "09:00–17:00", "America/New_York"},
		{"12pm-9pm", "12:00–21:00", ""},
	}
	for _, c := range cases {
		from, until, zone, ok, err := VendorWindow(c.in)
		got := from.String() + "–" + until.String()
		zn := ""
		if zone != nil {
			zn = zone.String()
		}
		if err != nil || !ok || got != c.want || zn != c.zone {
			t.Errorf("VendorWindow(%q) = %s %q %v %v, want %s %q", c.in, got, zn, ok, err, c.want, c.zone)
		}
	}
	if _, _, _, ok, err := VendorWindow("  "); ok || err != nil {
		t.Errorf("an empty value: %v %v", ok, err)
	}
	for _, bad := range []string{"anytime", "9pm-8am", "25:00-26:00", "8am-8pm Mars", "13pm-2pm"} {
		if _, _, _, _, err := VendorWindow(bad); err == nil {
			t.Errorf("VendorWindow(%q) read", bad)
		}
	}
}

func TestVendorOffsetAndNoCall(t *testing.T) {
	for in, want := range map[string]string{"-5": "UTC-05:00", "-05:00": "UTC-05:00", "UTC-6": "UTC-06:00", "GMT-0700": "UTC-07:00"} {
		tz, err := VendorOffset(in)
		if err != nil || tz.String() != want {
			t.Errorf("VendorOffset(%q) = %v %v", in, tz, err)
		}
	}
	if tz, err := VendorOffset(""); tz != nil || err != nil {
		t.Errorf("empty offset: %v %v", tz, err)
	}
	if _, err := VendorOffset("Eastern-ish"); err == nil {
		t.Error("a word read as an offset")
	}
	for in, want := range map[string]bool{"Y": true, "yes": true, "DNC": true, "": false, "N": false, "0": false} {
		if got, err := VendorNoCall(in); err != nil || got != want {
			t.Errorf("VendorNoCall(%q) = %v %v", in, got, err)
		}
	}
	if _, err := VendorNoCall("maybe"); err == nil {
		t.Error(`"maybe" read as yes or no`)
	}
}

// TestNarrowing: the vendor's values only narrow; an unread value closes
// the day; the strictest wins.
func TestNarrowing(t *testing.T) {
	e := engine(t)
	pl := e.Locate("305-555-0100", nil) // FL: 08:00–20:00 ET
	at := instant(t, "2026-11-23T18:30:00-05:00")
	if d := e.Decide(pl, at, nil); !d.Callable {
		t.Fatal("the phone is not callable without a vendor")
	}
	from, until, zone, _, _ := VendorWindow("9am-6pm")
	d := e.Decide(pl, at, &Narrowing{Window: &[2]Clock{from, until}, WindowZone: zone})
	if d.Callable || d.Window.String() != "09:00–18:00 ET" || d.Reasons[0].Code != ReasonVendor {
		t.Errorf("vendor window 9–6: %v %s %v", d.Callable, d.Window, texts(d.Reasons))
	}
	from, until, _, _, _ = VendorWindow("7am-10pm")
	if d := e.Decide(pl, at, &Narrowing{Window: &[2]Clock{from, until}}); !d.Callable || d.Window.String() != "08:00–20:00 ET" {
		t.Errorf("a wider vendor window widened the rule: %s", d.Window)
	}
	tz, _ := VendorOffset("-8")
	if d := e.Decide(pl, instant(t, "2026-11-23T10:30:00-05:00"), &Narrowing{Offset: tz}); d.Callable {
		t.Errorf("7:30 a.m. at the vendor's offset -8 is callable: %s", d.Window)
	}
	d = e.Decide(pl, at, &Narrowing{NoCallOn: []string{"2026-11-23"}})
	if d.Callable || d.Window.Open() {
		t.Errorf("do not call today: %v %v", d.Callable, d.Window.Spans)
	}
	if d := e.Decide(pl, at, &Narrowing{NoCallOn: []string{"2026-11-22"}}); !d.Callable {
		t.Error("yesterday's do-not-call closed today")
	}
	d = e.Decide(pl, at, &Narrowing{Unread: []string{`calling window "soon"`}})
	if d.Callable || !strings.Contains(d.Reasons[0].Text, "could not be read") {
		t.Errorf("an unread value: %v %v", d.Callable, texts(d.Reasons))
	}
}
