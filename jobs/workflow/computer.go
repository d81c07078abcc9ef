package workflow

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"

	"github.com/skipdesk/skipdesk/jobs/ledger"
	"github.com/skipdesk/skipdesk/jobs/settings"
)

// A computer's id in a team is unique per installation. The settings keep,
// beside the id, a binding: a digest of the id, the machine (its machine
// id, else its host name) and the data folder (its path and its identity
// on disk, which a copy does not carry). A data folder copied to another
// laptop, or beside itself on the same one, finds the binding does not
// match: it is a copy, and takes a new id. Two computers with one id made
// each other's entries in the team's index disappear (each folder's Sync
// forgets what is not in its folder). What the old id recorded for the
// folder is kept: its downloads whose results the copy holds are taken up
// under the new id once the team's ledger opens (adoptCopied).

func newComputerID() string {
	return fmt.Sprintf("c%016x", rand.Uint64())
}

// who is this computer in a team, its id made (or made anew for a copied
// data folder) and saved on first need.
func (s *core) who() (ledger.Who, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.settings
	if set.ComputerID != "" && set.ComputerBinding == bindingOf(set.ComputerID, s.cfg.Home) {
		return ledger.Who{ComputerID: set.ComputerID, Computer: s.computerLocked()}, nil
	}
	switch {
	case set.ComputerID == "":
		set.ComputerID = newComputerID()
	case set.ComputerBinding != "":
		// A copy: an id of its own, the old one noted for its history.
		set.CopiedFrom, set.ComputerID = set.ComputerID, newComputerID()
	}
	// (An id made before bindings existed is taken as this installation's.)
	set.ComputerBinding = bindingOf(set.ComputerID, s.cfg.Home)
	// Saved here, not through SaveSettings: this runs while the session's
	// ledger opens, and nothing else in the settings changes.
	if err := settings.Save(s.cfg.Home, set); err != nil {
		return ledger.Who{}, err
	}
	s.settings = set
	return ledger.Who{ComputerID: set.ComputerID, Computer: s.computerLocked()}, nil
}

// bindingOf is the digest that ties id to this machine and the data folder
// home.
func bindingOf(id, home string) string {
	h := sha256.New()
	abs, err := filepath.Abs(home)
	if err != nil {
		abs = home
	}
	fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s", id, machineID(), abs, folderIdentity(abs))
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// folderIdentity is the data folder's identity on disk, which a copy of
// the folder does not carry (statIdentity, as each system keeps it); ""
// when it cannot be read.
func folderIdentity(dir string) string {
	st, err := os.Stat(dir)
	if err != nil {
		return ""
	}
	return statIdentity(st)
}

// machineID names this machine: the system's machine id where it keeps
// one, else the host name.
func machineID() string {
	for _, p := range []string{"/etc/machine-id", "/var/lib/dbus/machine-id"} {
		if b, err := os.ReadFile(p); err == nil && len(strings.TrimSpace(string(b))) > 0 {
			return strings.TrimSpace(string(b))
		}
	}
	h, _ := os.Hostname()
	return h
}

// adoptCopied takes up, under this computer's new id, the downloads the id
// its data folder was copied with recorded whose results the copy holds
// (same name and size in its results folder). Done once; tried again at
// the next open when the database did not answer.
func (s *core) adoptCopied(ctx context.Context, led *ledger.Ledger) {
	s.mu.Lock()
	from := s.settings.CopiedFrom
	s.mu.Unlock()
	if from == "" {
		return
	}
	results := s.cfg.ResultsDir()
	_, err := led.Jobs().AdoptDownloads(ctx, from, func(d ledger.Download) (string, bool) {
		p := filepath.Join(results, filepath.Base(d.Path))
		st, err := os.Stat(p)
		return p, err == nil && st.Mode().IsRegular() && st.Size() == d.Size
	})
	if err != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	set := s.settings
	set.CopiedFrom = ""
	if settings.Save(s.cfg.Home, set) == nil {
		s.settings = set
	}
}
