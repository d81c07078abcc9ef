package resultgen

// The value conventions of list columns, verdicts, result codes, state
// codes, line types and validity, as vendors write them. Each column
// picks one convention and one spelling of it, as a real export does.

// convention is how a column writes a list's answer.
type convention struct {
	name string
	// flagged[i] and clean[i] are one spelling of the pair: a column
	// uses one i.
	flagged, clean []string
	// unknown are the ways "not checked" is written; "" is a blank.
	unknown []string
}

// listConventions are the conventions of a column answering one list
// (federal, a state, litigator, DMA, a vendor's internal list).
var listConventions = []convention{
	// Yes/No: PropStream and REISift exports, most CSV downloads.
	{"yes/no", []string{"Yes", "YES", "yes"}, []string{"No", "NO", "no"}, []string{"", "?", "N/A", "Unknown"}},
	// Y/N: BatchData-style and dialer-ready files.
	{"Y/N", []string{"Y", "y"}, []string{"N", "n"}, []string{"", "U"}},
	// 1/0: TLO/IDI-style batch returns, database dumps.
	{"1/0", []string{"1"}, []string{"0"}, []string{""}},
	// TRUE/FALSE: Excel booleans, JSON APIs flattened to CSV.
	{"TRUE/FALSE", []string{"TRUE", "true", "True"}, []string{"FALSE", "false", "False"}, []string{""}},
	// 1.0/0.0: a yes/no column with blanks written by pandas.
	{"1.0/0.0", []string{"1.0"}, []string{"0.0"}, []string{"", "nan", "NaN"}},
	// Words: DNC scrub portals (RealValidito-, Gryphon-style reports).
	{"words", []string{"DNC", "Listed", "On List", "Registered", "Match", "Found", "Hit"},
		[]string{"Clean", "Not Listed", "Not On List", "Not Registered", "No Match", "Not Found", "Clear"},
		[]string{"", "Not Checked", "Pending", "Unknown"}},
}

// xBlank is the X/blank convention (DealMachine-style and hand-kept
// sheets): a mark when listed, a blank when not. "Not checked" has no
// spelling of its own; a "?" stands for it where the vendor had one.
var xBlank = convention{"X/blank", []string{"X", "x", "*"}, []string{"", "", ""}, []string{"?"}}

// spanishYesNo is Sí/No, with Spanish words for "not checked".
var spanishYesNo = convention{"sí/no", []string{"Sí", "SI", "si"}, []string{"No", "NO", "no"}, []string{"", "Desconocido", "Pendiente"}}

// spanishExcel is TRUE and FALSE as a Spanish Excel writes them.
var spanishExcel = convention{"VERDADERO/FALSO", []string{"VERDADERO"}, []string{"FALSO"}, []string{""}}

// lateUnknown are values met late in a file that its column's convention
// does not cover and that say nothing certain: the vendor's error and
// pending marks.
var lateUnknown = []string{"U", "Unknown", "Pending", "Error", "Timeout", "#N/A", "NULL", "-", "Retry", "Not Checked", "?", "N/A", "null"}

// lateFlagged are values met late that mean "on the list" though the
// column's convention spells it otherwise.
var lateFlagged = []string{"DNC", "Blocked", "Listed", "Do Not Call", "Y - DNC", "Yes (DNC)"}

// verdicts are the spellings of a combined DNC verdict over the registry
// and the state lists (a "DNC Status" or "Scrub Result" column of scrub
// portals and CRMs): flagged[i] / clean[i].
var verdicts = convention{"verdict",
	[]string{"DNC", "Do Not Call", "Blocked", "Flagged", "Not Callable", "Restricted", "Listed", "DO NOT CALL"},
	[]string{"Clean", "OK", "Callable", "Clear", "Callable", "Unrestricted", "Not Listed", "CLEAN"},
	[]string{"", "Error", "Not Scrubbed", "Pending"}}

// callables are "OK to call" columns (PossibleNOW-style "Callable",
// dialer-ready flags), where yes means clean: clean[i] / flagged[i]
// below are written in that order.
var callables = convention{"ok-to-call",
	[]string{"No", "N", "FALSE", "0", "DNC", "no"},
	[]string{"Yes", "Y", "TRUE", "1", "OK", "yes"},
	[]string{"", "?", "Review"}}

// stateConventions are the ways a column of state codes writes "on no
// state list" and "not checked"; the answer itself is the state's code.
var stateConventions = []struct {
	name    string
	clean   string
	unknown []string
}{
	{"codes, blank none", "", []string{"?", "N/A", "Pending"}},
	{"codes, None", "None", []string{""}},
	{"codes, N", "N", []string{"", "U"}},
	{"codes, Clean", "Clean", []string{"", "Not Checked"}},
}

// codeEffect is what a result code says.
type codeEffect struct {
	answers  []Answer
	restrict string
	invalid  bool
	typ      LineType
}

// codeBook is a vendor's result codes: the code for each situation, and
// the lists the code column reports.
type codeBook struct {
	name    string
	reports []string
	codes   map[string]codeEffect
}

// clean answers of a code that clears the registry and the state lists.
var cleanFederalState = []Answer{{"federal", Clean}, {"state:*", Clean}}

// dncCom is Contact Center Compliance's (DNC.com) ResultCode, from its
// scrub output guide: C clean, W wireless and Y VoIP not on any list, E a
// valid EBR not on any list, D on a list (the Reason column says which),
// L a wireless number in a state that forbids solicitation to wireless,
// P the project's own DNC, B blocked, I invalid, M malformed.
var dncCom = codeBook{"DNC.com ResultCode", []string{"federal", "state:*"}, map[string]codeEffect{
	"C": {answers: cleanFederalState},
	"W": {answers: cleanFederalState, typ: TypeMobile},
	"Y": {answers: cleanFederalState, typ: TypeVoIP},
	"E": {answers: cleanFederalState},
	"D": {answers: []Answer{{"federal", Flagged}}},
	"L": {restrict: "wireless number in a state that forbids solicitation to wireless (code L)", typ: TypeMobile},
	"P": {restrict: "project do-not-call match (code P)"},
	"B": {restrict: "blocked (code B)"},
	"I": {invalid: true},
	"M": {invalid: true},
}}

// litigatorCodes are a litigator-list service's result (Blacklist
// Alliance- and TCPA Litigator List-style bulk results): one code, the
// worst finding.
var litigatorCodes = codeBook{"litigator service result", []string{"federal", "litigator", "state:*"}, map[string]codeEffect{
	"CLEAN":           {answers: []Answer{{"federal", Clean}, {"litigator", Clean}, {"state:*", Clean}}},
	"TCPA_PLAINTIFF":  {answers: []Answer{{"litigator", Flagged}}},
	"KNOWN_LITIGATOR": {answers: []Answer{{"litigator", Flagged}}},
	"DNC_COMPLAINER":  {restrict: "DNC complainer"},
	"FEDERAL_DNC":     {answers: []Answer{{"federal", Flagged}}},
	"STATE_DNC":       {answers: []Answer{{"state:*", Flagged}}},
	"INVALID":         {invalid: true},
}}

// typeVocabs are line-type vocabularies: mobile, landline, VoIP, and the
// ways "unknown" is written. Each column uses one.
var typeVocabs = [][4][]string{
	// PropStream / BatchData / REISift.
	{{"Mobile"}, {"Landline"}, {"VoIP"}, {"", "Unknown"}},
	// TLO/IDI-style and carrier lookups.
	{{"Wireless"}, {"Landline"}, {"VoIP"}, {"", "Other"}},
	{{"WIRELESS"}, {"LANDLINE"}, {"VOIP"}, {""}},
	// One-letter codes of dialer-ready files.
	{{"M"}, {"L"}, {"V"}, {"", "U"}},
	// Older carriers' words.
	{{"Cell", "Cellular"}, {"Land Line", "Residential"}, {"VOIP", "Non-Fixed VoIP"}, {"", "N/A"}},
	{{"PCS", "Cell Phone"}, {"Wireline", "Fixed"}, {"Fixed VoIP", "Non-Fixed VoIP"}, {"", "Unknown"}},
	// DNC.com's LineType: Wireless, VoIP, and AllOther for everything else.
	{{"Wireless"}, {"AllOther"}, {"VoIP"}, {""}},
	// Spanish.
	{{"Móvil", "Celular"}, {"Fijo"}, {"VoIP"}, {"", "Desconocido"}},
}

// wirelessFlags are "is wireless" columns: the pair written for a
// wireless (or VoIP) line and for a landline.
var wirelessFlags = [][2]string{{"1", "0"}, {"Y", "N"}, {"TRUE", "FALSE"}, {"Yes", "No"}}

// carriers by line type: a carrier's name says the line is wireless only
// when it says so ("Wireless", "Mobility"); the others state nothing.
var carriers = map[LineType][]string{
	TypeMobile:   {"Verizon Wireless", "T-Mobile USA", "AT&T Mobility", "Cricket Wireless", "Sprint Spectrum"},
	TypeLandline: {"AT&T Southwest", "Frontier Communications", "CenturyLink", "Windstream", "Verizon"},
	TypeVoIP:     {"Bandwidth.com", "Twilio", "Google Voice", "Level 3 Communications", "Onvoy"},
}

// validity is a number-status vocabulary: working, not working, unknown.
type validity struct {
	ok, bad []string
	unknown []string
}

// validities are number-status words.
var validities = []validity{
	{[]string{"Valid"}, []string{"Invalid"}, []string{"", "Unknown"}},
	{[]string{"Connected", "Active"}, []string{"Disconnected", "Not In Service"}, []string{""}},
	{[]string{"Working"}, []string{"Dead", "Disconnected"}, []string{"", "Unverified"}},
	{[]string{"1"}, []string{"0"}, []string{""}},
}
