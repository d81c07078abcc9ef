package resultgen

// Statuses, tags, dispositions, notes and scope columns: where CRMs,
// dialers and people write what a list column does not.

// wordList is a vocabulary of benign values and of values that state a
// restriction on calling.
type wordList struct {
	benign, restrict []string
}

// phoneStatuses are a phone's own status in a CRM (REsimpli's and
// REISift's "Phone 1 Status", Podio's phone fields).
var phoneStatuses = wordList{
	benign: []string{"Correct", "Verified", "Primary", "Good", "Unverified", "No Answer", "Left VM", "Not Interested", ""},
	restrict: []string{"Wrong Number", "Wrong #", "DNC", "Do Not Call", "Do Not Contact", "Disconnected", "Dead", "Litigator", "Opted Out", "Stop",
		"Complainer", "D.N.C.", "Never Call"},
}

// leadStatuses are a row's status or pipeline stage (Podio, REsimpli,
// Salesforce Lead Status, GoHighLevel pipelines).
var leadStatuses = wordList{
	benign: []string{"Active", "Lead", "New", "Hot", "Warm", "Cold", "Follow Up", "Appointment Set", "Under Contract", "Nurture",
		"Open - Not Contacted", "Working - Contacted"},
	restrict: []string{"DNC", "Dead", "Do Not Contact", "Do Not Call", "Wrong Number", "Litigator", "Opted Out", "Closed - DNC",
		"DNCL", "Do Not Solicit", "No Further Contact", "Represented by counsel", "Do Not Market", "Suppression", "Banned"},
}

// dispositions are a dialer's last call result (Mojo, CallTools,
// ReadyMode).
var dispositions = wordList{
	benign: []string{"No Answer", "Answering Machine", "Left Message", "Busy", "Callback", "Appointment", "Not Interested", "Contacted", ""},
	restrict: []string{"DNC", "Do Not Call", "Wrong Number", "Disconnected", "Litigator", "Hung Up - DNC", "Remove From List",
		"Requested DNC", "Attorney", "Complainer", "Troll", "NoCall", "Requested Removal", "No Contact Requested", "Hostile",
		"No More Calls"},
}

// tagWords are CRM tags (GoHighLevel, REISift lists and tags), written
// together in one cell.
var tagWords = wordList{
	benign: []string{"hot seller", "absentee", "vacant", "probate", "tax delinquent", "follow up", "skip traced", "high equity", "cash buyer"},
	restrict: []string{"dnc", "DNC", "litigator", "tcpa", "wrong number", "do not call", "opted out", "stop", "attorney",
		"unsub", "no texts", "nocall", "dnm", "blocklist", "no consent"},
}

// notes are free text people write in CRMs and dialers.
var notes = wordList{
	benign: []string{"Left VM", "Interested in selling, call back next week", "Spoke with wife", "Vacant property", "Asked for an offer",
		"Motivated seller", "Tenant occupied", "Owner lives out of state", "No answer, try again", "Call back after 5pm", ""},
	restrict: []string{"Do not call", "DNC - requested by owner", "said STOP", "Litigator!! do not contact", "wrong number",
		"Wrong # - not the owner", "opted out by text", "has an attorney, do not contact", "Represented by attorney",
		"threatened TCPA lawsuit", "Asked to be removed from list", "no llamar", "número equivocado",
		"complained about the calls", "known troll, skip", "said he'd report us to the FCC", "Never call this number again",
		"take me off your list, he said", "not to be called", "leave me alone - owner", "dont txt", "requested not to be contacted",
		"reported us as spam - do not use", "withdrew consent on 3/2", "no me llamen más", "lista negra"},
}

// mentionNote writes another number into a note, as people do ("alt #").
var mentionNotes = []string{"alt # %s", "son's cell %s", "try %s instead", "new number: %s"}

// tagSeparators join tags in one cell.
var tagSeparators = []string{", ", ";", " | ", ","}

// scopeVocab is a column that says whether a row was checked at all: its
// headers, the values for "checked" and for "not checked".
type scopeVocab struct {
	headers, checked, not []string
}

// scopes are the scope columns of scrub portals and batch services.
var scopes = []scopeVocab{
	{[]string{"Scrubbed", "Scrubbed Y/N", "DNC Scrubbed"}, []string{"Y", "Yes"}, []string{"N", "No"}},
	{[]string{"Processed", "Is Processed"}, []string{"Yes", "TRUE"}, []string{"No", "FALSE"}},
	{[]string{"DNC Check Status", "Scrub Status", "Lookup Status"}, []string{"Complete", "Completed", "Success"},
		[]string{"Timeout", "Error", "Not Covered", "Skipped", "Failed"}},
	{[]string{"Coverage", "DNC Coverage"}, []string{"Covered"}, []string{"Not Covered", "Outside Coverage"}},
}

// spanishScope is the scope column of Spanish exports.
var spanishScope = scopeVocab{[]string{"Verificado", "Procesado"}, []string{"Sí"}, []string{"No"}}

// crmFlags are a CRM's per-contact opt-out booleans (GoHighLevel's DND,
// "Do Not Disturb"). Set, it is a restriction; unset, it says only that the
// contact did not opt out, nothing about any list.
var crmFlags = []struct {
	header     string
	set, unset string
}{
	{"DND", "true", "false"},
	{"Do Not Disturb", "Yes", "No"},
	{"dnd", "1", "0"},
}
