package resultgen

import (
	"strings"
	"unicode"

	"github.com/skipdesk/skipdesk/jobs"
)

// Vendor families: the columns each kind of export has and the words of
// its headers. The names say whose files each imitates; the spellings are
// the vendors' documented or commonly seen ones, mixed within a family as
// the same vendor's exports differ between products and years.

// field is a kind of column.
type field int

// Kinds of column.
const (
	fPhone field = iota
	fType
	fWireless
	fCarrier
	fFederal
	fUnnamed // a DNC column that names no list
	fStates  // the state lists the phone is on, as codes
	fPerState
	fLitigator
	fDMA
	fInternal // the vendor's own do-not-call list
	fVerdict
	fCallable
	fCode
	fReason
	fStatus
	fTags
	fValidity
	fNotes
	fLeadStatus
	fDisposition
	fDND
	fScope
	fDate
)

// noiseKind is what a column with nothing about calling holds.
type noiseKind int

const (
	nFirst noiseKind = iota
	nLast
	nFull
	nStreet
	nCity
	nState
	nZip
	nEmail
	nID
	nCalled // a dialer's last call date: not a scrub date
	nAge
)

// noiseCol is a column with nothing about calling; perOwner columns repeat
// for each owner of a wide row.
type noiseCol struct {
	header   string
	kind     noiseKind
	perOwner bool
}

// family is a kind of vendor's export.
type family struct {
	name string
	kind Kind
	// crm: a CRM or dialer export, with statuses, tags and notes and no
	// list columns of its own.
	crm bool
	// long is the chance its layout is one phone a row.
	long float64
	// phones name a wide layout's phone slots ("Phone %d"); typed
	// families name them by type instead (mobiles, lands).
	phones, mobiles, lands []string
	// longPhone name the phone column of a long layout.
	longPhone []string
	// owners prefix each owner's columns in a wide layout ("Owner %d ");
	// nil: one person a row.
	owners []string
	// bareFirst is the chance the first owner's columns have no prefix.
	bareFirst float64
	// seps join a phone's name and an attribute ("Phone 1" + " " + "DNC").
	seps  []string
	attrs map[field][]string
	// lists are the list fields it may write for each phone; rows the
	// fields of a row.
	lists, rows []field
	noise       []noiseCol
	spanish     bool
}

// Attribute words shared by several families.
var (
	typeWords      = []string{"Type", "Line Type", "Phone Type"}
	federalWords   = []string{"Federal DNC", "National DNC", "Fed DNC", "DNC Federal", "NDNC", "National Registry", "DNC (Federal)"}
	unnamedWords   = []string{"DNC", "Do Not Call", "DNC Flag", "Is DNC"}
	stateWords     = []string{"State DNC", "State DNC List", "DNC State", "State Do Not Call"}
	litigatorWords = []string{"Litigator", "TCPA Litigator", "Known Litigator", "TCPA", "Litigator Flag", "Serial Litigator"}
	dmaWords       = []string{"DMA", "DMA DNC", "DMAchoice", "Industry DNC"}
	internalWords  = []string{"Internal DNC", "Vendor DNC", "In-House DNC", "House DNC", "Client DNC",
		// A vendor's own list named for why: a number reassigned, an owner
		// dead, a complainer.
		"Reassigned", "Deceased", "Complainer", "Wrong Number", "Known Troll"}
	verdictWords  = []string{"DNC Status", "Scrub Result", "Compliance", "DNC Result"}
	callableWords = []string{"OK to Call", "Callable", "Can Call", "Safe to Call", "Dialable", "DNC Clear", "Passed DNC", "DNC Safe", "Clean DNC"}
	statusWords   = []string{"Status", "Phone Status"}
	tagWordsHdr   = []string{"Tags", "Phone Tags", "Labels"}
	validityWords = []string{"Valid", "Is Valid", "Connected", "Number Status"}
	carrierWords  = []string{"Carrier", "Carrier Name"}
	wirelessWords = []string{"Wireless", "Is Wireless", "Is Mobile", "IsWirelessOrVoIP"}
	notesWords    = []string{"Notes", "Comments", "Lead Notes", "Note", "Remarks"}
	leadWords     = []string{"Lead Status", "Status", "Stage", "Pipeline Stage", "Contact Status"}
	dispWords     = []string{"Disposition", "Last Disposition", "Call Result", "Last Call Result"}
	rowTagWords   = []string{"Tags", "Labels", "Lists"}
)

// owner noise of trace exports.
var ownerNoise = []noiseCol{{"First Name", nFirst, true}, {"Last Name", nLast, true}}

// property noise of trace exports.
var propertyNoise = []noiseCol{{"Property Address", nStreet, false}, {"Property City", nCity, false},
	{"Property State", nState, false}, {"Property Zip", nZip, false}, {"Mailing Address", nStreet, false}}

var families = []family{
	// A list service's skip-traced export (PropStream-style): owners 1-2,
	// Phone 1..N with their type and a DNC column that names no list.
	{name: "list-service skip export (PropStream-style)", kind: TraceResult, long: 0.1,
		phones: []string{"Phone %d", "Phone Number %d"}, longPhone: []string{"Phone", "Phone Number"},
		owners: []string{"Owner %d ", "Owner%d "}, bareFirst: 0.3, seps: []string{" "},
		attrs: map[field][]string{fType: typeWords, fUnnamed: {"DNC"}, fFederal: federalWords, fLitigator: {"Litigator"}, fDMA: dmaWords},
		lists: []field{fUnnamed, fFederal, fLitigator, fDMA, fType, fStates},
		rows:  []field{fDate, fNotes}, noise: append(ownerNoise, propertyNoise...)},
	// BatchData-style property skip trace: "Input Data:" columns, then
	// Phone1..N with type, DNC and TCPA flags.
	{name: "property skip trace (BatchData-style)", kind: TraceResult, long: 0.05,
		phones: []string{"Phone%d", "Phone %d"}, longPhone: []string{"Phone"},
		owners: []string{"Owner %d ", "Contact %d "}, bareFirst: 0.5, seps: []string{" ", "_"},
		attrs: map[field][]string{fType: {"Type"}, fUnnamed: {"DNC"}, fLitigator: {"TCPA", "TCPA Litigator"}, fCarrier: carrierWords,
			fFederal: federalWords, fInternal: internalWords},
		lists: []field{fUnnamed, fFederal, fLitigator, fType, fCarrier, fInternal},
		rows:  []field{fDate, fScope},
		noise: []noiseCol{{"Input Data: Property Address", nStreet, false}, {"Input Data: Property City", nCity, false},
			{"Input Data: Property State", nState, false}, {"Input Data: Property Zip", nZip, false},
			{"First Name", nFirst, true}, {"Last Name", nLast, true}, {"Email 1", nEmail, true}}},
	// A driving-for-dollars app's export (DealMachine-style): contacts
	// with numbered phones and an X/blank DNC mark.
	{name: "driving-for-dollars export (DealMachine-style)", kind: TraceResult, long: 0.1,
		phones: []string{"Phone %d", "Phone%d"}, longPhone: []string{"Phone"},
		owners: []string{"Contact %d ", "contact_%d_"}, seps: []string{" ", "_"},
		attrs: map[field][]string{fType: typeWords, fUnnamed: {"DNC", "Do Not Call"}, fLitigator: litigatorWords, fFederal: federalWords},
		lists: []field{fUnnamed, fFederal, fLitigator, fType},
		rows:  []field{fDate, fTags, fNotes}, noise: append([]noiseCol{{"Full Name", nFull, true}}, propertyNoise[:4]...)},
	// A CRM for investors (REISift-style): Phone 1..N with a status and
	// tags each; row tags, status and notes.
	{name: "investor CRM (REISift-style)", kind: TraceResult, crm: true, long: 0.15,
		phones: []string{"Phone %d"}, longPhone: []string{"Phone", "Phone Number"},
		owners: []string{"Owner %d "}, bareFirst: 0.6, seps: []string{" "},
		attrs: map[field][]string{fType: typeWords, fStatus: statusWords, fTags: tagWordsHdr},
		lists: []field{fType, fStatus, fTags},
		rows:  []field{fLeadStatus, fTags, fNotes}, noise: append(ownerNoise, propertyNoise...)},
	// Skip tracers that sort phones by type (Tracerfy-, SkipGenie-style):
	// Mobile-1.., Landline-1.., each with its own DNC and litigator flags.
	{name: "typed skip trace (Tracerfy/SkipGenie-style)", kind: TraceResult,
		mobiles: []string{"Mobile-%d", "Mobile %d", "Wireless %d", "Cell %d"}, lands: []string{"Landline-%d", "Landline %d", "Land Line %d"},
		owners: []string{"Owner %d ", ""}, seps: []string{" ", " - "},
		attrs: map[field][]string{fUnnamed: {"DNC"}, fLitigator: litigatorWords, fFederal: federalWords, fStates: stateWords},
		lists: []field{fUnnamed, fFederal, fLitigator, fStates},
		rows:  []field{fDate}, noise: append(ownerNoise, propertyNoise[:4]...)},
	// Data-broker batch returns (TLO/IDI-style): capitals, PHONE1..N with
	// type, carrier and 1/0 DNC.
	{name: "data-broker batch (TLO/IDI-style)", kind: TraceResult,
		phones: []string{"PHONE%d", "PHONE_%d"}, owners: []string{"SUBJECT%d_", ""}, seps: []string{"_"},
		attrs: map[field][]string{fType: {"TYPE", "LINE_TYPE"}, fCarrier: {"CARRIER"}, fUnnamed: {"DNC"}, fFederal: {"NATIONAL_DNC"},
			fLitigator: {"LITIGATOR", "TCPA"}, fValidity: {"STATUS", "CONNECTED"}, fWireless: {"WIRELESS"}},
		lists: []field{fType, fCarrier, fUnnamed, fFederal, fLitigator, fValidity, fWireless},
		rows:  []field{fDate},
		noise: []noiseCol{{"FIRST", nFirst, true}, {"LAST", nLast, true}, {"ADDRESS", nStreet, false}, {"CITY", nCity, false},
			{"ST", nState, false}, {"ZIP", nZip, false}}},
	// Podio- and REsimpli-style CRM exports: phones with statuses, a lead
	// status and notes.
	{name: "CRM export (Podio/REsimpli-style)", kind: TraceResult, crm: true, long: 0.3,
		phones: []string{"Phone %d", "Phone Number %d"}, longPhone: []string{"Phone", "Phone Number"},
		seps:  []string{" ", " - "},
		attrs: map[field][]string{fStatus: statusWords, fType: typeWords, fValidity: validityWords},
		lists: []field{fStatus, fType, fValidity},
		rows:  []field{fLeadStatus, fNotes, fTags}, noise: []noiseCol{{"Seller Name", nFull, false}, {"Property Address", nStreet, false}, {"Lead ID", nID, false}}},
	// GoHighLevel contacts and Salesforce leads: one contact a row, tags,
	// a DND flag, a status and a description.
	{name: "CRM contacts (GoHighLevel/Salesforce-style)", kind: TraceResult, crm: true, long: 1,
		longPhone: []string{"Phone", "phone", "Mobile Phone", "MobilePhone"},
		rows:      []field{fTags, fDND, fLeadStatus, fNotes},
		noise:     []noiseCol{{"First Name", nFirst, false}, {"Last Name", nLast, false}, {"Email", nEmail, false}, {"Contact Id", nID, false}}},
	// Dialer exports (Mojo, CallTools, ReadyMode): one number a row with
	// its last disposition and the last call's date (not a scrub date).
	{name: "dialer export (Mojo/CallTools/ReadyMode-style)", kind: TraceResult, crm: true, long: 1,
		longPhone: []string{"Phone", "Phone Number", "Number", "phone_number"},
		rows:      []field{fDisposition, fNotes},
		noise:     []noiseCol{{"Name", nFull, false}, {"Last Called", nCalled, false}, {"Attempts", nAge, false}}},
	// A Spanish-language trace export.
	{name: "Spanish trace export", kind: TraceResult, long: 0.2, spanish: true,
		phones: []string{"Teléfono %d", "Tel %d"}, longPhone: []string{"Teléfono", "Telefono"},
		owners: []string{"Propietario %d "}, bareFirst: 0.5, seps: []string{" "},
		attrs: map[field][]string{fType: {"Tipo"}, fUnnamed: {"No Llamar"}, fFederal: {"Registro Nacional", "DNC Federal"},
			fLitigator: {"Litigante"}, fStatus: {"Estado"}},
		lists: []field{fType, fUnnamed, fFederal, fLitigator, fStatus},
		rows:  []field{fDate, fNotes},
		noise: []noiseCol{{"Nombre", nFirst, true}, {"Apellido", nLast, true}, {"Dirección", nStreet, false}, {"Ciudad", nCity, false}}},

	// DNC results.

	// Contact Center Compliance (DNC.com) scrub output: ResultCode,
	// Reason, RegionAbbrev (the phone's state, not a list), carrier and
	// line type.
	{name: "DNC.com scrub output", kind: DNCResult, long: 1, longPhone: []string{"Phone"},
		rows:  []field{fCode, fReason, fWireless, fType, fLitigator, fDate},
		noise: []noiseCol{{"RegionAbbrev", nState, false}, {"Country", nID, false}, {"Locale", nCity, false}},
		attrs: map[field][]string{fCode: {"ResultCode"}, fReason: {"Reason"}, fWireless: {"IsWirelessOrVoIP"}, fType: {"LineType"},
			fLitigator: {"Known Litigator", "Litigator"}}},
	// Scrub portals with a column per list (Gryphon-, RealValidito-style).
	{name: "scrub portal report (Gryphon/RealValidito-style)", kind: DNCResult, long: 1,
		longPhone: []string{"Phone Number", "phone", "Phone", "TELEPHONE"},
		rows:      []field{fFederal, fStates, fPerState, fLitigator, fDMA, fInternal, fUnnamed, fVerdict, fType, fWireless, fValidity, fDate, fScope},
		attrs: map[field][]string{fFederal: federalWords, fStates: stateWords, fLitigator: litigatorWords, fDMA: dmaWords,
			fInternal: internalWords, fUnnamed: unnamedWords, fVerdict: verdictWords, fType: typeWords, fWireless: wirelessWords,
			fValidity: validityWords}},
	// Litigator-list services (Blacklist Alliance-, TCPA Litigator
	// List-style): one result code a number.
	{name: "litigator service result (Blacklist Alliance-style)", kind: DNCResult, long: 1,
		longPhone: []string{"phone", "Phone", "number"},
		rows:      []field{fCode, fDate},
		attrs:     map[field][]string{fCode: {"code", "Result", "Status Code", "reason"}}},
	// Consent and DNC management (PossibleNOW-style): a Callable verdict
	// and a reason code, with DMA and wireless columns.
	{name: "DNC management report (PossibleNOW-style)", kind: DNCResult, long: 1,
		longPhone: []string{"Telephone", "Phone"},
		rows:      []field{fCallable, fFederal, fStates, fDMA, fLitigator, fWireless, fDate, fScope},
		attrs: map[field][]string{fCallable: callableWords, fFederal: {"Federal", "National"}, fStates: {"State", "State List"},
			fDMA: {"DMA"}, fLitigator: {"Litigator"}, fWireless: {"Wireless"}}},
	// An owner list sent to a scrub service and returned with flags
	// appended to each phone (wide).
	{name: "scrub appended to an owner list", kind: DNCResult,
		phones: []string{"Phone %d", "Phone%d"}, owners: []string{"Owner %d "}, bareFirst: 0.5, seps: []string{" ", "_"},
		attrs: map[field][]string{fFederal: federalWords, fUnnamed: {"DNC", "DNC Status"}, fLitigator: litigatorWords,
			fStates: stateWords, fType: typeWords, fVerdict: verdictWords},
		lists: []field{fFederal, fUnnamed, fLitigator, fStates, fType, fVerdict},
		rows:  []field{fDate, fScope}, noise: ownerNoise},
}

// caseStyle rewrites a header in a naming convention.
type caseStyle int

const (
	styleAsIs caseStyle = iota
	styleSnake
	styleCamel
	styleCaps
	styleLower
)

func (s caseStyle) String() string {
	return [...]string{"as written", "snake_case", "camelCase", "ALL CAPS", "lower case"}[s]
}

// restyle writes h in style s (its words split as headers are everywhere
// in SkipDesk: at spaces and punctuation, case changes and digits).
func restyle(h string, s caseStyle) string {
	switch s {
	case styleSnake:
		return strings.Join(jobs.HeaderWords(h), "_")
	case styleCamel:
		ws := jobs.HeaderWords(h)
		for i, w := range ws {
			if i > 0 {
				rs := []rune(w)
				rs[0] = unicode.ToUpper(rs[0])
				ws[i] = string(rs)
			}
		}
		return strings.Join(ws, "")
	case styleCaps:
		return strings.ToUpper(h)
	case styleLower:
		return strings.ToLower(h)
	}
	return h
}
