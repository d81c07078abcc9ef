package assets

// Version is SkipDesk's release version. FyneApp.toml's Version is the one
// place it is set: the packages and installers take it from there, and a test
// keeps this constant equal to it.
const Version = "0.1.0"

// Build and Commit identify the build. `make dist` sets them with
//
//	-ldflags "-X github.com/skipdesk/skipdesk/assets.Build=N -X github.com/skipdesk/skipdesk/assets.Commit=abc1234"
//
// (N is the number of commits on the branch); a plain `go build` leaves "dev".
var (
	Build  = "dev"
	Commit = ""
)

// VersionString is the version and build as shown to people:
// "0.1.0 (build 42, abc1234)", or "0.1.0 (build dev)".
func VersionString() string {
	s := Version + " (build " + Build
	if Commit != "" {
		s += ", " + Commit
	}
	return s + ")"
}
