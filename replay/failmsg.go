package replay

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// A failure message of more than one line: go test prints the first line
// after "file.go:12: " and each further line indented 4 spaces more than
// that line. testify (assert, require) prints all of its message on the
// further lines, t.Errorf("\n%s", ...) in its Fail, as labeled fields:
//
//	    ratelimit_test.go:270:
//	        	Error Trace:	/home/u/ratelimit/ratelimit_test.go:270
//	        	Error:      	Not equal:
//	        	            	expected: []time.Duration{0, 100000000, 100000000}
//	        	            	actual  : []time.Duration{0, 0, 100000000}
//	        	            	(blank, then Diff: and a unified diff)
//	        	Test:       	TestInitial/atomic
//	        	Messages:   	bad timestamps for inital takes
//
// Kept to its first line, the failure read "ratelimit_test.go:270:": a
// report with no message, and two replays that failed with different
// values compared equal. failMessage condenses such a message to one line:
// "bad timestamps for inital takes: Not equal: expected: […], actual: […]".

var (
	// tfyLabel is a testify field's first line: a tab, the label, a
	// colon and its padding, a tab, the content.
	tfyLabel = regexp.MustCompile(`^\t([A-Z][A-Za-z ]*):\s*\t(.*)$`)
	// tfyMore is a further line of the field above: padded under the
	// label (spaces only), then a tab.
	tfyMore = regexp.MustCompile(`^\t *\t(.*)$`)
	// tfyActual is testify's "actual  : " (padded to "expected: ").
	tfyActual = regexp.MustCompile(`^actual\s+:`)
)

// maxFailMsg bounds a condensed message (in runes): a value testify dumps
// (a struct, a long slice) may run to pages.
const maxFailMsg = 400

// failMessage is the one-line message of a failure whose first line's
// message is first and whose further lines are more (without go test's
// indentation). A testify failure gives its Messages and its Error (up to
// the diff, which repeats expected and actual); the trace (paths) and the
// test's name are left out. Another message whose first line is empty
// gives its further lines joined; one whose first line says something
// gives that line alone, as before (further lines are often a dump).
func failMessage(first string, more []string) string {
	first = strings.TrimSpace(first)
	if len(more) == 0 {
		return first
	}
	if fields, ok := testifyFields(more); ok {
		msg := condense(fields["Error"])
		if m := condense(fields["Messages"]); m != "" {
			msg = m + ": " + msg
		}
		if first != "" {
			msg = first + " " + msg
		}
		return clip(strings.TrimSpace(msg))
	}
	if first != "" {
		return first
	}
	return clip(condense(more))
}

// testifyFields splits testify's labeled output into its fields' lines,
// by label; ok is false when more is not such output (its first line is
// not a field's).
func testifyFields(more []string) (map[string][]string, bool) {
	fields := map[string][]string{}
	label := ""
	for _, l := range more {
		if m := tfyLabel.FindStringSubmatch(l); m != nil {
			label = m[1]
			fields[label] = append(fields[label], m[2])
			continue
		}
		if label == "" {
			return nil, false
		}
		if m := tfyMore.FindStringSubmatch(l); m != nil {
			fields[label] = append(fields[label], m[1])
		} else {
			fields[label] = append(fields[label], l)
		}
	}
	return fields, label != ""
}

// condense joins a message's lines into one: each trimmed, empty ones
// dropped, up to a "Diff:" line (testify's diff of expected and actual,
// which the two lines before it state already); a line after one ending
// in a colon follows it after a space ("Not equal: expected: 3"), as do a
// dumped value's lines, the others after a comma ("…, actual: 2").
func condense(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		l = strings.TrimSpace(l)
		if l == "" {
			continue
		}
		if l == "Diff:" {
			break
		}
		l = tfyActual.ReplaceAllString(l, "actual:")
		if prev := b.String(); prev != "" {
			// A dumped value's lines ("&T{", "A: 1,", "}") run on.
			if strings.ContainsAny(prev[len(prev)-1:], ":{[(,") || strings.ContainsAny(l[:1], "}])") {
				b.WriteString(" ")
			} else {
				b.WriteString(", ")
			}
		}
		b.WriteString(l)
	}
	return b.String()
}

// clip cuts s to maxFailMsg runes.
func clip(s string) string {
	if utf8.RuneCountInString(s) <= maxFailMsg {
		return s
	}
	r := []rune(s)
	return string(r[:maxFailMsg]) + "…"
}
