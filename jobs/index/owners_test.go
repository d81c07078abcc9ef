package index

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// The owner runs read ahead and merged with a list's hashes (ReadOwners,
// Newest) say of every key what Traced's rows found say: found or not,
// the newest date and the newest enhanced one; a key twice, keys of no
// row and a hash looked for by two keys alike.
func TestNewestIsTraced(t *testing.T) {
	eachEngine(t, func(t *testing.T) {
		l := newLib(t)
		l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
		enhanced := traceMeta("trc_abc999", day.Add(18*24*time.Hour))
		enhanced.Mode = jobs.ModeEnhanced
		l.put("again 2026-11-20 abc999.csv", traceCSV, enhanced)
		l.put("older 2026-10-20 abc777.csv", traceCSV, traceMeta("trc_abc777", day.Add(-13*24*time.Hour)))
		l.sync()
		key := func(first, last, street, zip string) string {
			return OwnerKey(NameKey(first, last, ""), AddressKey(Address{Street: street, Zip: zip}))
		}
		keys := []string{key("John", "Smith", "12 Oak Avenue", "78701"), key("Mary", "Jones", "7 Elm Street, Apartment 4B", "75201"),
			key("María", "O'Neil", "5 Cedar Lane", "78703")}
		for i := range mergeAll + 10 {
			keys = append(keys, key("Nobody", fmt.Sprint(i), fmt.Sprintf("%d Nowhere Rd", i), "00000"))
		}
		keys = append(keys, keys[0])
		traced, err := l.x.Traced(context.Background(), keys)
		if err != nil {
			t.Fatal(err)
		}
		var hashes []int64
		for _, k := range keys {
			hashes = append(hashes, OwnerHash(k))
		}
		slices.Sort(hashes)
		hashes = slices.Compact(hashes)
		runs := l.x.ReadOwners(context.Background())
		defer runs.Close()
		got, err := runs.Newest(hashes)
		if err != nil {
			t.Fatal(err)
		}
		found := 0
		for _, k := range keys {
			i, _ := slices.BinarySearch(hashes, OwnerHash(k))
			if want := newestOf(traced[k]); got[i] != want {
				t.Errorf("%q: %+v, Traced says %+v", k, got[i], want)
			}
			if got[i].Found {
				found++
			}
		}
		if found != 4 || traced[keys[0]][0].Mode != jobs.ModeEnhanced {
			t.Errorf("%d keys found (want 4, the first twice), the first's newest %+v: the library does not test it", found, traced[keys[0]])
		}
	})
}

// newestOf is what Traced's rows of a key (newest first) say of it.
func newestOf(es []Earlier) Newest {
	if len(es) == 0 {
		return Newest{}
	}
	n := Newest{Found: true, Date: es[0].Date.Unix()}
	for _, e := range es {
		if e.Mode == jobs.ModeEnhanced {
			n.Enhanced = e.Date.Unix()
			break
		}
	}
	return n
}

// Close stops a reading the merge does not take, and a cancelled
// reading says so rather than merging nothing.
func TestOwnerRunsClose(t *testing.T) {
	t.Parallel()
	l := newLib(t)
	l.put("owners 2026-11-02 abc123.csv", traceCSV, traceMeta("trc_abc123", day))
	l.sync()
	l.x.ReadOwners(context.Background()).Close()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	runs := l.x.ReadOwners(ctx)
	if _, err := runs.Newest([]int64{1}); err == nil {
		t.Error("a cancelled reading merged")
	}
	runs.Close()
}
