package pattern

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// An Error is a syntax or validation error at a position of a pattern text.
type Error struct {
	Name string // the name given to Parse (a file name, "-patterns", …)
	Line int    // 1-based
	Col  int    // 1-based, in bytes
	Msg  string
}

func (e *Error) Error() string {
	if e.Name == "" {
		return fmt.Sprintf("%d:%d: %s", e.Line, e.Col, e.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, e.Msg)
}

// An ErrorList is the list of errors Parse found: at most one per pattern,
// in source order.
type ErrorList []*Error

// maxErrors bounds the errors ErrorList.Error prints.
const maxErrors = 10

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i == maxErrors {
			fmt.Fprintf(&b, "\n(and %d more errors)", len(l)-maxErrors)
			break
		}
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Parse parses the patterns of src; name is used in positions (a file name,
// or "-patterns" for a flag value). It returns the patterns in source order,
// or an ErrorList with at most one error per faulty pattern. Duplicate
// kind/name pairs are errors.
func Parse(src, name string) ([]*Pattern, error) {
	p := &parser{name: name, src: src, line: 1}
	var pats []*Pattern
	first := map[string]position{}
	for {
		p.skipBlank()
		if p.off >= len(p.src) {
			break
		}
		pat, head, err := p.pattern()
		if err != nil {
			p.errs = append(p.errs, err)
			p.skipStatement()
			continue
		}
		if at, dup := first[pat.ID()]; dup {
			p.errs = append(p.errs, p.errorAt(head, "duplicate pattern %s (first at %d:%d)", pat.ID(), at.line, at.col))
			continue
		}
		first[pat.ID()] = head
		pats = append(pats, pat)
	}
	if len(p.errs) > 0 {
		return nil, p.errs
	}
	return pats, nil
}

// MustParse is like Parse but panics on error; it is meant for pattern texts
// written into programs and tests.
func MustParse(src string) []*Pattern {
	pats, err := Parse(src, "MustParse")
	if err != nil {
		panic(err)
	}
	return pats
}

type position struct{ line, col int }

type parser struct {
	name      string
	src       string
	off       int // next byte
	line      int // line of off
	lineStart int // offset of the line's first byte
	errs      ErrorList
}

// bailout is the panic value by which a pattern's parse gives up.
type bailout struct{ err *Error }

func (p *parser) pos() position { return position{p.line, p.off - p.lineStart + 1} }

func (p *parser) errorAt(at position, format string, args ...any) *Error {
	return &Error{Name: p.name, Line: at.line, Col: at.col, Msg: fmt.Sprintf(format, args...)}
}

func (p *parser) fail(at position, format string, args ...any) {
	panic(bailout{p.errorAt(at, format, args...)})
}

// cur returns the next byte, or -1 at the end of the input.
func (p *parser) cur() int {
	if p.off < len(p.src) {
		return int(p.src[p.off])
	}
	return -1
}

func (p *parser) advance() {
	if p.off >= len(p.src) {
		return
	}
	if p.src[p.off] == '\n' {
		p.line++
		p.lineStart = p.off + 1
	}
	p.off++
}

func isSpace(c int) bool { return c == ' ' || c == '\t' || c == '\r' }

// skipSpace skips spaces within a line.
func (p *parser) skipSpace() {
	for isSpace(p.cur()) {
		p.advance()
	}
}

// skipComment skips a comment up to (not including) the end of its line.
func (p *parser) skipComment() {
	for c := p.cur(); c != -1 && c != '\n'; c = p.cur() {
		p.advance()
	}
}

// skipBlank skips everything that separates patterns: spaces, newlines,
// semicolons and comments.
func (p *parser) skipBlank() {
	for {
		switch c := p.cur(); {
		case isSpace(c) || c == '\n' || c == ';':
			p.advance()
		case c == '#':
			p.skipComment()
		default:
			return
		}
	}
}

// skipStatement skips the rest of a faulty pattern.
func (p *parser) skipStatement() {
	for {
		switch p.cur() {
		case -1, '\n', ';':
			return
		case '#':
			p.skipComment()
		default:
			p.advance()
		}
	}
}

// atEnd reports whether the pattern ends here.
func (p *parser) atEnd() bool {
	switch p.cur() {
	case -1, '\n', ';', '#':
		return true
	}
	return false
}

// here describes the input at the current position for error messages.
func (p *parser) here() string {
	switch c := p.cur(); c {
	case -1:
		return "end of input"
	case '\n':
		return "end of line"
	}
	if p.src[p.off] < utf8.RuneSelf {
		return strconv.Quote(p.src[p.off : p.off+1])
	}
	r, size := utf8.DecodeRuneInString(p.src[p.off:])
	if r == utf8.RuneError {
		return fmt.Sprintf("byte %#x", p.src[p.off])
	}
	return strconv.Quote(p.src[p.off : p.off+size])
}

func isLetter(c int) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_' }
func isDigit(c int) bool  { return c >= '0' && c <= '9' }
func isIdentStart(c int) bool {
	return isLetter(c)
}
func isIdentChar(c int) bool { return isLetter(c) || isDigit(c) }

// isHeadChar reports whether c may appear in a kind/name head.
func isHeadChar(c int) bool { return isIdentChar(c) || c == '.' || c == '-' || c == '/' }

// validHeadPart reports whether s is a valid kind or name.
func validHeadPart(s string) bool {
	if s == "" || !isIdentChar(int(s[0])) {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := int(s[i]); !isHeadChar(c) || c == '/' {
			return false
		}
	}
	return true
}

// ident scans an identifier at the current position.
func (p *parser) ident() string {
	start := p.off
	for isIdentChar(p.cur()) {
		p.advance()
	}
	return p.src[start:p.off]
}

// The fields of a pattern, in canonical order.
type field int

const (
	fieldT field = iota
	fieldSV
	fieldAR
	fieldAT
	fieldE
	numFields
)

var fieldKeys = [numFields]string{"T", "SV", "AR", "AT", "E"}

func lookupField(key string) (field, bool) {
	for f, k := range fieldKeys {
		if strings.EqualFold(key, k) {
			return field(f), true
		}
	}
	return 0, false
}

// A sequence is a field as written.
type sequence struct {
	present bool
	order   int      // rank among the pattern's fields in source order
	key     position // of the key
	elems   []string
	at      []position // of each element
}

// pattern parses one pattern, from its head to the end of its line or ';'.
// It returns the position of the head.
func (p *parser) pattern() (pat *Pattern, head position, err *Error) {
	head = p.pos()
	defer func() {
		if r := recover(); r != nil {
			b, ok := r.(bailout)
			if !ok {
				panic(r)
			}
			pat, err = nil, b.err
		}
	}()

	// kind/name
	start := p.off
	for isHeadChar(p.cur()) {
		p.advance()
	}
	h := p.src[start:p.off]
	if !p.atEnd() && !isSpace(p.cur()) {
		if h == "" || p.cur() == '=' {
			p.fail(head, "expected kind/name at start of pattern, found %s", p.headDesc(start))
		}
		p.fail(p.pos(), "unexpected %s in kind/name", p.here())
	}
	kind, name, ok := strings.Cut(h, "/")
	if !ok || !validHeadPart(kind) || !validHeadPart(name) {
		p.fail(head, "expected kind/name at start of pattern, found %s", p.headDesc(start))
	}
	pat = &Pattern{Kind: kind, Name: name}

	// options and fields
	var seqs [numFields]sequence
	var atomicAt, actingAt position
	nfields := 0
	for {
		p.skipSpace()
		if p.atEnd() {
			break
		}
		if !isIdentStart(p.cur()) {
			p.fail(p.pos(), "unexpected %s", p.here())
		}
		wordAt := p.pos()
		word := p.ident()
		p.skipSpace()
		if p.cur() != '=' {
			switch {
			case strings.EqualFold(word, "adjacent"):
				if pat.Adjacent {
					p.fail(wordAt, "duplicate option adjacent")
				}
				pat.Adjacent = true
			case strings.EqualFold(word, "atomic"):
				if pat.Atomic {
					p.fail(wordAt, "duplicate option atomic")
				}
				pat.Atomic = true
				atomicAt = wordAt
			case strings.EqualFold(word, "chan"):
				if pat.Chan {
					p.fail(wordAt, "duplicate option chan")
				}
				pat.Chan = true
			case strings.EqualFold(word, "acting"):
				if pat.Acting {
					p.fail(wordAt, "duplicate option acting")
				}
				pat.Acting = true
				actingAt = wordAt
			case strings.EqualFold(word, "lock"):
				if pat.Lock {
					p.fail(wordAt, "duplicate option lock")
				}
				pat.Lock = true
			case strings.EqualFold(word, "leak"):
				if pat.Leak {
					p.fail(wordAt, "duplicate option leak")
				}
				pat.Leak = true
			case strings.EqualFold(word, "cond"):
				if pat.Cond {
					p.fail(wordAt, "duplicate option cond")
				}
				pat.Cond = true
			case strings.EqualFold(word, "stolen"):
				if pat.Stolen {
					p.fail(wordAt, "duplicate option stolen")
				}
				pat.Stolen = true
			case strings.EqualFold(word, "observed"):
				if pat.Observed {
					p.fail(wordAt, "duplicate option observed")
				}
				pat.Observed = true
			case strings.EqualFold(word, "wg"):
				if pat.WG {
					p.fail(wordAt, "duplicate option wg")
				}
				pat.WG = true
			case strings.EqualFold(word, "relock"):
				if pat.Relock {
					p.fail(wordAt, "duplicate option relock")
				}
				pat.Relock = true
			case strings.EqualFold(word, "order"):
				if pat.Order {
					p.fail(wordAt, "duplicate option order")
				}
				pat.Order = true
			default:
				if _, isField := lookupField(word); isField {
					p.fail(p.pos(), "expected \"=\" after %s, found %s", word, p.here())
				}
				p.fail(wordAt, "unknown option %q (want adjacent, atomic, chan, acting, lock, leak, cond, stolen, observed, wg, relock or order)", word)
			}
			continue
		}
		f, ok := lookupField(word)
		if !ok {
			p.fail(wordAt, "unknown field %q (want T, SV, AR, AT or E)", word)
		}
		s := &seqs[f]
		if s.present {
			p.fail(wordAt, "duplicate field %s (first at %d:%d)", fieldKeys[f], s.key.line, s.key.col)
		}
		s.present, s.key, s.order = true, wordAt, nfields
		nfields++
		p.advance() // '='
		for {
			p.skipSpace()
			if !isIdentStart(p.cur()) {
				what := "element of " + fieldKeys[f]
				if len(s.elems) > 0 {
					what += " after \"-\""
				}
				p.fail(p.pos(), "expected %s, found %s", what, p.here())
			}
			s.at = append(s.at, p.pos())
			s.elems = append(s.elems, p.ident())
			p.skipSpace()
			if p.cur() != '-' {
				break
			}
			p.advance()
		}
		switch f {
		case fieldAT:
			for i, e := range s.elems {
				switch {
				case strings.EqualFold(e, "r"):
					pat.AT = append(pat.AT, R)
				case strings.EqualFold(e, "w"):
					pat.AT = append(pat.AT, W)
				default:
					p.fail(s.at[i], "unknown access type %q (want r or w)", e)
				}
			}
		case fieldE:
			for i, e := range s.elems {
				for j := range i {
					if s.elems[j] == e {
						p.fail(s.at[i], "duplicate event name %q in E (first at %d:%d)", e, s.at[j].line, s.at[j].col)
					}
				}
			}
		}
	}

	// Validation.
	var missing []string
	for f := range fieldE {
		if !seqs[f].present {
			missing = append(missing, fieldKeys[f])
		}
	}
	switch len(missing) {
	case 0:
	case 1:
		p.fail(head, "missing field %s", missing[0])
	default:
		p.fail(head, "missing fields %s", strings.Join(missing, ", "))
	}
	// The first field in source order sets the length.
	var ref *sequence
	var refKey string
	for f := range numFields {
		if s := &seqs[f]; s.present && s.order == 0 {
			ref, refKey = s, fieldKeys[f]
		}
	}
	for order := 1; order < nfields; order++ {
		for f := range numFields {
			s := &seqs[f]
			if s.present && s.order == order && len(s.elems) != len(ref.elems) {
				p.fail(s.key, "%s has %s but %s has %d", fieldKeys[f], plural(len(s.elems), "element"), refKey, len(ref.elems))
			}
		}
	}
	n := len(ref.elems)
	if n < 2 {
		p.fail(head, "a pattern needs at least 2 events, this one has %d", n)
	}
	pat.T, pat.TNames = normalize(seqs[fieldT].elems)
	pat.SV, pat.SVNames = normalize(seqs[fieldSV].elems)
	pat.AR, pat.ARNames = normalize(seqs[fieldAR].elems)
	if seqs[fieldE].present {
		pat.E = seqs[fieldE].elems
	} else {
		pat.E = make([]string, n)
		for i := range n {
			pat.E[i] = defaultEvent(i)
		}
	}
	if len(pat.TNames) < 2 {
		p.fail(seqs[fieldT].key, "T names only one thread, %s; a pattern needs at least 2 threads", pat.TNames[0])
	}
	threadOf := map[int]int{}
	for i, r := range pat.AR {
		if t, ok := threadOf[r]; ok && t != pat.T[i] {
			p.fail(seqs[fieldAR].at[i], "region %s is used by threads %s and %s; a region belongs to one thread",
				pat.ARNames[r], pat.TNames[t], pat.TNames[pat.T[i]])
		}
		threadOf[r] = pat.T[i]
	}
	if pat.Atomic && pat.Kind == "race" {
		p.fail(atomicAt, "races never involve sync/atomic accesses")
	}
	if pat.Acting {
		if err := pat.actingErr(); err != "" {
			p.fail(actingAt, "%s", err)
		}
	}
	pat.Pos = fmt.Sprintf("%s:%d:%d", p.name, head.line, head.col)
	if err := pat.Validate(); err != nil { // cannot happen; never panic
		p.fail(head, "internal error: %v", err)
	}
	return pat, head, nil
}

// headDesc describes, for an error message, what stands where a kind/name
// was expected: the word scanned from start, or the next character.
func (p *parser) headDesc(start int) string {
	if p.off > start {
		return strconv.Quote(p.src[start:p.off])
	}
	return p.here()
}

// normalize numbers names by first occurrence.
func normalize(names []string) (idx []int, uniq []string) {
	num := map[string]int{}
	idx = make([]int, len(names))
	for i, s := range names {
		k, ok := num[s]
		if !ok {
			k = len(uniq)
			num[s] = k
			uniq = append(uniq, s)
		}
		idx[i] = k
	}
	return idx, uniq
}
