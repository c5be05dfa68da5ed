package trace

// The binary format, version 4 (version 3 had no FlagLen, version 2 no
// FlagVal, version 1 no op 26, sleep).
//
// A binary trace is the 6-byte magic "PCNTRC", a version byte (4), and a
// sequence of records. Each record starts with a header byte h. When
// h&0x1f is non-zero the record is an event and h&0x1f is its Op (the Op
// values of event.go are part of the format):
//
//	h                   op | 0x20 if the goroutine differs from the previous event's
//	                       | 0x40 if Arg != 0
//	                       | 0x80 if Flags != 0
//	[uvarint G]         if h&0x20; else the previous event's goroutine (the
//	                    first event must have it)
//	[byte Flags]        if h&0x80
//	[uvarint Obj]       unless the op takes no object (begin, end); an index
//	                    into the object table, or the goroutine table for
//	                    fork and join
//	uvarint Site+1      0 for no site
//	[varint Arg]        if h&0x40 (zig-zag, as encoding/binary); only ops
//	                    with a capacity, delta or map key may have one
//	[uvarint Val]       if Flags has FlagVal (a write's stored value's
//	                    identity; version 3) or FlagLen (the stored
//	                    slice's length; version 4)
//
// The other records have h&0x1f == 0:
//
//	0x20 uvarint n, n bytes   define the next goroutine name
//	0x40 uvarint n, n bytes   define the next object name
//	0x60 uvarint n, n bytes   define the next site name
//	0x80 uvarint n, n bytes   truncation reason (non-empty; the last one wins)
//	0xe0                      end marker: the last byte of the trace
//
// Names are numbered in each table in order of definition, are unique
// within their table and obey the text format's rules (checkName,
// checkSite), and are at most 1 MiB long; a table holds at most 1<<26
// names. An event may only refer to names defined before it. The encoder
// defines each name just before the first event that uses it, so the
// tables of a decoded trace are in order of first use, and a decoder's
// memory is independent of the number of events. Header bytes 0x00, 0xa0,
// 0xc0 and ops 27..31 are reserved.
//
// A trace whose writer was killed ends without the end marker, possibly
// inside a record: strict decoding fails, lenient decoding (ReadOptions)
// returns the complete events and sets Truncated. Lenient decoding also
// stops at a 0x00 header byte: a writer that extends its file ahead of the
// data (the recorder's memory mapping) and stores the first byte of each
// write last leaves, when killed, its complete records and then zeros.
//
// An event on the previous event's goroutine with object and site indices
// below 128 and no argument takes 3 bytes; BenchmarkEncode's trace (16
// goroutines, 2000 objects, 500 sites) averages 4.8 bytes per event.

import (
	"encoding/binary"
	"fmt"
	"io"
	"unsafe"
)

const (
	bNewG  = 0x20
	bArg   = 0x40
	bFlags = 0x80

	tagDefG     = 0x20
	tagDefObj   = 0x40
	tagDefSite  = 0x60
	tagTrunc    = 0x80
	tagEnd      = 0xe0
	opMask      = 0x1f
	maxString   = 1 << 20
	maxEventLen = 1 + 1 + 5*binary.MaxVarintLen64
	bufSize     = 64 << 10
)

var defTags = [3]byte{tagDefG, tagDefObj, tagDefSite}

// objKinds is Op.Object for every op code, valid or not.
var objKinds = func() (k [opMask + 1]ObjectKind) {
	for op := range k {
		k[op] = Op(op).Object()
	}
	return
}()

type binaryEncoder struct {
	w      io.Writer
	buf    []byte
	err    error
	closed bool
	n      int64 // events so far
	prevG  int32 // file index of the previous event's goroutine
	// fidx[tab][i] is 1 + the file index of t's name i, or 0 if not yet
	// defined.
	fidx  [3][]int32
	names [3]map[string]int32 // file index of each defined name; nil if distinct
	count [3]int32            // names defined in each table
	trunc string
	// lazy: the object names, if LazyObjects was called (Tables.Objects
	// is then not read); objName: the name being defined.
	lazy    ObjectNames
	objName []byte
}

// NewBinaryEncoder returns an Encoder that writes the binary format to w.
func NewBinaryEncoder(w io.Writer) Encoder {
	e := &binaryEncoder{w: w, buf: make([]byte, 0, bufSize), prevG: -1}
	for i := range e.names {
		e.names[i] = make(map[string]int32)
	}
	e.buf = append(e.buf, BinaryMagic...)
	e.buf = append(e.buf, BinaryVersion)
	return e
}

func (e *binaryEncoder) SetTruncated(reason string) { e.trunc = reason }

// DistinctNames promises that the tables passed to Encode never hold one
// name at two indices of a table (an Interner's tables, say): the encoder
// then defines each index's name without looking it up among those defined,
// and keeps no copy of them, so that its memory is 4 bytes per name; a
// name is read only until the first event that refers to it is encoded,
// and may be dropped from the table after that (an exception to Encoder's
// rule that names do not change). The
// recorder runtime names every allocation and would otherwise hold all
// their names twice. Call it before the first Encode; it is not part of
// Encoder (reach it by an interface assertion). A table that breaks the
// promise makes a trace that decoders reject ("defined twice").
func (e *binaryEncoder) DistinctNames() {
	if e.n == 0 {
		e.names = [3]map[string]int32{}
	}
}

// ObjectNames supplies an encoder's object names in place of
// Tables.Objects (see LazyObjects).
type ObjectNames interface {
	// NumObjects is the number of objects: the valid indices are below it.
	NumObjects() int
	// AppendObjectName appends the name of object i to dst.
	AppendObjectName(dst []byte, i int32) []byte
}

// LazyObjects makes the encoder take object names from n rather than from
// the Tables passed to Encode, whose Objects it then ignores: the
// recorder runtime names every allocation "desc#k", a million in some
// tests, and keeps desc and k rather than a string each (growing a slice
// of them cost a tenth of such a recording). Each name is asked for once,
// when the first event that refers to it is encoded, and checked as a
// name of Tables would be. It implies DistinctNames. Call it before the
// first Encode; it is not part of Encoder (reach it by an interface
// assertion).
func (e *binaryEncoder) LazyObjects(n ObjectNames) {
	if e.n == 0 {
		e.DistinctNames()
		e.lazy = n
	}
}

// name returns the name of entry i of the selected table. An object's
// name from LazyObjects is valid until the next call.
func (e *binaryEncoder) name(t *Tables, which int, i int32) string {
	if which == TabObject && e.lazy != nil {
		e.objName = e.lazy.AppendObjectName(e.objName[:0], i)
		// Read only until the next call, which overwrites it in place.
		return unsafe.String(unsafe.SliceData(e.objName), len(e.objName))
	}
	return t.Name(which, i)
}

// tableLen is the number of entries of the selected table.
func (e *binaryEncoder) tableLen(t *Tables, which int) int {
	if which == TabObject && e.lazy != nil {
		return e.lazy.NumObjects()
	}
	return len(t.table(which))
}

func appendUvarint(b []byte, v uint64) []byte {
	if v < 0x80 {
		return append(b, byte(v))
	}
	return binary.AppendUvarint(b, v)
}

func (e *binaryEncoder) flush() {
	if e.err == nil && len(e.buf) > 0 {
		_, e.err = e.w.Write(e.buf)
	}
	e.buf = e.buf[:0]
}

// Flush writes what the encoder has buffered to the underlying writer. It
// is not part of Encoder (reach it by an interface assertion): the recorder
// runtime flushes after every event, so that a killed process loses none.
func (e *binaryEncoder) Flush() error {
	e.flush()
	return e.err
}

// lookup returns the file index of t's name i in the selected table, if
// it has been defined.
func (e *binaryEncoder) lookup(which int, i int32) (int32, bool) {
	if f := e.fidx[which]; int(i) < len(f) && f[i] != 0 {
		return f[i] - 1, true
	}
	return 0, false
}

// opChecks holds, by op code, what checkEventN requires of an event by
// its op alone: valid (a known op), and whether Arg may be non-zero and
// must then not be negative.
var opChecks = func() (c [256]struct{ valid, arg, capacity bool }) {
	for op := range c {
		o := Op(op)
		c[op].valid = o.Valid()
		c[op].arg = o.HasCap() || o.HasDelta() || o.HasKey()
		c[op].capacity = o.HasCap()
	}
	return
}()

// defined returns the file indices of ev's goroutine, object (0 if its op
// takes none) and site (-1 if none) when every one of them is defined
// and ev passes checkEventN; otherwise ok is false and Encode checks and
// defines. A defined index was within its table when its name was
// defined, and tables only grow (Encoder), so the tables' bounds hold:
// the recorder's events, whose names are nearly always defined, skip the
// full check (a tenth of a recorded event's cost).
func (e *binaryEncoder) defined(ev *Event) (g, obj, site int32, ok bool) {
	c := &opChecks[ev.Op]
	if !c.valid || ev.G < 0 ||
		ev.Arg != 0 && (!c.arg || c.capacity && ev.Arg < 0) ||
		ev.Flags != 0 && !ValidFlags(ev.Op, ev.Flags) ||
		ev.Val != 0 && ev.Flags&(FlagVal|FlagLen) == 0 {
		return 0, 0, 0, false
	}
	if g, ok = e.lookup(TabGoroutine, ev.G); !ok {
		return 0, 0, 0, false
	}
	switch objKinds[ev.Op&opMask] {
	case ObjNone:
		ok = ev.Obj == NoIndex
	case ObjObject:
		ok = ev.Obj >= 0
		if ok {
			obj, ok = e.lookup(TabObject, ev.Obj)
		}
	case ObjGoroutine:
		ok = ev.Obj >= 0
		if ok {
			obj, ok = e.lookup(TabGoroutine, ev.Obj)
		}
	}
	if !ok {
		return 0, 0, 0, false
	}
	site = -1
	if ev.Site != NoIndex {
		if ev.Site < 0 {
			return 0, 0, 0, false
		}
		if site, ok = e.lookup(TabSite, ev.Site); !ok {
			return 0, 0, 0, false
		}
	}
	return g, obj, site, true
}

// define defines the names ev refers to that are not yet defined. It
// checks them all before writing anything.
func (e *binaryEncoder) define(ev *Event, t *Tables) error {
	var refs [3]struct {
		which int
		i     int32
	}
	n := 0
	add := func(which int, i int32) {
		if i >= 0 {
			refs[n].which, refs[n].i = which, i
			n++
		}
	}
	add(TabGoroutine, ev.G)
	switch objKinds[ev.Op] {
	case ObjObject:
		add(TabObject, ev.Obj)
	case ObjGoroutine:
		add(TabGoroutine, ev.Obj)
	}
	add(TabSite, ev.Site)
	for _, r := range refs[:n] {
		if _, ok := e.lookup(r.which, r.i); ok {
			continue
		}
		name := e.name(t, r.which, r.i)
		if _, ok := e.names[r.which][name]; ok {
			continue
		}
		noun := tableNouns[r.which]
		if msg, _ := checkTableName(r.which, name); msg != "" {
			return fmt.Errorf("cannot write %s %d %s: %s", noun, r.i, quote(name), msg)
		}
		if len(name) > maxString {
			return fmt.Errorf("cannot write %s %d: name longer than %d bytes", noun, r.i, maxString)
		}
		if e.count[r.which] >= maxNames {
			return fmt.Errorf("cannot write %s %d: more than %d %s names", noun, r.i, maxNames, noun)
		}
	}
	for _, r := range refs[:n] {
		if _, ok := e.lookup(r.which, r.i); ok {
			continue
		}
		name := e.name(t, r.which, r.i)
		fi, ok := e.names[r.which][name]
		if !ok {
			fi = e.count[r.which]
			e.count[r.which]++
			if e.names[r.which] != nil {
				e.names[r.which][name] = fi
			}
			e.buf = append(e.buf, defTags[r.which])
			e.buf = appendUvarint(e.buf, uint64(len(name)))
			e.buf = append(e.buf, name...)
		}
		f := &e.fidx[r.which]
		if int(r.i) >= len(*f) {
			m := max(int(r.i)+1, e.tableLen(t, r.which))
			*f = append(*f, make([]int32, m-len(*f))...)
		}
		(*f)[r.i] = fi + 1
	}
	return nil
}

// table returns the selected table.
func (t *Tables) table(which int) []string {
	switch which {
	case TabGoroutine:
		return t.Goroutines
	case TabObject:
		return t.Objects
	}
	return t.Sites
}

func (e *binaryEncoder) Encode(ev Event, t *Tables) error {
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
	g, obj, site, known := e.defined(&ev)
	if !known {
		// Some name is not yet defined, or the event is invalid: check it
		// against the tables, then define what it names.
		if err := t.checkEventN(ev, e.tableLen(t, TabObject)); err != nil {
			return fmt.Errorf("trace: event %d: %v", e.n, err)
		}
		if err := e.define(&ev, t); err != nil {
			return fmt.Errorf("trace: event %d: %v", e.n, err)
		}
		g, _ = e.lookup(TabGoroutine, ev.G)
		switch objKinds[ev.Op] {
		case ObjObject:
			obj, _ = e.lookup(TabObject, ev.Obj)
		case ObjGoroutine:
			obj, _ = e.lookup(TabGoroutine, ev.Obj)
		}
		site = -1
		if ev.Site >= 0 {
			site, _ = e.lookup(TabSite, ev.Site)
		}
	}

	b := e.buf
	h := byte(ev.Op)
	if g != e.prevG {
		h |= bNewG
	}
	if ev.Arg != 0 {
		h |= bArg
	}
	if ev.Flags != 0 {
		h |= bFlags
	}
	b = append(b, h)
	if h&bNewG != 0 {
		b = appendUvarint(b, uint64(g))
		e.prevG = g
	}
	if h&bFlags != 0 {
		b = append(b, ev.Flags)
	}
	if objKinds[ev.Op] != ObjNone {
		b = appendUvarint(b, uint64(obj))
	}
	b = appendUvarint(b, uint64(site+1))
	if h&bArg != 0 {
		b = binary.AppendVarint(b, ev.Arg)
	}
	if ev.Flags&(FlagVal|FlagLen) != 0 {
		b = appendUvarint(b, ev.Val)
	}
	e.buf = b
	if len(b) > bufSize-2*maxEventLen {
		e.flush()
	}
	return e.err
}

func (e *binaryEncoder) Close() error {
	if e.closed || e.err != nil {
		return e.err
	}
	e.closed = true
	if e.trunc != "" {
		e.buf = append(e.buf, tagTrunc)
		e.buf = appendUvarint(e.buf, uint64(len(e.trunc)))
		e.buf = append(e.buf, e.trunc...)
	}
	e.buf = append(e.buf, tagEnd)
	e.flush()
	return e.err
}

type binaryDecoder struct {
	r       io.Reader
	name    string
	lenient bool
	buf     []byte
	pos     int   // next unread byte in buf
	end     int   // end of data in buf
	off     int64 // file offset of buf[0]
	eof     bool  // r is exhausted
	g       int32 // the previous event's goroutine, -1 at first
	version byte  // the format version the header gave
	t       Tables
	in      *Interner
	trunc   string
	err     error // sticky: io.EOF or the first error

	countObj bool  // ReadOptions.CountObjects
	nObj     int32 // object names defined, if countObj
}

// NumObjects returns the number of object names the trace defined so far
// (counted with ReadOptions.CountObjects, kept without). Reach it by an
// interface assertion: text decoders have none.
func (d *binaryDecoder) NumObjects() int { return d.objects() }

// objects returns the number of object names defined.
func (d *binaryDecoder) objects() int {
	if d.countObj {
		return int(d.nObj)
	}
	return len(d.t.Objects)
}

// NewBinaryDecoder returns a strict decoder for a binary trace. It reads and
// checks the header. Name is used in error messages.
func NewBinaryDecoder(r io.Reader, name string) (Decoder, error) {
	return newBinaryDecoder(r, name, false)
}

func newBinaryDecoder(r io.Reader, name string, lenient bool) (*binaryDecoder, error) {
	d := &binaryDecoder{r: r, name: name, lenient: lenient, buf: make([]byte, bufSize), g: -1}
	d.in = NewInterner(&d.t)
	hdr := len(BinaryMagic) + 1
	if err := d.fill(hdr); err != nil {
		return nil, err
	}
	n := min(d.end, len(BinaryMagic))
	if string(d.buf[:n]) != BinaryMagic[:n] {
		return nil, d.errorf(0, "not a pecanvet binary trace (bad magic)")
	}
	if d.end < hdr {
		if !lenient {
			return nil, d.errorf(int64(d.end), "unexpected end of data inside the header")
		}
		d.trunc = fmt.Sprintf("trace ends at byte %d inside the header (writer killed?)", d.end)
		d.err = io.EOF
		return d, nil
	}
	if v := d.buf[hdr-1]; v > BinaryVersion || v < 1 {
		return nil, d.errorf(int64(hdr-1), "unsupported trace version %d; this pecanvet reads versions 1 to %d", v, BinaryVersion)
	}
	d.version = d.buf[hdr-1]
	d.pos = hdr
	return d, nil
}

func (d *binaryDecoder) Tables() *Tables   { return &d.t }
func (d *binaryDecoder) Truncated() string { return d.trunc }

func (d *binaryDecoder) errorf(off int64, format string, args ...any) error {
	return &DecodeError{Name: d.name, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// fill reads until n bytes are available at buf[pos:], or r is exhausted.
func (d *binaryDecoder) fill(n int) error {
	if d.pos > 0 {
		copy(d.buf, d.buf[d.pos:d.end])
		d.off += int64(d.pos)
		d.end -= d.pos
		d.pos = 0
	}
	if n > len(d.buf) {
		nb := make([]byte, max(n, 2*len(d.buf)))
		copy(nb, d.buf[:d.end])
		d.buf = nb
	}
	for empty := 0; d.end < n && !d.eof; {
		m, err := d.r.Read(d.buf[d.end:])
		d.end += m
		switch {
		case err == io.EOF:
			d.eof = true
		case err != nil:
			return &DecodeError{Name: d.name, Offset: d.off + int64(d.end), Msg: "read error", Err: err}
		case m == 0:
			if empty++; empty > 100 {
				return &DecodeError{Name: d.name, Offset: d.off + int64(d.end), Msg: "read error", Err: io.ErrNoProgress}
			}
		}
	}
	return nil
}

// fail makes err sticky.
func (d *binaryDecoder) fail(err error) (Event, error) {
	d.err = err
	return Event{}, err
}

// cut handles the end of data at a record boundary (inRecord false) or
// inside the record starting at buf[start].
func (d *binaryDecoder) cut(start int, inRecord bool) (Event, error) {
	size := d.off + int64(d.end)
	if d.lenient {
		if d.trunc == "" {
			d.trunc = fmt.Sprintf("trace ends at byte %d without end marker (writer killed?)", size)
		}
		return d.fail(io.EOF)
	}
	if inRecord {
		return d.fail(d.errorf(size, "unexpected end of data inside a record (started at byte %d); the writer was killed? (lenient reading accepts this)", d.off+int64(start)))
	}
	return d.fail(d.errorf(size, "no end marker; the trace was cut short (writer killed?) (lenient reading accepts this)"))
}

// uvarint decodes the uvarint at b[p] and returns it and the index after
// it, or -1 if b ends inside it and < -1 if it overflows.
func uvarint(b []byte, p int) (uint64, int) {
	if p < len(b) && b[p] < 0x80 {
		return uint64(b[p]), p + 1
	}
	return uvarintSlow(b, p)
}

func uvarintSlow(b []byte, p int) (uint64, int) {
	if p+1 < len(b) && b[p+1] < 0x80 {
		return uint64(b[p]&0x7f) | uint64(b[p+1])<<7, p + 2
	}
	v, n := binary.Uvarint(b[min(p, len(b)):])
	if n <= 0 {
		return 0, n - 1 // -1: short, < -1: overflow
	}
	return v, p + n
}

// varintErr reports a bad varint at buf[p] in the record at buf[start];
// q is uvarint's result.
func (d *binaryDecoder) varintErr(q, start, p int) (Event, error) {
	if q == -1 {
		return d.cut(start, true)
	}
	return d.fail(d.errorf(d.off+int64(p), "varint overflows 64 bits"))
}

func (d *binaryDecoder) Next() (Event, error) {
	for d.err == nil {
		if d.end-d.pos < maxEventLen && !d.eof {
			if err := d.fill(maxEventLen); err != nil {
				return d.fail(err)
			}
		}
		if d.pos >= d.end {
			return d.cut(d.pos, false)
		}
		b := d.buf[:d.end]
		start := d.pos
		h := b[start]
		op := Op(h & opMask)
		if op == 0 {
			if err := d.control(h); err != nil {
				return Event{}, err
			}
			continue
		}

		p := start + 1
		if op >= numOps {
			return d.fail(d.errorf(d.off+int64(start), "invalid op code %d in event record (header byte %#02x)", op, h))
		}
		ev := Event{Op: op, Obj: NoIndex, Site: NoIndex}
		if h&bNewG != 0 {
			v, q := uvarint(b, p)
			if q < 0 {
				return d.varintErr(q, start, p)
			}
			if v >= uint64(len(d.t.Goroutines)) {
				return d.fail(d.errorf(d.off+int64(p), "event refers to undefined goroutine %d (%d defined)", v, len(d.t.Goroutines)))
			}
			d.g = int32(v)
			p = q
		} else if d.g < 0 {
			return d.fail(d.errorf(d.off+int64(start), "the first event does not name its goroutine"))
		}
		ev.G = d.g
		if h&bFlags != 0 {
			if p >= len(b) {
				return d.cut(start, true)
			}
			ev.Flags = b[p]
			if !ValidFlags(op, ev.Flags) || ev.Flags&FlagVal != 0 && d.version < 3 || ev.Flags&FlagLen != 0 && d.version < 4 {
				return d.fail(d.errorf(d.off+int64(p), "%s: invalid flags %#x", op, ev.Flags))
			}
			p++
		}
		if k := objKinds[op]; k != ObjNone {
			// uvarint, inlined by hand.
			var v uint64
			q := p + 1
			if p < len(b) && b[p] < 0x80 {
				v = uint64(b[p])
			} else {
				v, q = uvarintSlow(b, p)
			}
			if q < 0 {
				return d.varintErr(q, start, p)
			}
			n, what := d.objects(), "object"
			if k == ObjGoroutine {
				n, what = len(d.t.Goroutines), "goroutine"
			}
			if v >= uint64(n) {
				return d.fail(d.errorf(d.off+int64(p), "%s refers to undefined %s %d (%d defined)", op, what, v, n))
			}
			ev.Obj = int32(v)
			p = q
		}
		// uvarint, inlined by hand.
		var v uint64
		q := p + 1
		if p < len(b) && b[p] < 0x80 {
			v = uint64(b[p])
		} else {
			v, q = uvarintSlow(b, p)
		}
		if q < 0 {
			return d.varintErr(q, start, p)
		}
		if v > uint64(len(d.t.Sites)) {
			return d.fail(d.errorf(d.off+int64(p), "event refers to undefined site %d (%d defined)", v-1, len(d.t.Sites)))
		}
		ev.Site = int32(v) - 1
		p = q
		if h&bArg != 0 {
			if !op.HasCap() && !op.HasDelta() && !op.HasKey() {
				return d.fail(d.errorf(d.off+int64(start), "%s takes no argument (header byte %#02x)", op, h))
			}
			u, q := uvarint(b, p)
			if q < 0 {
				return d.varintErr(q, start, p)
			}
			a := int64(u>>1) ^ -int64(u&1)
			if op.HasCap() && a < 0 {
				return d.fail(d.errorf(d.off+int64(p), "%s: negative capacity %d", op, a))
			}
			ev.Arg = a
			p = q
		}
		if ev.Flags&(FlagVal|FlagLen) != 0 {
			u, q := uvarint(b, p)
			if q < 0 {
				return d.varintErr(q, start, p)
			}
			ev.Val = u
			p = q
		}
		d.pos = p
		return ev, nil
	}
	return Event{}, d.err
}

// control decodes the non-event record at buf[pos] with header byte h.
func (d *binaryDecoder) control(h byte) error {
	start := d.pos
	switch h {
	case tagDefG, tagDefObj, tagDefSite, tagTrunc:
	case tagEnd:
		d.pos++
		if d.pos == d.end && !d.eof {
			if err := d.fill(1); err != nil {
				d.fail(err)
				return err
			}
		}
		if d.pos < d.end {
			err := d.errorf(d.off+int64(d.pos), "data after the end marker")
			d.fail(err)
			return err
		}
		d.fail(io.EOF)
		return io.EOF
	default:
		if h == 0 && d.lenient {
			// Zero padding after the last record (see the format).
			if d.trunc == "" {
				d.trunc = fmt.Sprintf("trace ends at byte %d without end marker (zero padding follows; writer killed?)", d.off+int64(start))
			}
			d.fail(io.EOF)
			return io.EOF
		}
		err := d.errorf(d.off+int64(start), "invalid record header byte %#02x", h)
		d.fail(err)
		return err
	}

	// A string record.
	n, q := uvarint(d.buf[:d.end], start+1)
	if q < 0 {
		_, err := d.varintErr(q, start, start+1)
		return err
	}
	if n > maxString {
		err := d.errorf(d.off+int64(start+1), "string length %d too large (at most %d)", n, maxString)
		d.fail(err)
		return err
	}
	need := q - start + int(n)
	if d.end-start < need {
		if err := d.fill(need); err != nil {
			d.fail(err)
			return err
		}
		// fill moved the record to buf[0].
		q -= start
		start = 0
		if d.end < need {
			_, err := d.cut(start, true)
			return err
		}
	}
	s := string(d.buf[q : q+int(n)])
	if h == tagTrunc {
		if s == "" {
			err := d.errorf(d.off+int64(start), "empty truncation reason")
			d.fail(err)
			return err
		}
		d.trunc = s
		d.pos = start + need
		return nil
	}
	which := TabGoroutine
	switch h {
	case tagDefObj:
		which = TabObject
	case tagDefSite:
		which = TabSite
	}
	noun := tableNouns[which]
	if msg, at := checkTableName(which, s); msg != "" {
		err := d.errorf(d.off+int64(q+at), "bad %s name %s: %s", noun, quote(s), msg)
		d.fail(err)
		return err
	}
	if which == TabObject && d.countObj {
		if d.nObj >= maxNames {
			err := d.errorf(d.off+int64(start), "too many %s names (more than %d)", noun, maxNames)
			d.fail(err)
			return err
		}
		d.nObj++
		d.pos = start + need
		return nil
	}
	if len(*d.in.table(which)) >= maxNames {
		if i, ok := d.in.Lookup(which, s); ok {
			err := d.errorf(d.off+int64(start), "%s %s defined twice (already %s %d)", noun, quote(s), noun, i)
			d.fail(err)
			return err
		}
		err := d.errorf(d.off+int64(start), "too many %s names (more than %d)", noun, maxNames)
		d.fail(err)
		return err
	}
	// One probe both finds a name defined twice and adds a new one (a
	// trace can define a million object names).
	if i, added := d.in.Intern(which, s); !added {
		err := d.errorf(d.off+int64(start), "%s %s defined twice (already %s %d)", noun, quote(s), noun, i)
		d.fail(err)
		return err
	}
	d.pos = start + need
	return nil
}
