package prepare

import (
	"context"
	"fmt"
	"io"
	"path/filepath"

	"github.com/skipdesk/skipdesk/jobs/input"
)

// Stream is Prepare for an upload sent while it is written: the prepared
// copy goes into w rather than into a file, byte for byte what Prepare
// writes (the same rows, counts and SHA-256), and nothing is left on
// disk. It stops with ErrTooLarge as soon as the copy passes the
// provider's limit. A plan that uploads the picked file as it is
// (Describe) writes nothing: the Upload names the file (Written false), as
// Prepare's does.
func Stream(ctx context.Context, src string, ins *input.Inspection, plan Plan, w io.Writer) (*Upload, error) {
	if ins == nil {
		return nil, fmt.Errorf("prepare: no inspection")
	}
	m, derived, err := layout(src, ins, plan)
	if err != nil {
		return nil, err
	}
	u := &Upload{Mapping: m, FileName: filepath.Base(src)}
	written, why := Describe(ins, plan)
	if !written {
		return asIs(src, ins, u)
	}
	u.Reasons, u.FileName, u.Written = why, UploadName(src, true), true
	lw := &limitWriter{w: w, left: input.MaxUploadBytes}
	if err := writeTo(ctx, src, ins, plan, ins.Headers, derived, u, lw, "the upload"); err != nil {
		if lw.over {
			return nil, fmt.Errorf("prepare: the file to upload would be over %.1f MB: %w; split the list", mb(input.MaxUploadBytes), ErrTooLarge)
		}
		return nil, err
	}
	return u, nil
}

// limitWriter fails once more than left bytes are written.
type limitWriter struct {
	w    io.Writer
	left int64
	over bool
}

func (l *limitWriter) Write(p []byte) (int, error) {
	if int64(len(p)) > l.left {
		l.over = true
		return 0, ErrTooLarge
	}
	l.left -= int64(len(p))
	return l.w.Write(p)
}

// SampleRepairs counts what the plan's repairs do to the first rows of
// the file (ins.Sample), by the rules the copy is made with: a repair that
// mends one of them will mend the file, and its upload be a prepared copy
// (Describe says so once the whole file is inspected).
func SampleRepairs(src string, ins *input.Inspection, plan Plan) Repaired {
	var n Repaired
	fix, err := repairsOf(src, plan, ins.Headers)
	if err != nil {
		return n
	}
	out := make([]string, len(ins.Headers))
	for _, row := range ins.Sample {
		if len(row) != len(ins.Headers) || fix.leaveOut(row, &n) {
			continue
		}
		copy(out, row)
		fix.pad(out, &n)
	}
	return n
}
