package input

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"io"
	"path"
	"sort"
	"strings"

	"github.com/xuri/excelize/v2"
)

// Merged cells: Excel shows the value of a merged range across all its
// cells, but stores it in the top-left one only. A county export that
// merges the city of an owner's consecutive rows would otherwise send those
// rows without a city. Ranges that span several rows are filled down in
// their first column; ranges within one row are left alone (filling a
// merged header cell would make duplicate headers).
//
// excelize can list merged ranges only by loading the whole worksheet into
// memory, so they are found here by scanning the sheet's XML in the zip
// for its mergeCell elements (they follow the cells, at the end).

// mergeRange is a merged range spanning rows top..bottom (1-based) whose
// first column is col (0-based).
type mergeRange struct{ col, top, bottom int }

// maxMerges bounds the merged ranges remembered for a sheet (24 bytes
// each); a sheet with more has the rest read as stored. Tests lower it.
var maxMerges = 1 << 20

// sheetMerges returns the ranges of sheet that span several rows, sorted
// by their top row, and how many merged ranges came after the first
// maxMerges of them (not looked at). A workbook whose parts cannot be found
// gives none: the cells are then read as stored.
func sheetMerges(file, sheet string) ([]mergeRange, int) {
	zr, err := openZip(file)
	if err != nil {
		return nil, 0
	}
	defer zr.Close()
	part := sheetPart(&zr.Reader, sheet)
	if part == nil {
		return nil, 0
	}
	rc, err := part.Open()
	if err != nil {
		return nil, 0
	}
	defer rc.Close()
	var out []mergeRange
	beyond := 0
	scanMergeRefs(rc, func(ref string) {
		if len(out) >= maxMerges {
			beyond++
			return
		}
		cells := strings.Split(ref, ":")
		if len(cells) != 2 {
			return
		}
		c1, r1, err1 := excelize.CellNameToCoordinates(cells[0])
		c2, r2, err2 := excelize.CellNameToCoordinates(cells[1])
		if err1 != nil || err2 != nil || r2 <= r1 || c2 < c1 {
			return
		}
		out = append(out, mergeRange{col: c1 - 1, top: r1, bottom: r2})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].top < out[j].top })
	return out, beyond
}

// sheetPart finds the zip entry of a sheet from the workbook and its
// relationships.
func sheetPart(zr *zip.Reader, sheet string) *zip.File {
	files := map[string]*zip.File{}
	for _, f := range zr.File {
		files[strings.ToLower(f.Name)] = f
	}
	var rid string
	eachElement(files["xl/workbook.xml"], "sheet", func(attrs []xml.Attr) bool {
		if attr(attrs, "name") == sheet {
			rid = attr(attrs, "id")
			return false
		}
		return true
	})
	if rid == "" {
		return nil
	}
	var target string
	eachElement(files["xl/_rels/workbook.xml.rels"], "Relationship", func(attrs []xml.Attr) bool {
		if attr(attrs, "Id") == rid {
			target = attr(attrs, "Target")
			return false
		}
		return true
	})
	if target == "" {
		return nil
	}
	if strings.HasPrefix(target, "/") {
		target = strings.TrimPrefix(target, "/")
	} else {
		target = path.Join("xl", target)
	}
	return files[strings.ToLower(target)]
}

// eachElement calls fn with the attributes of each element named local in
// a small XML part, until fn returns false.
func eachElement(f *zip.File, local string, fn func([]xml.Attr) bool) {
	if f == nil {
		return
	}
	rc, err := f.Open()
	if err != nil {
		return
	}
	defer rc.Close()
	d := xml.NewDecoder(io.LimitReader(rc, 64<<20))
	for {
		tok, err := d.Token()
		if err != nil {
			return
		}
		if se, ok := tok.(xml.StartElement); ok && se.Name.Local == local && !fn(se.Attr) {
			return
		}
	}
}

func attr(attrs []xml.Attr, local string) string {
	for _, a := range attrs {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// scanMergeRefs calls fn with the ref of each mergeCell element of a sheet's
// XML, read in chunks: a byte search, since the cells before them are far
// too many to decode twice. "<mergeCell" cannot occur in cell text, where
// "<" is escaped.
func scanMergeRefs(r io.Reader, fn func(ref string)) {
	const chunk = 256 << 10
	const keep = 512 // an element split between two chunks is found whole in the next
	buf := make([]byte, 0, chunk+keep)
	tag := []byte("mergeCell ")
	for {
		n, err := io.ReadFull(r, buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		done := err != nil
		searchEnd := len(buf)
		if !done {
			searchEnd = max(0, len(buf)-keep)
		}
		i := 0
		for i < searchEnd {
			k := bytes.Index(buf[i:], tag)
			if k < 0 || i+k >= searchEnd {
				break
			}
			at := i + k
			i = at + len(tag)
			if at == 0 || (buf[at-1] != '<' && buf[at-1] != ':') {
				continue // not an element name ("<x:mergeCell " has a prefix)
			}
			end := bytes.IndexByte(buf[at:], '>')
			if end < 0 {
				continue
			}
			if ref, ok := refAttr(buf[at : at+end]); ok {
				fn(ref)
			}
		}
		if done {
			return
		}
		// Keep the unsearched tail for the next chunk.
		buf = buf[:copy(buf, buf[searchEnd:])]
	}
}

// refAttr reads ref="A1:B2" from the inside of an element's start tag.
func refAttr(tag []byte) (string, bool) {
	for i := 0; ; {
		k := bytes.Index(tag[i:], []byte("ref="))
		if k < 0 {
			return "", false
		}
		k += i
		i = k + 4
		if k > 0 && tag[k-1] != ' ' && tag[k-1] != '\t' && tag[k-1] != '\n' && tag[k-1] != '\r' {
			continue
		}
		if i >= len(tag) || (tag[i] != '"' && tag[i] != '\'') {
			return "", false
		}
		q := tag[i]
		e := bytes.IndexByte(tag[i+1:], q)
		if e < 0 {
			return "", false
		}
		return string(tag[i+1 : i+1+e]), true
	}
}
