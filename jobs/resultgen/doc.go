// Package resultgen generates result files as trace vendors, DNC scrub
// services, litigator-list services, CRMs and dialers write them, each with
// its truth: for every phone number in them, whether it may be called and,
// when not, why; and its line type as the files state it.
//
// It exists for the tests that hold the product's promise over thousands
// of files nobody designed for: a number that is flagged, unknown, invalid,
// stale, or on the company's list never reaches a callable export. It is
// written from the space of real layouts (the vendors' documented columns
// and value conventions), not from SkipDesk's reader: it imports nothing of
// jobs/layout and must not.
//
// # The truth rule
//
// A phone is callable only when, for every list the files or the person's
// choices require, the answer is positively clean for that phone, read in
// its own cells or its own row, and dated:
//
//   - the DNC registry (a federal or national column, a combined verdict, a
//     result code, an "OK to call" column, or a DNC column naming no list);
//   - each state list a file that holds the phone reports (a column per
//     state, or a column of state codes); no state information requires
//     none;
//   - litigator (always: a file with no litigator answer leaves it unknown);
//   - DMA and other industry lists, when a file that holds the phone
//     reports them;
//   - a vendor's own internal list, when a file that holds the phone has one;
//   - the company's own do-not-call list (the number is not on it);
//   - every restriction a file states about the phone or its row: a status,
//     tag, disposition or note saying do not call, DNC, stop, litigator,
//     wrong number, opted out, attorney, dead, disconnected...;
//   - the number is valid (readable with certainty, not stated invalid or
//     disconnected);
//   - the answer's scrub date is known (a job record of ours, or a date
//     column the file has) and at most 31 days before the export; a date in
//     the future is no date.
//
// A row a scope column says was not checked answers nothing. Within a list,
// a flagged answer from any source wins; otherwise one fresh clean answer
// from any source (the trace's own columns or a DNC result of its phones)
// answers it. The truth is what the vendor meant: a blank in an X/blank
// column is clean, a blank in a Yes/No column is "not checked". The
// invariant built on it forbids only false "callable": a reader may refuse
// or leave out more than the truth requires, never less.
//
// # Entry points
//
// Generate builds one case from a seed; (*Case).Write puts its files on
// disk in their formats (CSV with commas or semicolons, TSV, XLSX);
// NumbersIn reads back every number an export wrote; (*Case).Leaks judges
// them; Shrink finds the smallest files that still show a leak.
package resultgen
