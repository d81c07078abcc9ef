// Package layout reads result files in any layout: which columns hold a
// row's phones, their types and flags, the match status, the owners' names,
// e-mails and addresses, and which columns are the person's own data echoed
// back. It decides, phone by phone, whether a number may be called.
//
// # The rule (fail closed)
//
// A phone may be called only when, for every list the call depends on, the
// answer is positively clean for that phone — read from its own cells or its
// own row — and the scrub the answer rests on is known and at most 31 days
// old at the moment of the call or export. Judge applies the rule and is the
// only place it is written; every feature that decides callability (the
// viewer and its quick filters, the callable export, scrub-from-trace,
// reuse, the library index, the proof of scrub) reads the Block a Reader
// gives each phone. The lists:
//
//   - the DNC registry: a federal column, a DNC column that names no list,
//     or a combined verdict must answer, and every one reported must be
//     clean;
//   - the litigator list: a litigator column or a combined verdict;
//   - every other list the file or SkipDesk reports: each state list, DMA
//     and industry lists, the file's own internal list, every restriction
//     the file states in words (a status, a tag, a disposition, notes), the
//     company's own do-not-call list kept in SkipDesk.
//
// Anything else is flagged or unknown, and unknown is never callable: a
// blank, "?", a value the column's convention does not cover, a row the file
// says was not scrubbed, a number in no DNC result, an answer of no known
// date or dated in the future, a column read by a guess the person has not
// confirmed. A number that is not valid is never callable.
//
// Lists are kept apart (FlagKind): a column answers for the list it names
// and no other, and a column that names no list is its own ("the file's
// DNC column"), required like the others. Within one list flagged beats
// unknown beats clean: a known "no" never covers a "not checked". The
// company's list in SkipDesk never answers for a list of the file's. A
// column naming one state ("NJ State DNC", "DNC_FL") answers that state's
// list only, never the list of each phone's own state that a column over
// all states reports; the answers of several files about named states are
// merged, never one replacing another. A verdict ("Safe to Call", "DNC
// Status") read clean clears the state lists too; read flagged it does not
// say on which list, so it leaves them unknown. A scrub date whose day and
// month can be read both ways, and which one way lies in the future, dates
// nothing. A column headed "State" and nothing else, in a file of DNC
// answers with no other part of an address, may name the state lists a
// phone is on or where it is: it is read as the lists, a guess the person
// is asked to confirm. A DNC result from elsewhere than the provider's
// own jobs whose DNC column names no list ("DNC Status": Flagged) does not
// say on which list it found the phone: where the row does not answer the
// state lists, they are not known clean (Flags.Foreign), so a newer scrub
// of the registry alone never clears it.
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
//     phone); dnc/suppression; federal/national; state; litigator/tcpa/
//     blacklist; internal/project/company; dma/industry; callable/ok to
//     call; code/result/status; match/found; first/last/name; owner/contact/
//     person; email; address parts; property/site vs mailing.
//   - With a list, a word of passing (clean, clear, safe, passed, free,
//     approved, eligible, allowed, exempt, ok…) turns what its yes means,
//     as a negation does ("DNC Clear": Y is not on the list; "DNC Not
//     Clear" turns it back); alone it names no list ("Free And Clear").
//     A list's column whose header holds a word of no class ("DNC
//     Waived"), which might turn it too, is asked about (a Guess) until
//     the person says what its values mean.
//   - A number after owner/contact/person names a person ("Owner 2",
//     "contact_1"); a number after a phone word, a kind of phone, a flag or an
//     e-mail word is the phone's (or e-mail's) index ("Phone 1 DNC",
//     "contact_1_phone2", "Cell1"). The first owner is the row's main person.
//   - A column named for a phone is a phone when its values look like phone
//     numbers; "Mobile 2" is a phone whose kind is implied. Phone columns
//     with the same person, kind and index are one slot: the column the
//     service normalised (phone_normalized) is its number and the other its
//     raw twin. Where the two hold two numbers in a row ("Phone" beside
//     "Phone"), which one the row's answers are about is not known: the
//     phone's number status is unknown.
//   - Type, flag, scope and detail columns belong to the phone they name:
//     owners match exactly (owner 1's "Phone 1 DNC" never answers for owner
//     2's phone 1); a column that names no phone and no owner applies to
//     every phone of the row; where the header leaves it open which phone it
//     means (an index that slots of several kinds share) it is attached to
//     each and the layout asks (a Guess): those phones are unsure until the
//     person answers. A column about a phone the file does not hold
//     ("Phone 2 DNC" with no "Phone 2") is attached to every phone of the
//     row the same way, a Guess: its flag flags them, its clean answer
//     (perhaps about another phone) makes none callable. So is a flag that
//     names no phone but stands between two phones' columns ("Phone, No
//     Llamar, Litigante, Phone": the phone's before it, or the row's?); a
//     column of restrictions in words, which only ever flags, is the
//     row's there without asking.
//   - A column named for a list whose values are phone numbers ("DNC
//     Mobile 1", "Litigator Phones", "Phone 2 (DNC)") is how a vendor that
//     sorts a row's phones by what it found writes the numbers on that
//     list: each is a phone slot of its own (its qualifier names the list,
//     so it never pairs with "Mobile 1"), flagged on that list
//     (ConvListed), and the file then reports the list for every phone.
//     An empty column named as such a column of another phone is one too.
//     A header calling its numbers clean ("Callable Phones", "Non-DNC
//     Phone 1") makes none so; where another column answers for the same
//     phone on that list ("DNC Phone" beside "DNC Status"), the numbers
//     stay flagged and a note says how to read them otherwise.
//   - A column named for a list whose cells hold numbers, several to a
//     cell anywhere, or that names no phone ("DNC Numbers": "5125550102;
//     5125550103"), is a flag of the phones it is about (ConvNumbers): a
//     phone whose number it lists is on the list, the others are not
//     answered by it.
//   - A column named for a phone whose cells hold several numbers ("Other
//     Phones": "5125550101; 5125550102") is one slot a number (Slot.Part),
//     named by the column. A row's answers were asked of the phone the row
//     is about: such a number takes only what flags from them (and the
//     restrictions the row states), never a clean answer on a list nor the
//     row's type, so a scrub of its own answers it. Its slots key apart
//     from a "Phone" of one number, and count as one phone of the row only
//     in a file of no other (a DNC result stays one). A callable list
//     writes the cell with its kept numbers alone.
//   - A "status", "result" or "code" column is read by its values: match
//     words make it the match status, ok/invalid the number's status, the
//     letters of a DNC scrub service's result codes (Codes) or list words
//     ("Clean", "DNC", "Litigator") a verdict.
//   - Any other column whose values mention a restriction anywhere in the
//     file ("DNC", "dead", "wrong number", "opted out", "attorney") is a
//     restriction source for its phone or its row (restrict.go): a value
//     that mentions one is flagged, or unknown with a negation ("not DNC");
//     a value that mentions none states no restriction; a bare "Yes" in
//     it says one holds without naming it (not clear). A column with no
//     name whose values are all yes or no is a list SkipDesk cannot know,
//     about every phone of its row, and asked about (a Guess).
//   - A note beside the number in a phone's own cell ("5125550101 (DNC)",
//     "DNC: …") is the file's word about that phone (phonenote.go): a
//     restriction stated flags it, words other than the number's
//     extension and what it is ("Mobile:", "(cell)") and marks ("*")
//     leave it unknown.
//   - A scope column ("Scrubbed Y/N", "DNC check status": complete/timeout)
//     says which rows were scrubbed at all: where it says not, or is blank,
//     the file's answers for the row are unknown.
//   - A column of the dates numbers were put on a list ("DNC Registered
//     Date", "Date Added to DNC", "Litigator Since") is a flag
//     (ConvSince): a date flags the number, a blank says nothing until
//     the person says it means not on the list (asked, as of a column of
//     marks); "not checked" marks beside the dates are unknown. A "DNC
//     Date", maybe that and maybe the scrub date, is read so too where
//     some rows have none and nothing else in the file answers the
//     registry, and asked about (a Guess); elsewhere it may date the row.
//   - A scrub date column ("Date Scrubbed", a merged result's source_date)
//     dates each row's answers; numeric dates whose day and month cannot be
//     told apart are read as the earlier of the two. One named for a phone
//     ("Phone 1 Scrub Date") dates that phone's answers alone (with the
//     row's, the older): a phone without one is not dated by another's.
//     A phone's bare date ("Tel 2 Fecha"), like a row's ("Date", "DNC
//     Date"), may be its scrub's: it makes the date older, never fresher. A file without one is
//     dated by its job record or the date the person gave on import, never
//     by the file system. A date naming no phone among the phones' columns
//     (after one phone's number, before another's) dates the phone before
//     it and makes the others' no later (Layout.Caps), and is asked about.
//     Dates are read in figures, in words ("Friday, June 5, 2026"; a month
//     alone is its first day) and as Excel's serial numbers (46345); a
//     column named for a scrub's date whose values are dates SkipDesk
//     cannot read ("13th June") still dates its rows: with no date, so no
//     phone of theirs is callable, rather than passed over.
//   - The person's own columns: those named "Input …"/"Input Data: …"/
//     "Original …", every column before the last such one, the upload's
//     header when the app knows it (Options.InputHeaders), and a column whose
//     name the result repeats as "result_<name>". They are never phones of
//     the result; their notes still state restrictions of the row.
//
// # Conventions are the whole file's
//
// Roles are found from the header and the first rows; then every column
// that bears on callability is read over the whole file (Profile) and
// Detect decides again with all its values. A flag column's Convention
// (yes/no, words, codes, marks, state codes) is the one most of its rows are
// written in; a value reads clean only in the column's own convention, so a
// value met late that the convention does not cover is unknown (a listing
// word still reads flagged), and the layout asks about it naming the values
// and their rows. A state code is never clean ("OK" is Oklahoma).
//
// # Questions block
//
// Where detection is not sure (values not understood, marks whose blank may
// mean clean, a "callable" verdict, a flag that could belong to two phones,
// dates that are not dates or lie in the future) the layout carries a
// Question; those that bear on callability Block: a callable list that rests
// on them refuses (QuestionError) until the person answers with a
// Correction, kept by the app under the header's Signature and applied
// wherever the file is read (Options.Corrections), or chooses to leave out
// the phones they touch.
//
// # Rows, filters, joins
//
// A Reader turns a record into a Row: people, e-mails, addresses, match
// status, the row's scrub date, and phones with their number (phone.Key),
// type, flags, scrub date and Block. Filters (Filter, Keep) are row-level
// ("matched") or phone-level ("mobile", "not-dnc", "not-litigator",
// "callable"); Layout.Check says why a filter cannot apply to a layout
// instead of giving an empty view. A number a flag filter ("not-dnc",
// "not-litigator", "callable") leaves out in one row is left out of every
// row (FlaggedNumbers): the viewer and every export apply it, so that a
// filtered export writes exactly the rows the viewer shows.
//
// A FlagIndex holds the flags of one or more DNC results (in any layout)
// by number, each answer with its own date, the newest winning; a Reader
// given the index applies its number's flags over each phone's own
// (Flags.Override: a phone the file flags stays flagged; a number in no DNC
// result is unknown). It also carries the company's list (SetInternal) and
// the date of the file's own answers and the time calls are judged at
// (SetDates).
package layout
