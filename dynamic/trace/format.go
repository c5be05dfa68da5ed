package trace

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file holds what the text and binary formats share: the Encoder
// interface, format detection, Read/ReadFile, the error type and the rules
// for names.
//
// Both formats carry exactly the same information, and both decoders accept
// exactly the names the text writer can write (see checkName and
// checkSite), so any trace read from one format can be written in the
// other. Both decoders build their tables in order of first use, so a trace
// read back from either format has its goroutines, objects and sites
// numbered in the order the events first mention them (an event mentions its
// goroutine, then its object, then its site). Writing a trace whose tables
// are in another order, hold unused names or hold one name twice, and reading
// it back, yields the same events under the same names, renumbered; for a
// trace that came from a decoder it is the identity.

// Encoder writes a trace one event at a time. Encoders are not safe for
// concurrent use.
type Encoder interface {
	// Encode writes one event; t holds the names e refers to (it may grow
	// between calls, but names once given must not change). Invalid events
	// and names that the formats cannot hold are rejected with an error and
	// not written; the encoder remains usable.
	Encode(e Event, t *Tables) error
	// SetTruncated records why the run ended abnormally; written at Close.
	// An empty reason clears it.
	SetTruncated(reason string)
	// Close flushes and writes the trailer (end marker). It does not close
	// the underlying writer.
	Close() error
}

// Format identification.
const (
	// TextHeader is the first line the text writer emits. Readers accept
	// text traces with or without it.
	TextHeader = "# pecanvet trace v1"
	// BinaryMagic starts every binary trace; the version byte follows.
	BinaryMagic = "PCNTRC"
	// BinaryVersion is the binary format version this package writes. It
	// reads versions 1 to 3 too: version 2 added op 26 (sleep), version
	// 3 FlagVal and Event.Val, version 4 FlagLen, nothing else.
	BinaryVersion = 4
)

// IsBinary reports whether a trace starting with prefix is in the binary
// format (prefix must hold at least len(BinaryMagic) bytes of the file).
func IsBinary(prefix []byte) bool {
	return len(prefix) >= len(BinaryMagic) && string(prefix[:len(BinaryMagic)]) == BinaryMagic
}

// ErrTooManyEvents is wrapped by the error of a read that stopped at
// ReadOptions.MaxEvents.
var ErrTooManyEvents = errors.New("trace too large")

// ReadOptions control ReadTrace, ReadFile and NewDecoderOptions.
type ReadOptions struct {
	// Lenient accepts a trace whose writer was killed mid-run: a binary trace
	// that ends without its end marker (possibly inside a record) yields all
	// its complete events, and a text trace whose last line has no newline
	// and does not parse has that line dropped. Truncated is then set to a
	// reason saying where the data ended, unless the trace recorded one.
	// Corrupt data is an error in either mode.
	Lenient bool
	// MaxEvents, if positive, makes ReadTrace and ReadFile fail, without
	// reading further, on a trace with more events: a bound on memory.
	MaxEvents int
	// CountObjects makes a binary decoder check each object name and
	// count it, but keep neither: Tables().Objects stays empty, events
	// still refer to objects by index, and a name defined twice goes
	// unnoticed. For a pass that needs no names (statistics) over a trace
	// of a test that allocates in a loop, where the names of its millions
	// of objects are most of the decoder's memory. Text decoders ignore it.
	CountObjects bool
	// Objects, if positive, is about how many object names the trace
	// defines (a count an earlier pass took, NumObjects): a binary
	// decoder makes its object table and index that large at once
	// (Interner.Reserve). A wrong count costs memory or growth only;
	// what is read is the same.
	Objects int
}

// NewDecoder returns a strict decoder for r, which may hold either format:
// it is binary if it starts with BinaryMagic, else text. Name is used in
// error messages (a path, or e.g. "<stdin>").
func NewDecoder(r io.Reader, name string) (Decoder, error) {
	return NewDecoderOptions(r, name, ReadOptions{})
}

// NewDecoderOptions is NewDecoder with options.
func NewDecoderOptions(r io.Reader, name string, opt ReadOptions) (Decoder, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	p, err := br.Peek(len(BinaryMagic))
	if err != nil && err != io.EOF && err != bufio.ErrBufferFull {
		return nil, &DecodeError{Name: name, Line: 1, Msg: "read error", Err: err}
	}
	// A file holding only the start of the magic is a binary trace cut
	// short (no text trace can be that).
	if IsBinary(p) || (len(p) > 0 && err == io.EOF && strings.HasPrefix(BinaryMagic, string(p))) {
		// The binary decoder does its own buffering: hand it what br
		// holds, then r itself.
		buffered, _ := br.Peek(br.Buffered())
		d, err := newBinaryDecoder(io.MultiReader(bytes.NewReader(bytes.Clone(buffered)), r), name, opt.Lenient)
		if err != nil {
			return nil, err
		}
		d.countObj = opt.CountObjects // before the first record: the constructor reads only the header
		if opt.Objects > 0 && !opt.CountObjects {
			d.in.Reserve(TabObject, min(opt.Objects, maxNames))
		}
		return d, nil
	}
	return newTextDecoder(br, name, opt.Lenient), nil
}

// ReadTrace reads a whole trace in either format. (It cannot be called Read:
// that is the Op.)
func ReadTrace(r io.Reader, name string, opt ReadOptions) (*Trace, error) {
	d, err := NewDecoderOptions(r, name, opt)
	if err != nil {
		return nil, err
	}
	tr := new(Trace)
	// Collect the events in chunks and copy them once at the end: cheaper
	// than growing one slice for large traces.
	var chunks [][]Event
	cur := make([]Event, 0, 256)
	total := 0
	for {
		e, err := d.Next()
		if err != nil {
			if err == io.EOF {
				break
			}
			return nil, err
		}
		if e.Flags&FlagBlocked != 0 {
			tr.Blocked = append(tr.Blocked, e)
			continue
		}
		if opt.MaxEvents > 0 && total >= opt.MaxEvents {
			return nil, fmt.Errorf("%s: more than %d events: %w", name, opt.MaxEvents, ErrTooManyEvents)
		}
		if len(cur) == cap(cur) {
			chunks = append(chunks, cur)
			cur = make([]Event, 0, min(2*cap(cur), 1<<16))
		}
		cur = append(cur, e)
		total++
	}
	if len(chunks) == 0 {
		tr.Events = cur
	} else {
		tr.Events = make([]Event, 0, total)
		for _, c := range chunks {
			tr.Events = append(tr.Events, c...)
		}
		tr.Events = append(tr.Events, cur...)
	}
	if total == 0 {
		tr.Events = nil
	}
	tr.Tables = *d.Tables()
	tr.Truncated = d.Truncated()
	return tr, nil
}

// ReadFile reads the trace in the named file, in either format. Error
// messages name the file by path.
func ReadFile(path string, opt ReadOptions) (*Trace, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadTrace(f, path, opt)
}

// WriteText writes tr in the text format.
func WriteText(w io.Writer, tr *Trace) error {
	return writeAll(NewTextEncoder(w), tr)
}

// WriteBinary writes tr in the binary format.
func WriteBinary(w io.Writer, tr *Trace) error {
	return writeAll(NewBinaryEncoder(w), tr)
}

func writeAll(enc Encoder, tr *Trace) error {
	for _, e := range tr.Events {
		if err := enc.Encode(e, &tr.Tables); err != nil {
			return err
		}
	}
	for _, e := range tr.Blocked {
		e.Flags |= FlagBlocked
		if err := enc.Encode(e, &tr.Tables); err != nil {
			return err
		}
	}
	enc.SetTruncated(tr.Truncated)
	return enc.Close()
}

// DecodeError reports malformed or unreadable trace data.
type DecodeError struct {
	Name   string // as given to the decoder
	Line   int    // text format: 1-based line number; 0 for the binary format
	Col    int    // text format: 1-based byte column, 0 if the error concerns the line
	Offset int64  // binary format: byte offset of the problem
	Msg    string
	Err    error // underlying error (e.g. from the reader), if any
}

func (e *DecodeError) Error() string {
	msg := e.Msg
	if e.Err != nil {
		if msg == "" {
			msg = e.Err.Error()
		} else {
			msg += ": " + e.Err.Error()
		}
	}
	switch {
	case e.Line == 0:
		return fmt.Sprintf("%s: byte %d: %s", e.Name, e.Offset, msg)
	case e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Name, e.Line, e.Col, msg)
	}
	return fmt.Sprintf("%s:%d: %s", e.Name, e.Line, msg)
}

func (e *DecodeError) Unwrap() error { return e.Err }

var (
	errClosed   = errors.New("trace: encoder is closed")
	errNoTables = errors.New("trace: Encode needs the tables")
)

// maxNames bounds each table of a decoded trace.
const maxNames = 1 << 26

// checkName reports why s cannot be a goroutine or object name: names are
// non-empty, valid UTF-8, printable without spaces (unicode.IsPrint, not
// ' '), do not start with '#' or '@' and do not contain '='. It returns ""
// if s is fine, else the problem and its byte index in s.
func checkName(s string) (string, int) {
	if s == "" {
		return "empty name", 0
	}
	if s[0] == '#' || s[0] == '@' {
		return fmt.Sprintf("name may not start with %q", s[0]), 0
	}
	if msg, i := checkChars(s); msg != "" {
		return msg, i
	}
	if i := strings.IndexByte(s, '='); i >= 0 {
		return "name may not contain '='", i
	}
	return "", 0
}

// checkChars reports the first character of s that may not appear in a name
// or site: anything but printable non-space UTF-8.
func checkChars(s string) (string, int) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c <= ' ' || c == 0x7f {
				if c == ' ' || c == '\t' {
					return "name may not contain whitespace", i
				}
				return fmt.Sprintf("name may not contain control character %q", c), i
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			return "name is not valid UTF-8", i
		}
		if !unicode.IsPrint(r) {
			return fmt.Sprintf("name may not contain %U (space or unprintable)", r), i
		}
		i += n
	}
	return "", 0
}

// checkSite reports why s cannot be a site: sites are what ParseSite
// accepts, made of the same characters as names ('#', '@' and '=' are
// allowed).
func checkSite(s string) (string, int) {
	if msg, i := checkChars(s); msg != "" {
		return strings.Replace(msg, "name", "site", 1), i
	}
	_, msg, i := parseSite(s)
	return msg, i
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// checkTableName checks a name of the selected table.
func checkTableName(which int, s string) (string, int) {
	switch which {
	case TabSite:
		return checkSite(s)
	case TabObject:
		return checkObjectName(s)
	}
	return checkName(s)
}

// checkObjectName is checkName for objects, which also checks the instance
// suffix: the recorder names the k-th object (allocation) of a description
// "desc#k", k counting from 1, so "#0" or "#007" names none.
func checkObjectName(s string) (string, int) {
	if msg, i := checkName(s); msg != "" {
		return msg, i
	}
	i := strings.LastIndexByte(s, '#')
	if i < 0 || !isDigits(s[i+1:]) {
		return "", 0
	}
	if k := s[i+1:]; k[0] == '0' {
		return fmt.Sprintf("instance #%s does not exist (instances count from #1)", k), i
	}
	return "", 0
}

// quote returns s quoted for an error message, shortened if long.
func quote(s string) string {
	const max = 60
	if len(s) > max {
		return strconv.Quote(s[:max]) + "..."
	}
	return strconv.Quote(s)
}

var tableNouns = [3]string{"goroutine", "object", "site"}
