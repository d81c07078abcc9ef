package input

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular: a path names something other than an ordinary file (a
// folder, a named pipe, a device, a socket). Opening a named pipe waits for
// a writer for ever and a device may never end, so such a path is refused
// before it is opened.
var ErrNotRegular = errors.New("not an ordinary file")

// MaxRecordBytes is the most bytes one record (a line, or several inside
// quotes) may hold; MaxFields the most fields. Every reader of a file
// SkipDesk did not write refuses a record past either.
const MaxRecordBytes = maxRecord

// OpenRegular opens path for reading when it is an ordinary file (a
// symbolic link to one is followed), and only then. The file is opened
// without waiting (a pipe put in its place since it was looked at does not
// block the open) and looked at again once open.
func OpenRegular(path string) (*os.File, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, &FileError{Path: path, Msg: describeOpenError(err), Err: err}
	}
	if err := regular(path, st); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|openNoWait, 0)
	if err != nil {
		return nil, &FileError{Path: path, Msg: describeOpenError(err), Err: err}
	}
	now, err := f.Stat()
	if err == nil && !os.SameFile(st, now) {
		err = regular(path, now)
		if err == nil {
			err = &FileError{Path: path, Msg: "was replaced while it was opened", Err: ErrNotRegular}
		}
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Regular reports whether a folder's entry is an ordinary file, following a
// symbolic link: what a reader of the folder may open.
func Regular(dir string, de fs.DirEntry) bool {
	if de.Type().IsRegular() {
		return true
	}
	if de.Type()&fs.ModeSymlink == 0 {
		return false
	}
	st, err := os.Stat(filepath.Join(dir, de.Name()))
	return err == nil && st.Mode().IsRegular()
}

// regular is nil for an ordinary file, else the error that says what it is.
func regular(path string, st fs.FileInfo) error {
	m := st.Mode()
	what := ""
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "is a folder, not a file"
	case m&fs.ModeNamedPipe != 0:
		what = "is a named pipe, not a file"
	case m&fs.ModeSocket != 0:
		what = "is a socket, not a file"
	case m&fs.ModeDevice != 0:
		what = "is a device, not a file"
	default:
		what = "is not an ordinary file"
	}
	return &FileError{Path: path, Msg: what + ": SkipDesk reads only ordinary files", Err: ErrNotRegular}
}
