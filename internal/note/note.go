// Package note defines the notes pecanvet's stages leave for the user: what
// was skipped or cut short, and why.
//
// A note is not a finding. Each has a Kind, so that a reporter chooses
// which to show by what they are about, not by their text.
package note

import "fmt"

// Kind says what a note is about.
type Kind string

// The kinds of note.
const (
	Budget     Kind = "budget"       // a package's time budget, or a trace's share of it, ran out
	Replays    Kind = "not-replayed" // predictions left unreplayed: -maxreplays, or the budget
	Timeout    Kind = "timeout"      // a test ran past its time bound while recorded
	NoTests    Kind = "no-tests"     // a package has no tests to run
	Fails      Kind = "fails"        // a test failed while recorded: in a normal run too, or only instrumented
	Driver     Kind = "driver"       // generated drivers run, not run, skipped or dropped
	Static     Kind = "static"       // the static candidates, or the tests' call graphs, could not be computed
	Order      Kind = "order"        // the order tests are checked in
	Trace      Kind = "trace"        // a recording empty, unreadable, hung or cut to bound memory
	Predict    Kind = "predict"      // a prediction that failed or could not search everything
	Race       Kind = "race"         // races left unconfirmed by Go's race detector
	Instrument Kind = "instrument"   // code left uninstrumented (cgo, an instrumenter error) or files left out
)

// A Note is one thing worth telling the user.
type Note struct {
	Kind    Kind
	Package string // the import path it is about, if one
	Test    string // the test it is about, if one
	Text    string
}

// New returns a note on package pkg, and test if not "", whose text is
// format's with args.
func New(kind Kind, pkg, test, format string, args ...any) Note {
	return Note{Kind: kind, Package: pkg, Test: test, Text: fmt.Sprintf(format, args...)}
}

// String is the note as it is printed: "pkg test: text", "pkg: text", or
// the text alone.
func (n Note) String() string {
	switch {
	case n.Package == "":
		return n.Text
	case n.Test == "":
		return n.Package + ": " + n.Text
	}
	return n.Package + " " + n.Test + ": " + n.Text
}

// Strings returns the notes as printed.
func Strings(notes []Note) []string {
	out := make([]string, len(notes))
	for i, n := range notes {
		out[i] = n.String()
	}
	return out
}
