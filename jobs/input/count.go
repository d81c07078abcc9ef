package input

import "io"

// CountWriter counts the bytes written through it to W (a copy's size, a
// spool's offsets).
type CountWriter struct {
	W io.Writer
	N int64
}

func (c *CountWriter) Write(p []byte) (int, error) {
	n, err := c.W.Write(p)
	c.N += int64(n)
	return n, err
}

// CountReader counts the bytes read through it from R.
type CountReader struct {
	R io.Reader
	N int64
}

func (c *CountReader) Read(p []byte) (int, error) {
	n, err := c.R.Read(p)
	c.N += int64(n)
	return n, err
}
