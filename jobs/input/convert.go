package input

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"path/filepath"
)

// ConvertToCSV writes the rows of path (any supported CSV or .xlsx) to dst
// as the plain CSV the API accepts: UTF-8 without BOM, comma-separated,
// RFC 4180 quoting, CRLF line ends, the header on line 1 with distinct
// names, blank rows dropped, every row as wide as the header. It writes a
// temporary file next to dst, syncs it and renames it over dst, so dst is
// never left half-written.
func ConvertToCSV(ctx context.Context, path string, opts Options, dst string) (err error) {
	r, err := Open(path, opts)
	if err != nil {
		return err
	}
	defer r.Close()
	tmp, err := os.CreateTemp(filepath.Dir(dst), "."+filepath.Base(dst)+".*.tmp")
	if err != nil {
		return &FileError{Path: dst, Msg: "cannot create: " + err.Error(), Err: err}
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	bw := bufio.NewWriterSize(tmp, 256<<10)
	// AppendRecord, not encoding/csv: line breaks inside values are kept
	// as the file wrote them.
	line := AppendRecord(nil, r.Headers())
	if _, err := bw.Write(line); err != nil {
		return &FileError{Path: dst, Msg: "cannot write: " + err.Error(), Err: err}
	}
	err = r.Each(ctx, func(row []string) error {
		line = AppendRecord(line[:0], row)
		if _, err := bw.Write(line); err != nil {
			return &FileError{Path: dst, Msg: "cannot write: " + err.Error(), Err: err}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return &FileError{Path: dst, Msg: "cannot write: " + err.Error(), Err: err}
	}
	if err := tmp.Sync(); err != nil {
		return &FileError{Path: dst, Msg: "cannot write: " + err.Error(), Err: err}
	}
	if err := tmp.Close(); err != nil {
		return &FileError{Path: dst, Msg: "cannot write: " + err.Error(), Err: err}
	}
	if err := os.Rename(tmp.Name(), dst); err != nil {
		return &FileError{Path: dst, Msg: fmt.Sprintf("cannot rename into place: %v", err), Err: err}
	}
	if d, err := os.Open(filepath.Dir(dst)); err == nil {
		d.Sync() // make the rename durable; not all systems allow it
		d.Close()
	}
	return nil
}
