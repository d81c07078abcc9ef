package ledger

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// A row that is not there is ErrNotFound, with what was looked for named.
func TestMissingRowIsNotFound(t *testing.T) {
	t.Parallel()
	eachLedger(t, func(t *testing.T, l *Ledger) {
		ctx := context.Background()
		for _, tc := range []struct {
			want string
			read func() error
		}{
			{"ledger: job trc_none: ", func() error { _, err := l.Jobs().Job(ctx, "trc_none"); return err }},
			{"ledger: download of trc_none: ", func() error { _, err := l.Jobs().JobDownload(ctx, "trc_none"); return err }},
			{"ledger: submission 999: ", func() error { _, err := l.Submissions().Submission(ctx, 999); return err }},
			{"ledger: submission of job trc_none: ", func() error { _, err := l.Submissions().SubmissionForJob(ctx, "trc_none"); return err }},
		} {
			err := tc.read()
			if !errors.Is(err, ErrNotFound) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("%q: got %v, want ErrNotFound after %q", tc.want, err, tc.want)
			}
		}
	})
}
