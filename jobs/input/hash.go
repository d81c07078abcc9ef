package input

import (
	"crypto/sha256"
	"encoding/hex"
	"io"
)

// HashFile returns the hex SHA-256 and size of a file: what tells a file
// apart from another (the duplicate guard, the proof of scrub, an
// imported result).
func HashFile(path string) (string, int64, error) {
	f, err := OpenRegular(path)
	if err != nil {
		return "", 0, err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return "", 0, &FileError{Path: path, Msg: "cannot read: " + err.Error(), Err: err}
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}
