// Package calltime decides when a phone may lawfully be called: where the
// called person may be, which calling rules apply there, and the window of
// local time they leave open on a given day.
//
// # Where the person is
//
// Every phone gets candidate locations (Locate):
//
//   - From its area code: the state or territory the code serves and its
//     time zone. Where an area code spans zones (850 in Florida, 812 in
//     Indiana…), the exchange (digits 4–6) picks the zone when the numbering
//     data lists it; an exchange it does not list counts in every zone of
//     the area code. The area code's state always counts, whatever the
//     addresses say: Florida, Oklahoma and Connecticut presume a call to
//     their area codes reaches a resident, and SkipDesk applies that reading
//     to every state.
//   - From the owner's addresses (property and mailing): the state, and the
//     ZIP code's zone where the state is split across zones; every zone of
//     the state when the ZIP is missing or not the state's. A ZIP whose
//     state differs from the one written adds that state too.
//   - When nothing places the phone (a toll-free area code and no address),
//     the location is unknown: the phone is held to every state's rules in
//     every zone of the states, DC, Puerto Rico and the US Virgin Islands —
//     the conservative window. Guam, the Northern Mariana Islands and
//     American Samoa are not in that set (no hour is lawful both there and
//     on the East Coast); their numbers and addresses are always placed.
//
// The numbering data (data/areacodes.csv, data/exchanges.csv) is generated
// by internal/gennanp from github.com/nyaruka/phonenumbers, Google's
// libphonenumber data; its version is named in the files' first line. The
// ZIP table (data/zipzones.csv, data/zipstates.csv) is kept by hand.
//
// # The rule
//
// A phone may be called at instant T only when, for every candidate
// location, every applicable window contains T in that location's local
// time and no ban (Sunday, holiday) covers that local day. The rules are
// the federal rows (state US) and the location's state's rows of the dated
// table data/rules.csv (Table), read when the package is first used.
// Window gives the decision with its reasons; DailyWindow gives the window
// a day leaves open, in the called person's local time.
package calltime

//go:generate go run ./internal/gennanp -out data
