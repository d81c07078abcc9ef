// Package layout reads result files in any layout: which columns hold a
// row's phones, their types and flags, the match status, the owners' names,
// e-mails and addresses, and which columns are the person's own data echoed
// back. It decides, phone by phone, whether a number may be called.
//
// # Detection
//
// Detect works from general rules, not from a list of known files:
//
//   - A header is split into words and numbers at spaces, punctuation,
//     underscores, case changes (PhoneType) and letter-digit changes
//     (phone1), lower-cased; phrases are read as one word ("do not call" is
//     dnc, "e mail" is email); filler words (is, flag, number, y/n) are
//     dropped; the rest are classed through synonyms: phone/telephone/tel;
//     mobile/cell/wireless, landline/home/residential, voip, work (a kind of
//     phone); dnc; federal/national; state; litigator/tcpa/blacklist;
//     internal/project/company; callable/ok to call; code/result/status;
//     match/found; first/last/name; owner/contact/person; email; address
//     parts; property/site vs mailing.
//   - A number after owner/contact/person names a person ("Owner 2",
//     "contact_1"); a number after a phone word, a kind of phone, a flag or an
//     e-mail word is the phone's (or e-mail's) index ("Phone 1 DNC",
//     "contact_1_phone2", "Cell1"). The first owner is the row's main person.
//   - A column named for a phone is a phone when its sample values look
//     like phone numbers; "Mobile 2" is a phone whose kind is implied.
//     Phone columns with the same person, kind and index are one slot: the
//     column the service normalised (phone_normalized) is its number and the
//     other its raw twin. A file that normalises one number (a DNC result)
//     has that single slot; its other phone columns are the person's.
//   - Type, flag and detail columns belong to the slots their words name;
//     a flag column that names no phone ("Litigator", "dnc") applies to
//     every phone of the row.
//   - A "status", "result" or "code" column is read by its values: match
//     words make it the match status, ok/invalid the number's status, the
//     letters of a DNC scrub service's result codes (Codes) a combined
//     verdict.
//   - The person's own columns: those named "Input …"/"Input Data: …"/
//     "Original …", every column before the last such one, the upload's
//     header when the app knows it (Options.InputHeaders), and a column whose
//     name the result repeats as "result_<name>". They are never phones of
//     the result.
//   - The file is a DNC result when it has one phone slot with flags and no
//     match status or e-mails; a trace result when it has a match status,
//     several phones, e-mails, flags, or a typed phone; else a list of
//     owners.
//
// Where detection is not sure (no phone column, two match status columns, a
// flag column whose values are mostly not understood or are marks, a phone
// column whose values are not phones) the layout carries a Question; a
// Correction, kept by the app under the header's Signature, settles it.
//
// # Flags
//
// Every flag is Flagged, Clean or Unknown. Read as flagged/clean: true/false,
// yes/no, y/n, t/f, 1/0, on/off, words (clean, ok, not listed / dnc, do not
// call, listed, litigator, tcpa, blocked), state codes in a state DNC column
// ("TX;FL"), and the result codes of DNC.com's scrub service (Codes). A blank,
// "?", unknown, n/a, any unrecognised value and a missing column are
// Unknown. A column of marks (X for flagged, blank otherwise) reads its blanks
// as unknown until the person confirms that they mean clean. Unknown is never
// callable, and neither is an invalid or malformed number (see Callability
// for the whole rule, and what a file without a state column means).
//
// A Tally counts how each value of each flag, match status and type column
// was read over a whole file ("LITIGATOR: Y -> flagged 12, N -> clean 300,
// ? -> unknown 4").
//
// # Rows and filters
//
// A Reader turns a record into a Row: people, e-mails, addresses, match
// status, and phones with their number (phone.Key), type, flags and Block (why
// a phone may not be called). Filters (Filter, Keep) are row-level
// ("matched") or phone-level ("mobile", "not-dnc", "not-litigator",
// "callable": a row keeps only the phones that pass and is dropped when none
// is left); Layout.Check says why a filter cannot apply to a layout instead of
// giving an empty view.
//
// # Joining DNC results
//
// A FlagIndex holds the flags of one or more DNC results (in any layout) by
// number, the newest result winning; a Reader given the index applies its
// number's flags over each phone's own (Flags.Override: a phone the file
// flags stays flagged; a number in no DNC result is unknown).
package layout
