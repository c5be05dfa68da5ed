package trace

import (
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
)

// A Site is a position in the source code: a file, a line and, when known,
// a column (in bytes, from 1). Traces, schedules and reports write it as
// "path:line:col" or "path:line" (see ParseSite); the path of a file of the
// recorded module is relative to the module's root, slash-separated.
type Site struct {
	Path string
	Line int
	Col  int // 0 when unknown
}

// ParseSite parses "path:line" or "path:line:col": the last number is the
// line, unless the text before it also ends in ":digits", which is then the
// line and the last number the column. The path may itself hold colons
// ("c:/x.go:12:3"); it must not be empty, and the line and column must be
// positive 32-bit numbers.
func ParseSite(s string) (Site, error) {
	site, msg, _ := parseSite(s)
	if msg != "" {
		return Site{}, errors.New(msg)
	}
	return site, nil
}

// parseSite is ParseSite, with the problem and its byte index in s for the
// decoders' errors (checkSite) instead of an error value.
func parseSite(s string) (Site, string, int) {
	if s == "" {
		return Site{}, "empty site (want file:line or file:line:col)", 0
	}
	i := strings.LastIndexByte(s, ':')
	if i < 0 {
		return Site{}, fmt.Sprintf("site %s has no line number (want file:line or file:line:col)", quote(s)), 0
	}
	last, msg := sitePos(s[i+1:])
	if msg != "" {
		return Site{}, fmt.Sprintf("site %s: %s (want file:line or file:line:col)", quote(s), msg), i + 1
	}
	site := Site{Path: s[:i], Line: last}
	if j := strings.LastIndexByte(site.Path, ':'); j >= 0 && isDigits(site.Path[j+1:]) {
		line, msg := sitePos(site.Path[j+1:])
		if msg != "" {
			return Site{}, fmt.Sprintf("site %s: line %s", quote(s), msg), j + 1
		}
		site = Site{Path: site.Path[:j], Line: line, Col: last}
	}
	if site.Path == "" {
		return Site{}, fmt.Sprintf("site %s has an empty file name", quote(s)), 0
	}
	return site, "", 0
}

// sitePos parses a line or column number, or says why it is none.
func sitePos(s string) (int, string) {
	if !isDigits(s) {
		return 0, fmt.Sprintf("%s is not a number", quote(s))
	}
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		return 0, fmt.Sprintf("%s is too large", quote(s))
	}
	if n <= 0 {
		return 0, fmt.Sprintf("%s is not positive", s)
	}
	return int(n), ""
}

// String returns the site as traces write it: "path:line:col", or
// "path:line" without a column; "" for the zero Site.
func (s Site) String() string {
	if s == (Site{}) {
		return ""
	}
	t := s.Path + ":" + strconv.Itoa(s.Line)
	if s.Col > 0 {
		t += ":" + strconv.Itoa(s.Col)
	}
	return t
}

// IsValid reports whether s names a file and a line.
func (s Site) IsValid() bool { return s.Path != "" && s.Line > 0 }

// Short returns the file's base name and the line, "bank.go:24", as
// messages show a site; "?" for the zero Site.
func (s Site) Short() string {
	if s == (Site{}) {
		return "?"
	}
	return filepath.Base(s.Path) + ":" + strconv.Itoa(s.Line)
}

// Less orders sites by path, then line, then column.
func (s Site) Less(t Site) bool {
	if s.Path != t.Path {
		return s.Path < t.Path
	}
	if s.Line != t.Line {
		return s.Line < t.Line
	}
	return s.Col < t.Col
}
