package index

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/skipdesk/skipdesk/jobs"
)

// The owner runs read ahead and merged with a list's hashes (ReadOwners,
// Newest) say of every key what Traced's rows found say: found or not,
// the newest date and the newest enhanced one; a key twice, keys of no
// row and a hash looked for by two keys alike. A team's index has no runs
// to merge, and says so.
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
		if l.x.Shared() {
			// A team's index keeps no owner_hashes: it is looked up by
			// key, and a merge asked of it fails rather than find nothing.
			if err == nil {
				t.Error("a team's index merged owner runs it does not keep")
			}
			return
		}
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

// A run is read back as it was written, days and all, and a run that is
// not one (hashes cut, days of another length, hashes out of order) is
// damage, never a merge of what it happens to hold.
func TestRunHashesReadBack(t *testing.T) {
	t.Parallel()
	run := []ownerEntry{{h: -5}, {h: 3, date: 1_700_000_000}, {h: 3}, {h: 1 << 60, date: 86400}}
	hashes, days := runHashes(run)
	var c runChunk
	if err := c.decode(hashes, days); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(c.hashes, []int64{-5, 3, 3, 1 << 60}) || !slices.Equal(c.days, []uint64{0, ownerDay(1_700_000_000), 0, 2}) {
		t.Errorf("read back %v, %v", c.hashes, c.days)
	}
	if h, d := runHashes(run[:1]); d != nil || len(h) != 8 {
		t.Errorf("a run without days: %d bytes of hashes, days %v", len(h), d)
	}
	swapped := slices.Concat(hashes[8:16], hashes[:8], hashes[16:])
	for name, bad := range map[string][2][]byte{
		"cut":       {hashes[:len(hashes)-1], nil},
		"days":      {hashes, days[:len(days)-4]},
		"unordered": {swapped, days},
	} {
		if err := new(runChunk).decode(bad[0], bad[1]); err == nil {
			t.Errorf("%s: read as a run", name)
		}
	}
}

// The merge finds every hash of the list that a run holds, and only
// those, whatever the hashes (both ends of int64, negative, repeated in a
// run, a list of one or none, a list long enough to be merged in parts),
// as a plain look-up does.
func TestNewestAsALookUp(t *testing.T) {
	t.Parallel()
	rnd := rand.New(rand.NewPCG(7, 11))
	f := dated{id: 1, date: 1_700_000_000}
	for round := range 120 {
		var list []int64
		n := []int{0, 1, 2, 50, 3000, 1 << 17}[round%6] // the last merged in parts
		for range n {
			list = append(list, []int64{math.MinInt64, math.MaxInt64, -1, 0, int64(rnd.Uint64())}[rnd.IntN(5)])
		}
		slices.Sort(list)
		list = slices.Compact(list)
		r := &OwnerRuns{chunks: make(chan runChunk, 8), files: map[int64]dated{1: f}, stop: func() {}}
		want := map[int64]bool{}
		for range 1 + rnd.IntN(5) {
			var run []int64
			for range rnd.IntN(400) {
				h := int64(rnd.Uint64())
				if len(list) > 0 && rnd.IntN(3) == 0 {
					h = list[rnd.IntN(len(list))]
				}
				run = append(run, h, h) // twice: a hash stands in several rows
				want[h] = true
			}
			slices.Sort(run)
			if len(run) > 0 {
				r.chunks <- runChunk{file: 1, hashes: run}
			}
		}
		close(r.chunks)
		got, err := r.Newest(list)
		if err != nil {
			t.Fatal(err)
		}
		for i, h := range list {
			if got[i].Found != want[h] || (want[h] && got[i].Date != f.date) {
				t.Fatalf("round %d: hash %d: %+v, a look-up says found %v", round, h, got[i], want[h])
			}
		}
	}
}
