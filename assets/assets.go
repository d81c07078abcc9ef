// Package assets holds the files bundled into the app.
package assets

import _ "embed"

// SampleOwners is a sample owner list (200 rows, the way county and list
// vendors export them: company rows, blank last names, absentee owners with a
// separate mailing address, zips with leading zeros, and three rows named
// NOMATCH that never match in the sandbox). The sandbox's "Try the sample
// list" opens it in the trace wizard.
//
//go:embed sample-owners.csv
var SampleOwners []byte

// Icon is the app icon (512×512 PNG). FyneApp.toml names the same file for
// `fyne package`; the window takes it from here, so a plain `go build` shows it too.
//
//go:embed icon.png
var Icon []byte

// SampleOwnersName is the file name the sample list is written under.
const SampleOwnersName = "sample-owners.csv"

// ProofFont and ProofFontBold are DejaVu Sans, regular and bold: the
// Unicode TrueType font the proof of scrub PDF is written in (subset to the
// characters used), so that a name in Latin, Greek, Cyrillic, Armenian,
// Georgian, Hebrew or Arabic letters prints as it is; the PDF's core fonts
// know only Windows-1252. Its licence is fonts/LICENSE (in the third-party
// notices).
//
//go:embed fonts/DejaVuSans.ttf
var ProofFont []byte

//go:embed fonts/DejaVuSans-Bold.ttf
var ProofFontBold []byte
