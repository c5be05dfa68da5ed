package trace

// The text format: one event per line, events numbered 1, 2, … in file order.
//
//	# pecanvet trace v1
//	main fork g1 @main.go:10:2
//	g1   begin
//	g1   write Counter.n @counter.go:14:3
//	g1   send  ch1 @main.go:12 cap=1
//	main recv  ch1 @main.go:20 cap=1 ok=false   # a receive from a closed channel
//	main wg-add wg @main.go:9 delta=2
//	# truncated: panic: boom
//
// A line is
//
//	<goroutine> <op> [<object>] [@<file>:<line>[:<col>]] [key=value ...]
//
// with fields separated by spaces or tabs. A field starting with '#' starts a
// comment that runs to the end of the line; blank and comment lines are
// ignored. Goroutine and object names are tokens without whitespace that do
// not start with '#' or '@' and do not contain '=' (see checkName). The op
// is one of the names ParseOp accepts. Ops other than begin and end require
// an object; for fork and join it names a goroutine. The site, optional,
// is @file:line or @file:line:col. The keys are
//
//	cap=N        channel capacity, N ≥ 0 (send, recv, close; default 0)
//	ok=false     the receive observed a closed channel (recv; ok=true is the default)
//	delta=N      WaitGroup delta (wg-add; default 1)
//	update=K     the atomic-rmw was an Add, And or Or (K: add, and, or)
//	blocked=true the send, recv, lock, rlock, wg-wait or cond-wait never happened: its goroutine was blocked
//	             in it when the test ended (FlagBlocked, Trace.Blocked)
//	key=N        the read or write is of one map element, N ≠ 0 the hash of
//	             its key (Op.HasKey; default 0: the whole map)
//	val=N        the write stored a value of identity N, an unsigned integer
//	             (FlagVal, Event.Val; default: no identity)
//	len=N        the write stored a slice of length N, an unsigned integer
//	             (FlagLen, Event.Val; default: not recorded); not with val
//
// The site and the keys may come in any order after the object. A comment
// line "# truncated: <reason>" sets Trace.Truncated (the last one wins); a
// reason that starts with '"' and is a valid Go string literal is unquoted,
// which lets the writer record any reason. The writer emits TextHeader
// first, then each event in canonical form (single spaces, keys cap, ok,
// delta in that order and only where they differ from the default, except
// delta, which is always written), then the truncation line, if any.

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// maxLineLen bounds a line of a text trace.
const maxLineLen = 4 << 20

var opList = strings.Join(opNames[1:], ", ")

type textDecoder struct {
	r       *bufio.Reader
	name    string
	lenient bool
	line    int
	eof     bool
	t       Tables
	in      *Interner
	trunc   string
	err     error  // sticky: io.EOF or the first error
	long    []byte // a line longer than r's buffer
}

// NewTextDecoder returns a strict decoder for a text trace. Name is used in
// error messages.
func NewTextDecoder(r io.Reader, name string) Decoder {
	return newTextDecoder(r, name, false)
}

func newTextDecoder(r io.Reader, name string, lenient bool) *textDecoder {
	d := &textDecoder{r: bufio.NewReaderSize(r, 64<<10), name: name, lenient: lenient}
	d.in = NewInterner(&d.t)
	return d
}

func (d *textDecoder) Tables() *Tables   { return &d.t }
func (d *textDecoder) Truncated() string { return d.trunc }

func (d *textDecoder) errorf(col int, format string, args ...any) error {
	return &DecodeError{Name: d.name, Line: d.line, Col: col, Msg: fmt.Sprintf(format, args...)}
}

func (d *textDecoder) Next() (Event, error) {
	for d.err == nil {
		line, nl, err := d.readLine()
		if err != nil {
			d.err = err
			break
		}
		e, ok, err := d.parseLine(line)
		if err != nil {
			if d.lenient && !nl {
				// The last line was cut off.
				if d.trunc == "" {
					d.trunc = fmt.Sprintf("trace ends inside line %d, which has no newline (writer killed?)", d.line)
				}
				err = io.EOF
			}
			d.err = err
			break
		}
		if ok {
			return e, nil
		}
	}
	return Event{}, d.err
}

// readLine returns the next line without its line ending, and whether it
// had a newline.
func (d *textDecoder) readLine() ([]byte, bool, error) {
	if d.eof {
		return nil, false, io.EOF
	}
	d.line++
	line, err := d.r.ReadSlice('\n')
	if err == bufio.ErrBufferFull {
		d.long = append(d.long[:0], line...)
		for err == bufio.ErrBufferFull {
			line, err = d.r.ReadSlice('\n')
			d.long = append(d.long, line...)
			if len(d.long) > maxLineLen+1 {
				return nil, false, d.errorf(0, "line too long (more than %d bytes)", maxLineLen)
			}
		}
		line = d.long
	}
	nl := false
	switch {
	case err == io.EOF:
		d.eof = true
		if len(line) == 0 {
			return nil, false, io.EOF
		}
	case err != nil:
		return nil, false, &DecodeError{Name: d.name, Line: d.line, Msg: "read error", Err: err}
	default:
		nl = true
		line = line[:len(line)-1]
	}
	if len(line) > 0 && line[len(line)-1] == '\r' {
		line = line[:len(line)-1]
	}
	return line, nl, nil
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// nextField returns the field of line starting at or after i, and the
// index after it; start == len(line) if there is none.
func nextField(line []byte, i int) (start, end int) {
	for i < len(line) && isSpace(line[i]) {
		i++
	}
	start = i
	for i < len(line) && !isSpace(line[i]) {
		i++
	}
	return start, i
}

// parseLine parses one line. ok is false for blank and comment lines.
// Nothing is interned unless the whole line is valid.
func (d *textDecoder) parseLine(line []byte) (e Event, ok bool, err error) {
	s, i := nextField(line, 0)
	if s == len(line) {
		return e, false, nil
	}
	if line[s] == '#' {
		return e, false, d.comment(line[s:])
	}
	g, gcol := line[s:i], s+1
	if err := d.checkName(TabGoroutine, g, gcol, "goroutine name"); err != nil {
		return e, false, err
	}

	s, i = nextField(line, i)
	if s == len(line) || line[s] == '#' {
		return e, false, d.errorf(0, "missing op after goroutine %s", quote(string(g)))
	}
	opName := line[s:i]
	op, known := opByName[string(opName)]
	if !known {
		return e, false, d.errorf(0, "unknown op %s (want one of %s)", quote(string(opName)), opList)
	}
	e.Op = op
	e.Obj, e.Site = NoIndex, NoIndex
	if op == WGAdd {
		e.Arg = 1
	}

	// The object comes right after the op.
	var obj, site []byte
	objCol := 0
	s, i = nextField(line, i)
	isToken := s < len(line) && line[s] != '#' && line[s] != '@' && bytes.IndexByte(line[s:i], '=') < 0
	switch op.Object() {
	case ObjNone:
		if isToken {
			return e, false, d.errorf(s+1, "%s takes no object (found %s)", op, quote(string(line[s:i])))
		}
	case ObjObject:
		if !isToken {
			return e, false, d.errorf(0, "%s needs an object", op)
		}
	case ObjGoroutine:
		if !isToken {
			what := "starts"
			if op == Join {
				what = "waits for"
			}
			return e, false, d.errorf(0, "%s needs an object (the goroutine it %s)", op, what)
		}
	}
	if isToken {
		obj, objCol = line[s:i], s+1
		which := TabObject
		if op.Object() == ObjGoroutine {
			which = TabGoroutine
		}
		if err := d.checkName(which, obj, objCol, "object name"); err != nil {
			return e, false, err
		}
		s, i = nextField(line, i)
	}

	// Then the site and keys, in any order.
	var seen [8]bool // cap, ok, delta, update, blocked, key, val, len
	for ; s < len(line) && line[s] != '#'; s, i = nextField(line, i) {
		f, col := line[s:i], s+1
		switch {
		case f[0] == '@':
			if site != nil {
				return e, false, d.errorf(col, "more than one site")
			}
			site = f[1:]
			if err := d.checkName(TabSite, site, col+1, ""); err != nil {
				return e, false, err
			}
		case bytes.IndexByte(f, '=') >= 0:
			if err := d.key(&e, f, col, &seen); err != nil {
				return e, false, err
			}
		default:
			return e, false, d.errorf(col, "unexpected field %s (a line is: goroutine op [object] [@file:line[:col]] [key=value ...])", quote(string(f)))
		}
	}

	// The line is valid: intern its names.
	if e.G, err = d.intern(TabGoroutine, g, gcol); err != nil {
		return e, false, err
	}
	switch op.Object() {
	case ObjObject:
		e.Obj, err = d.intern(TabObject, obj, objCol)
	case ObjGoroutine:
		e.Obj, err = d.intern(TabGoroutine, obj, objCol)
	}
	if err != nil {
		return e, false, err
	}
	if site != nil {
		if e.Site, err = d.intern(TabSite, site, 0); err != nil {
			return e, false, err
		}
	}
	return e, true, nil
}

// checkName checks a name found at column col, unless it is already known.
func (d *textDecoder) checkName(which int, name []byte, col int, what string) error {
	if _, ok := d.in.lookupBytes(which, name); ok {
		return nil
	}
	msg, at := checkTableName(which, string(name))
	if msg == "" {
		return nil
	}
	if what == "" {
		return d.errorf(col+at, "bad site: %s", msg)
	}
	return d.errorf(col+at, "bad %s %s: %s", what, quote(string(name)), msg)
}

func (d *textDecoder) intern(which int, name []byte, col int) (int32, error) {
	if i, ok := d.in.lookupBytes(which, name); ok {
		return i, nil
	}
	if len(*d.in.table(which)) >= maxNames {
		return 0, d.errorf(col, "too many %s names (more than %d)", tableNouns[which], maxNames)
	}
	i, _ := d.in.Intern(which, string(name))
	return i, nil
}

// key parses a key=value field into e.
func (d *textDecoder) key(e *Event, f []byte, col int, seen *[8]bool) error {
	eq := bytes.IndexByte(f, '=')
	k, v := string(f[:eq]), f[eq+1:]
	vcol := col + eq + 1
	var which int
	var allowed bool
	switch k {
	case "cap":
		which, allowed = 0, e.Op.HasCap()
	case "ok":
		which, allowed = 1, e.Op == Recv || e.Op == Send
	case "delta":
		which, allowed = 2, e.Op.HasDelta()
	case "update":
		which, allowed = 3, e.Op == AtomicRMW
	case "blocked":
		which, allowed = 4, ValidFlags(e.Op, FlagBlocked)
	case "key":
		which, allowed = 5, e.Op.HasKey()
	case "val":
		which, allowed = 6, ValidFlags(e.Op, FlagVal) && !seen[7]
	case "len":
		which, allowed = 7, ValidFlags(e.Op, FlagLen) && !seen[6]
	default:
		return d.errorf(col, "unknown key %s (want cap, ok, delta, update, blocked, key, val or len)", quote(k))
	}
	if !allowed {
		return d.errorf(col, "key %q not allowed on %s", k, e.Op)
	}
	if seen[which] {
		return d.errorf(col, "duplicate key %q", k)
	}
	seen[which] = true
	switch k {
	case "cap":
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n < 0 {
			return d.errorf(vcol, "bad cap value %s: want an integer ≥ 0", quote(string(v)))
		}
		e.Arg = n
	case "ok":
		switch string(v) {
		case "true":
		case "false":
			e.Flags |= FlagClosed
		default:
			return d.errorf(vcol, "bad ok value %s: want true or false", quote(string(v)))
		}
	case "delta":
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil {
			return d.errorf(vcol, "bad delta value %s: want an integer", quote(string(v)))
		}
		e.Arg = n
	case "update":
		fl, ok := ParseUpdate(string(v))
		if !ok {
			return d.errorf(vcol, "bad update value %s: want add, and or or (with -unused or not)", quote(string(v)))
		}
		e.Flags |= fl
	case "key":
		n, err := strconv.ParseInt(string(v), 10, 64)
		if err != nil || n == 0 {
			return d.errorf(vcol, "bad key value %s: want a non-zero integer", quote(string(v)))
		}
		e.Arg = n
	case "val":
		n, err := strconv.ParseUint(string(v), 10, 64)
		if err != nil {
			return d.errorf(vcol, "bad val value %s: want an unsigned integer", quote(string(v)))
		}
		e.Flags |= FlagVal
		e.Val = n
	case "len":
		n, err := strconv.ParseUint(string(v), 10, 64)
		if err != nil {
			return d.errorf(vcol, "bad len value %s: want an unsigned integer", quote(string(v)))
		}
		e.Flags |= FlagLen
		e.Val = n
	case "blocked":
		if string(v) != "true" {
			return d.errorf(vcol, "bad blocked value %s: want true", quote(string(v)))
		}
		e.Flags |= FlagBlocked
	}
	return nil
}

// comment handles a comment line, which may be a directive.
func (d *textDecoder) comment(c []byte) error {
	body := bytes.TrimLeft(c[1:], " \t")
	if rest, ok := bytes.CutPrefix(body, []byte("truncated:")); ok {
		reason := string(bytes.Trim(rest, " \t"))
		if reason != "" && reason[0] == '"' {
			if u, err := strconv.Unquote(reason); err == nil {
				reason = u
			}
		}
		if reason != "" {
			d.trunc = reason
		}
		return nil
	}
	if rest, ok := bytes.CutPrefix(body, []byte("pecanvet trace v")); ok {
		v := bytes.TrimRight(rest, " \t")
		if isDigits(string(v)) && string(v) != "1" {
			return d.errorf(0, "unsupported text trace version v%s; this pecanvet reads v1", v)
		}
	}
	return nil
}

type textEncoder struct {
	w      *bufio.Writer
	err    error
	closed bool
	n      int64
	ok     [3][]bool // names checked, per table
	trunc  string
	line   []byte
}

// NewTextEncoder returns an Encoder that writes the text format to w.
func NewTextEncoder(w io.Writer) Encoder {
	e := &textEncoder{w: bufio.NewWriterSize(w, 64<<10)}
	e.w.WriteString(TextHeader + "\n")
	return e
}

func (e *textEncoder) SetTruncated(reason string) { e.trunc = reason }

// checkNames verifies that the names ev refers to can be written.
func checkNames(ok *[3][]bool, ev *Event, t *Tables) error {
	check := func(which int, i int32) error {
		if i < 0 {
			return nil
		}
		c := &ok[which]
		if int(i) < len(*c) && (*c)[i] {
			return nil
		}
		name := t.Name(which, i)
		if msg, _ := checkTableName(which, name); msg != "" {
			return fmt.Errorf("cannot write %s %d %s: %s", tableNouns[which], i, quote(name), msg)
		}
		if int(i) >= len(*c) {
			*c = append(*c, make([]bool, int(i)+1-len(*c))...)
		}
		(*c)[i] = true
		return nil
	}
	if err := check(TabGoroutine, ev.G); err != nil {
		return err
	}
	switch ev.Op.Object() {
	case ObjObject:
		if err := check(TabObject, ev.Obj); err != nil {
			return err
		}
	case ObjGoroutine:
		if err := check(TabGoroutine, ev.Obj); err != nil {
			return err
		}
	}
	return check(TabSite, ev.Site)
}

func (e *textEncoder) Encode(ev Event, t *Tables) error {
	if e.err != nil {
		return e.err
	}
	if e.closed {
		return errClosed
	}
	if t == nil {
		return errNoTables
	}
	e.n++
	if err := t.checkEvent(ev); err != nil {
		return fmt.Errorf("trace: event %d: %v", e.n, err)
	}
	if err := checkNames(&e.ok, &ev, t); err != nil {
		return fmt.Errorf("trace: event %d: %v", e.n, err)
	}
	b := append(e.line[:0], t.Goroutines[ev.G]...)
	b = append(b, ' ')
	b = append(b, opNames[ev.Op]...)
	if ev.Op.Object() != ObjNone {
		b = append(b, ' ')
		b = append(b, t.ObjName(ev)...)
	}
	if ev.Site >= 0 {
		b = append(b, " @"...)
		b = append(b, t.Sites[ev.Site]...)
	}
	if ev.Op.HasCap() && ev.Arg != 0 {
		b = append(b, " cap="...)
		b = strconv.AppendInt(b, ev.Arg, 10)
	}
	if ev.Flags&FlagClosed != 0 {
		b = append(b, " ok=false"...)
	}
	if ev.Op.HasDelta() {
		b = append(b, " delta="...)
		b = strconv.AppendInt(b, ev.Arg, 10)
	}
	if u := UpdateName(ev.Flags); u != "" {
		b = append(b, " update="...)
		b = append(b, u...)
	}
	if ev.Flags&FlagBlocked != 0 {
		b = append(b, " blocked=true"...)
	}
	if ev.Op.HasKey() && ev.Arg != 0 {
		b = append(b, " key="...)
		b = strconv.AppendInt(b, ev.Arg, 10)
	}
	if ev.Flags&FlagVal != 0 {
		b = append(b, " val="...)
		b = strconv.AppendUint(b, ev.Val, 10)
	}
	if ev.Flags&FlagLen != 0 {
		b = append(b, " len="...)
		b = strconv.AppendUint(b, ev.Val, 10)
	}
	b = append(b, '\n')
	e.line = b
	if _, err := e.w.Write(b); err != nil {
		e.err = err
	}
	return e.err
}

func (e *textEncoder) Close() error {
	if e.closed || e.err != nil {
		return e.err
	}
	e.closed = true
	if e.trunc != "" {
		r := e.trunc
		if needsQuote(r) {
			r = strconv.Quote(r)
		}
		e.w.WriteString("# truncated: " + r + "\n")
	}
	e.err = e.w.Flush()
	return e.err
}

// needsQuote reports whether a truncation reason must be quoted to survive
// the text format.
func needsQuote(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == '"' || s[0] == ' ' || s[len(s)-1] == ' ' {
		return true
	}
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return true
		}
		if r != ' ' && !strconv.IsPrint(r) {
			return true
		}
		i += n
	}
	return false
}
