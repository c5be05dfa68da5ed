package check

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding"
	"hash"
	"io"
	"os"
	"sort"
	"strconv"
	"sync"
)

// stepIndex reads, once for all the predictions of one trace, what the
// replay queue's pruning needs of their shared steps. A prediction's
// schedule (trace.SchedText) is the first pre lines of the trace's steps
// file, then its own tail. infer and doomed compare the sums of schedule
// prefixes, and the goroutines' next steps after a failure's: read from
// each schedule's text, that hashed the same recorded steps again for
// every prediction (btree/immutable: 10 s of its check's CPU; go-deadlock:
// thousands of predictions of 5,000 to 11,000 steps per trace). The index
// keeps the hash's state at the line counts asked for (and every
// cpStride lines on the way), so a prediction's sum costs its tail and at
// most cpStride lines of the file; and, per failure step k, each
// goroutine's first line from k on, so a signature costs its tail.
//
// The sums are those of the text, as prediction.sigOf's, so they compare
// with a failure's signature read from the text.
type stepIndex struct {
	mu    sync.Mutex
	file  string
	bad   bool         // the file could not be read as expected: the callers read the text
	cps   []checkpoint // by k
	after map[int]*firstScan
	r     *bufio.Reader // reused: one per read was most of the index's allocation
}

// checkpoint: the hash of the steps file's first k lines, and where line
// k starts.
type checkpoint struct {
	k     int
	off   int64
	state []byte // sha256 state (encoding.BinaryMarshaler)
	// nextG: the goroutine of line k ("" past the end), if known.
	nextG     string
	nextKnown bool
}

// firstStep: a goroutine's first line at or after some line of the file.
type firstStep struct {
	g    string
	line int
	text string // without the newline
}

// cpStride bounds how far a sum reads from the nearest checkpoint.
const cpStride = 256

func newStepIndex() *stepIndex { return &stepIndex{} }

// textOK reports whether p's schedule is read through the index: a
// rendered schedule (SchedText) whose steps file the index reads.
func (x *stepIndex) textOK(p prediction) bool {
	if x == nil || p.s != nil || p.text == nil {
		return false
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	if x.file == "" {
		x.file = p.text.File
	}
	return !x.bad && x.file == p.text.File
}

// stateAt returns the hash of the file's first k lines, and the goroutine
// of line k ("" past the file's end). ok is false if the file has fewer
// than k lines or cannot be read (x.mu held).
func (x *stepIndex) stateAt(k int) (h hash.Hash, nextG string, ok bool) {
	i := sort.Search(len(x.cps), func(i int) bool { return x.cps[i].k > k }) - 1
	var cp checkpoint
	if i >= 0 {
		cp = x.cps[i]
	} else {
		st, err := sha256.New().(encoding.BinaryMarshaler).MarshalBinary()
		if err != nil {
			x.bad = true
			return nil, "", false
		}
		cp = checkpoint{state: st}
		x.insert(cp)
	}
	h = sha256.New()
	if err := h.(encoding.BinaryUnmarshaler).UnmarshalBinary(cp.state); err != nil {
		x.bad = true
		return nil, "", false
	}
	if cp.k == k && cp.nextKnown {
		return h, cp.nextG, true
	}
	r, done, ok := x.readFrom(cp.off)
	if !ok {
		return nil, "", false
	}
	defer done()
	off := cp.off
	for n := cp.k; n < k; n++ {
		l, err := r.ReadSlice('\n')
		if err != nil {
			// Fewer than k lines (or a line longer than the buffer: not
			// one of a step).
			if err != io.EOF || len(l) > 0 {
				x.bad = true
			}
			return nil, "", false
		}
		h.Write(l)
		off += int64(len(l))
		if (n+1)%cpStride == 0 && n+1 < k {
			st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
			if err != nil {
				x.bad = true
				return nil, "", false
			}
			x.insert(checkpoint{k: n + 1, off: off, state: st})
		}
	}
	if l, err := r.ReadSlice('\n'); err == nil {
		nextG = string(goOf(l))
	}
	st, err := h.(encoding.BinaryMarshaler).MarshalBinary()
	if err != nil {
		x.bad = true
		return nil, "", false
	}
	x.insert(checkpoint{k: k, off: off, state: st, nextG: nextG, nextKnown: true})
	return h, nextG, true
}

// insert adds cp to the checkpoints, if none is at its k (x.mu held).
func (x *stepIndex) insert(cp checkpoint) {
	i := sort.Search(len(x.cps), func(i int) bool { return x.cps[i].k >= cp.k })
	if i < len(x.cps) && x.cps[i].k == cp.k {
		if cp.nextKnown {
			x.cps[i] = cp
		}
		return
	}
	x.cps = append(x.cps, checkpoint{})
	copy(x.cps[i+1:], x.cps[i:])
	x.cps[i] = cp
}

// firstScan is firstFrom's reading from one line k: the goroutines'
// first lines in [k, to), in order of the lines; off is where line to
// starts.
type firstScan struct {
	fs   []firstStep
	seen map[string]bool
	to   int
	off  int64
	eof  bool
}

// firstFrom returns each goroutine's first line of the file at or after
// line k, in order of the lines, complete for the lines before upTo (x.mu
// held). The file is read only as far as asked: it runs to the longest
// prefix of any of the trace's predictions, and a failure's signature is
// asked for by predictions of any prefix.
func (x *stepIndex) firstFrom(k, upTo int) ([]firstStep, bool) {
	sc := x.after[k]
	if sc == nil {
		// Start at the checkpoint at k, which stateAt leaves.
		if _, _, ok := x.stateAt(k); !ok {
			return nil, false
		}
		i := sort.Search(len(x.cps), func(i int) bool { return x.cps[i].k >= k })
		if i == len(x.cps) || x.cps[i].k != k {
			x.bad = true
			return nil, false
		}
		sc = &firstScan{seen: map[string]bool{}, to: k, off: x.cps[i].off}
		if x.after == nil {
			x.after = map[int]*firstScan{}
		}
		x.after[k] = sc
	}
	if sc.to >= upTo || sc.eof {
		return sc.fs, true
	}
	r, done, ok := x.readFrom(sc.off)
	if !ok {
		return nil, false
	}
	defer done()
	for sc.to < upTo {
		l, err := r.ReadSlice('\n')
		if err == io.EOF && len(l) == 0 {
			sc.eof = true
			break
		}
		if err != nil {
			x.bad = true // a line longer than the buffer, or cut short
			return nil, false
		}
		sc.off += int64(len(l))
		l = l[:len(l)-1]
		if g := goOf(l); !sc.seen[string(g)] {
			sc.seen[string(g)] = true
			sc.fs = append(sc.fs, firstStep{g: string(g), line: sc.to, text: string(l)})
		}
		sc.to++
	}
	return sc.fs, true
}

// goOf returns the goroutine of a step's line (its first field).
func goOf(l []byte) []byte {
	l = bytes.TrimSuffix(l, []byte{'\n'})
	if i := bytes.IndexByte(l, ' '); i >= 0 {
		return l[:i]
	}
	return l
}

// schedAt returns the anomaly's step indices (from 0, in pattern order) of
// a rendered schedule's header, as prediction.eachStep gives them.
func schedAt(head []byte) []int {
	for _, l := range bytes.Split(head, []byte{'\n'}) {
		rest, ok := bytes.CutPrefix(l, []byte("anomaly "))
		if !ok {
			continue
		}
		var at []int
		for _, x := range bytes.Fields(rest)[1:] {
			n, err := strconv.Atoi(string(x))
			if err != nil {
				at = append(at, -1)
				continue
			}
			at = append(at, n-1)
		}
		return at
	}
	return nil
}

// lineAt returns where line j (from 0) of text starts: len(text) if it
// has j lines.
func lineAt(text []byte, j int) int {
	off := 0
	for ; j > 0; j-- {
		i := bytes.IndexByte(text[off:], '\n')
		if i < 0 {
			return len(text)
		}
		off += i + 1
	}
	return off
}

// readFrom returns x's reader on the steps file from byte off (x.mu
// held), and done, which lets the file go; ok is false (x.bad set) if
// the file cannot be read.
func (x *stepIndex) readFrom(off int64) (r *bufio.Reader, done func(), ok bool) {
	f, err := os.Open(x.file)
	if err != nil {
		x.bad = true
		return nil, nil, false
	}
	if _, err := f.Seek(off, io.SeekStart); err != nil {
		f.Close()
		x.bad = true
		return nil, nil, false
	}
	if x.r == nil {
		x.r = bufio.NewReaderSize(f, 16<<10)
	} else {
		x.r.Reset(f)
	}
	return x.r, func() { x.r.Reset(nil); f.Close() }, true
}

// prefixSumsIdx is prefixSums through p's stepIndex; ok is false when the
// index cannot give them (the caller reads the text).
func (p prediction) prefixSumsIdx(ks []int) (map[int]prefixSum, bool) {
	x := p.idx
	if !x.textOK(p) {
		return nil, false
	}
	pre := p.pre
	at := schedAt(p.text.Head)
	if pre < 0 || pre > p.steps {
		return nil, false
	}
	tail, err := p.text.Tail() // p.steps-pre lines (trace.ScheduleText.Schedule)
	if err != nil {
		return nil, false
	}
	out := make(map[int]prefixSum, len(ks))
	x.mu.Lock()
	defer x.mu.Unlock()
	for _, k := range ks {
		if _, ok := out[k]; ok {
			continue
		}
		if k > p.steps || k < 0 {
			out[k] = prefixSum{} // fewer than k steps
			continue
		}
		ps := prefixSum{ok: true}
		for _, i := range at {
			if i < k-1 {
				ps.ok = false
			}
		}
		var h hash.Hash
		var ok bool
		if k <= pre {
			if h, ps.next, ok = x.stateAt(k); !ok {
				return nil, false
			}
		} else if h, _, ok = x.stateAt(pre); !ok {
			return nil, false
		}
		if k >= pre {
			// The tail's first k-pre lines, each with its newline (as
			// sigOf hashes a step), and the goroutine of the next.
			j := lineAt(tail, k-pre)
			h.Write(tail[:j])
			ps.next = ""
			if j < len(tail) {
				ps.next = string(goOf(tail[j:]))
			}
		}
		h.Sum(ps.sum[:0])
		out[k] = ps
	}
	return out, true
}

// sigAfterIdx is sigAfter through p's stepIndex.
func (p prediction) sigAfterIdx(k int, prefix [sha256.Size]byte) (prefixSig, bool) {
	x := p.idx
	if !x.textOK(p) {
		return prefixSig{}, false
	}
	pre, n := p.pre, p.steps
	at := schedAt(p.text.Head)
	sg := prefixSig{ok: true, prefix: prefix, next: map[string]string{}}
	for _, i := range at {
		if i < k-1 {
			// As sigOf: not ok, read no further.
			sg.ok = false
			return sg, true
		}
	}
	if n < k {
		sg.ok = false
		return sg, true
	}
	if !allOwned(at, n) {
		sg.ok = false
	}
	if k <= pre {
		x.mu.Lock()
		fs, ok := x.firstFrom(k, pre)
		x.mu.Unlock()
		if !ok {
			return prefixSig{}, false
		}
		for _, f := range fs {
			if f.line < pre {
				sg.next[f.g] = f.text
			}
		}
	}
	if pre < 0 || pre > n {
		return prefixSig{}, false
	}
	tail, err := p.text.Tail()
	if err != nil {
		return prefixSig{}, false
	}
	for rest := tail[lineAt(tail, max(0, k-pre)):]; len(rest) > 0; {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		g := goOf(l)
		if _, ok := sg.next[string(g)]; !ok {
			sg.next[string(g)] = string(l)
		}
	}
	var names []string
	seen := map[string]bool{}
	for j, i := range at {
		if i >= 0 && i < n && j < len(p.anomaly) && !seen[p.anomaly[j].G] {
			seen[p.anomaly[j].G] = true
			names = append(names, p.anomaly[j].G)
		}
	}
	sort.Strings(names)
	for i, g := range names {
		if i > 0 {
			sg.owners += " "
		}
		sg.owners += g
	}
	return sg, true
}
