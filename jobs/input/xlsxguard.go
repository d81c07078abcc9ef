package input

import (
	"archive/zip"
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/klauspost/compress/flate"
)

// A workbook is a zip of XML parts, and a few megabytes of zip can unpack
// to gigabytes built to hurt a reader: one enormous cell or run of spaces
// (Go's XML decoder holds a whole text in memory), elements nested
// millions deep (it keeps a stack of them), millions of shared strings or
// merged ranges (excelize and sheetMerges keep one entry each). Such a
// workbook is refused before excelize decodes it, with a message saying
// why; a list from a spreadsheet program is far inside every limit.
var (
	// maxWorkbookFile bounds the workbook file, which excelize reads whole
	// into memory. The 50 MB list as a workbook is about 26 MB.
	maxWorkbookFile int64 = 256 << 20
	// maxWorkbookUnzip bounds what the whole workbook unpacks to. A sheet
	// of 485,000 rows of 12 columns (a 50 MB CSV, the upload limit) is
	// about 300 MB of XML.
	maxWorkbookUnzip int64 = 1 << 30
	// maxWorkbookInMemory bounds the parts excelize holds in memory while
	// the workbook is open (every part but large sheets and shared strings,
	// which it unpacks to temporary files).
	maxWorkbookInMemory int64 = 256 << 20
	// maxXMLRun bounds the bytes between two markup characters: a text, a
	// run of white space or a tag. An Excel cell holds at most 32,767
	// characters (about 200 KB written as escaped UTF-8).
	maxXMLRun = 1 << 20
	// maxXMLDepth bounds the nesting of elements (a sheet nests 7 deep).
	maxXMLDepth = 64
	// maxXMLElement bounds an element three deep: a row of a sheet (16,384
	// cells of 4 KB).
	maxXMLElement int64 = 64 << 20
	// maxSheetOutside bounds what a sheet holds besides its rows (column
	// widths, merged ranges, links: 25 to 40 bytes each, a few per row).
	maxSheetOutside int64 = 64 << 20
	// maxSharedStrings bounds the distinct texts of a workbook (excelize
	// keeps about 40 bytes for each): a 50 MB list has a few million.
	maxSharedStrings = 1 << 23
)

// xlsxInMemoryPart is excelize's UnzipXMLSizeLimit: larger sheets and
// shared strings go to temporary files.
const xlsxInMemoryPart = 16 << 20

// checkWorkbook refuses a workbook whose parts would unpack to too much or
// hold XML built to exhaust memory. Every part that is XML (by its first
// byte, whatever its name: the workbook says where its parts are) passes
// through an xmlGuard, which knows a sheet and the shared strings by their
// root element.
func checkWorkbook(path string) error {
	zr, err := openZip(path)
	if err != nil {
		return nil // excelize names what is wrong
	}
	defer zr.Close()
	if st, err := os.Stat(path); err == nil && st.Size() > maxWorkbookFile {
		return &FileError{Path: path, Msg: fmt.Sprintf("the workbook is %s, more than the %s read, far more than a list the provider accepts (50 MB as CSV): split the list into smaller workbooks", sizeWords(st.Size()), sizeWords(maxWorkbookFile))}
	}
	var total, inMemory int64
	for _, f := range zr.File {
		size := int64(f.UncompressedSize64)
		if size < 0 || total+size > maxWorkbookUnzip {
			return &FileError{Path: path, Msg: fmt.Sprintf("the workbook unpacks to more than %s, far more than a list the provider accepts (50 MB as CSV): split the list into smaller workbooks", sizeWords(maxWorkbookUnzip))}
		}
		total += size
		// excelize's rule for what it unpacks to temporary files.
		name := strings.ToLower(strings.ReplaceAll(f.Name, "\\", "/"))
		toDisk := size > xlsxInMemoryPart && (strings.HasPrefix(name, "xl/worksheets/sheet") || name == "xl/sharedstrings.xml")
		if !toDisk {
			if inMemory += size; inMemory > maxWorkbookInMemory {
				return &FileError{Path: path, Msg: fmt.Sprintf("the workbook's parts other than its sheets unpack to more than %s: it is not a list (embedded pictures or damage?)", sizeWords(maxWorkbookInMemory))}
			}
		}
		g := &xmlGuard{part: f.Name}
		if err := g.scan(f); err != nil {
			return &FileError{Path: path, Msg: g.message(err), Err: err}
		}
	}
	return nil
}

// openZip opens a workbook as a zip whose deflated parts are read with
// klauspost/compress's inflater (about 30% faster than compress/flate's on
// a sheet's XML): the guard and sheetMerges read whole sheets.
func openZip(path string) (*zip.ReadCloser, error) {
	zr, err := zip.OpenReader(path)
	if err == nil {
		zr.RegisterDecompressor(zip.Deflate, func(r io.Reader) io.ReadCloser { return flate.NewReader(r) })
	}
	return zr, err
}

func sizeWords(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	}
	return fmt.Sprintf("%d KB", n>>10)
}

// errXMLRun and errXMLDepth are wrapped in the FileError of a workbook
// refused by xmlGuard.
var (
	errXMLRun      = errors.New("xml text too long")
	errXMLDepth    = errors.New("xml nested too deep")
	errXMLElement  = errors.New("xml row too large")
	errXMLOutside  = errors.New("too much xml outside the sheet's rows")
	errXMLChildren = errors.New("too many shared strings")
)

// xmlGuard checks XML written to it, in pieces of any size, against
// maxXMLRun, maxXMLDepth and maxXMLElement; for shared strings (root sst),
// the children of the root against maxSharedStrings; for a sheet (root
// worksheet), what lies outside its sheetData element against
// maxSheetOutside: excelize's row reader decodes all of it between two
// rows, where reading cannot be cancelled.
//
// It is not a parser: it finds '<' and '>' and looks at the byte after
// '<' ('/' ends an element, a letter starts one; anything else is a
// declaration or comment), the one before '>' ('/' closes an empty
// element) and the names of the root and its children. A comment holding "<a"
// would count as an element (spreadsheet programs write no comments).
type xmlGuard struct {
	part  string
	sheet bool // the root is a worksheet
	// maxChildren bounds children (0: no bound; maxSharedStrings in sst).
	maxChildren int

	run       int  // bytes since the last '<' or '>'
	inTag     bool // between '<' and '>'
	kindNext  bool // just after '<': the next byte tells the kind of tag
	startTag  bool // the tag is a start tag
	lastSlash bool // inside a tag, the last byte seen was '/'
	depth     int
	children  int // start tags directly under the root

	naming  bool     // reading the name of the root or of one of its children
	name    [16]byte // its first bytes
	nameLen int
	inData  bool  // inside the sheet's sheetData element
	outside int64 // bytes of a sheet outside sheetData
	element int64 // bytes of the current element three deep (a row)

	err error
}

func (g *xmlGuard) fail(err error) (int, error) {
	g.err = err
	return 0, err
}

// take accounts for k bytes read; inRun says they belong to the current
// text or tag (not a '<' or '>' ending one).
func (g *xmlGuard) take(k int, inRun bool) error {
	if inRun {
		if g.run += k; g.run > maxXMLRun {
			return errXMLRun
		}
	}
	if g.depth >= 3 {
		if g.element += int64(k); g.element > maxXMLElement {
			return errXMLElement
		}
	}
	if g.sheet && !g.inData {
		if g.outside += int64(k); g.outside > maxSheetOutside {
			return errXMLOutside
		}
	}
	return nil
}

func (g *xmlGuard) Write(p []byte) (int, error) {
	if g.err != nil {
		return 0, g.err
	}
	n := len(p)
	for len(p) > 0 {
		if !g.inTag {
			i := bytes.IndexByte(p, '<')
			if i < 0 {
				i = len(p)
			}
			if err := g.take(i, true); err != nil {
				return g.fail(err)
			}
			if i == len(p) {
				break
			}
			if err := g.take(1, false); err != nil {
				return g.fail(err)
			}
			p = p[i+1:]
			g.inTag, g.kindNext, g.lastSlash, g.run = true, true, false, 0
			continue
		}
		if g.kindNext {
			g.kindNext = false
			switch c := p[0]; {
			case c == '/':
				g.startTag = false
				g.naming, g.nameLen = g.depth == 2, 0
				g.depth--
				if err := g.take(1, true); err != nil {
					return g.fail(err)
				}
				p = p[1:]
			case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c == '_', c == ':', c >= 0x80:
				g.startTag = true
				g.depth++
				if g.depth > maxXMLDepth {
					return g.fail(errXMLDepth)
				}
				switch g.depth {
				case 1:
					g.naming, g.nameLen = true, 0
				case 2:
					if g.children++; g.maxChildren > 0 && g.children > g.maxChildren {
						return g.fail(errXMLChildren)
					}
					g.naming, g.nameLen = true, 0
				case 3:
					g.element = 0
				}
			default:
				// A declaration or comment ("<?", "<!"), or a '<' that is
				// text in one.
				g.startTag = false
			}
			continue
		}
		if g.naming {
			i := 0
			for i < len(p) && p[i] > ' ' && p[i] != '/' && p[i] != '>' {
				if g.nameLen < len(g.name) {
					g.name[g.nameLen] = p[i]
				}
				g.nameLen++
				i++
			}
			if err := g.take(i, true); err != nil {
				return g.fail(err)
			}
			p = p[i:]
			if len(p) == 0 {
				break
			}
			g.naming = false
			switch local := g.localName(); {
			case g.depth == 1 && g.startTag:
				g.sheet = string(local) == "worksheet" || string(local) == "dialogsheet"
				if string(local) == "sst" {
					g.maxChildren = maxSharedStrings
				}
			case string(local) == "sheetData":
				g.inData = g.startTag
			}
			continue
		}
		i := bytes.IndexByte(p, '>')
		if i < 0 {
			i = len(p)
		}
		if err := g.take(i, true); err != nil {
			return g.fail(err)
		}
		if i == len(p) {
			g.lastSlash = p[len(p)-1] == '/'
			break
		}
		if err := g.take(1, false); err != nil {
			return g.fail(err)
		}
		if g.startTag && (i > 0 && p[i-1] == '/' || i == 0 && g.lastSlash) {
			if g.depth == 2 {
				g.inData = false // <sheetData/>
			}
			g.depth-- // <c r="A1"/>
		}
		p = p[i+1:]
		g.inTag, g.run = false, 0
	}
	return n, nil
}

// localName is the name read without its namespace prefix (nil when too
// long to be one the guard looks for).
func (g *xmlGuard) localName() []byte {
	if g.nameLen > len(g.name) {
		return nil
	}
	name := g.name[:g.nameLen]
	if i := bytes.IndexByte(name, ':'); i >= 0 {
		name = name[i+1:]
	}
	return name
}

// scan reads the part f through the guard, if it is XML: its first byte
// other than a byte-order mark and white space is '<'.
func (g *xmlGuard) scan(f *zip.File) error {
	rc, err := f.Open()
	if err != nil {
		return nil // excelize names what is wrong
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	head, _ := br.Peek(512)
	head = bytes.TrimLeft(bytes.TrimPrefix(head, []byte("\xef\xbb\xbf")), " \t\r\n")
	if len(head) == 0 || head[0] != '<' {
		return nil
	}
	if _, err := io.Copy(g, br); err != nil && g.err != nil {
		return g.err
	}
	return nil
}

// message says in words why the part was refused.
func (g *xmlGuard) message(err error) string {
	if err == errXMLChildren {
		return fmt.Sprintf("the workbook holds more than %s distinct texts, far more than a list the provider accepts (50 MB as CSV): split the list into smaller workbooks", thousands(g.maxChildren))
	}
	var what string
	switch err {
	case errXMLDepth:
		what = fmt.Sprintf("elements nested more than %d deep", maxXMLDepth)
	case errXMLElement:
		what = fmt.Sprintf("a row (or other element) of more than %s", sizeWords(maxXMLElement))
	case errXMLOutside:
		what = fmt.Sprintf("more than %s besides its rows", sizeWords(maxSheetOutside))
	default:
		what = fmt.Sprintf("more than %s of text in one piece (an Excel cell holds at most 32,767 characters)", sizeWords(int64(maxXMLRun)))
	}
	return fmt.Sprintf("the workbook is damaged or was not written by a spreadsheet program: its part %s holds %s", g.part, what)
}
