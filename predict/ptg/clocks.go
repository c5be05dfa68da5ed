package ptg

// Clock snapshots are stored in chunks shared between a goroutine's
// consecutive snapshots. A snapshot is a row of chunk numbers, one per
// chunkSize goroutines; taking one copies only the chunks that changed
// since the goroutine's previous snapshot. A join through a channel
// usually raises one or two components: with dense snapshots (4 bytes
// per goroutine each), golang-set's Test_IterConcurrent (a thousand
// goroutines, 400,000 snapshots) held 1.6 GB of clocks; with rows of
// chunks, about a tenth of that.

// maxChunkShift bounds the chunk size, 1<<maxChunkShift goroutines: a
// row is 4 bytes per chunk, a changed chunk 4 bytes per goroutine in it.
// A variable so that tests can use chunks of one or two goroutines.
var maxChunkShift uint = 5

// pageShift: chunks are allocated in pages of 1<<pageShift values, so
// that the storage grows without copying (a slice grown by append copies
// itself and holds the old and new arrays at once).
const pageShift = 16

// snapClocks is the chunk storage of a graph's clock snapshots. Chunk 0
// is all zeros: the row before a goroutine's first snapshot. The
// component of a snapshot's own goroutine is not kept up to date (its
// epoch changes at every release): readers take it from Graph.Epoch.
type snapClocks struct {
	shift uint // log2 of the chunk size
	nch   int  // chunks per row
	pages [][]uint32
	n     uint32 // chunks allocated
}

func (sc *snapClocks) init(ng int) {
	sc.shift = 0
	for sc.shift < maxChunkShift && 1<<sc.shift < ng {
		sc.shift++
	}
	sc.nch = (ng + 1<<sc.shift - 1) >> sc.shift
	sc.pages = [][]uint32{make([]uint32, 1<<sc.shift, 1<<min(10, pageShift))}
	sc.n = 1
}

// width is the length of a dense clock that rows encode (ng rounded up to
// whole chunks).
func (sc *snapClocks) width() int { return sc.nch << sc.shift }

// chunk returns the values of chunk c.
func (sc *snapClocks) chunk(c uint32) []uint32 {
	ps := pageShift - sc.shift // log2 of the chunks per page
	off := (c & (1<<ps - 1)) << sc.shift
	return sc.pages[c>>ps][off : off+1<<sc.shift : off+1<<sc.shift]
}

// at returns component h of the snapshot whose row is row.
func (sc *snapClocks) at(row []uint32, h int32) uint32 {
	c := row[h>>sc.shift]
	ps := pageShift - sc.shift
	return sc.pages[c>>ps][(c&(1<<ps-1))<<sc.shift|uint32(h)&(1<<sc.shift-1)]
}

// alloc stores vals (one chunk) and returns its number.
func (sc *snapClocks) alloc(vals []uint32) uint32 {
	last := len(sc.pages) - 1
	if len(sc.pages[last]) == 1<<pageShift {
		sc.pages = append(sc.pages, make([]uint32, 0, 1<<pageShift))
		last++
	}
	sc.pages[last] = append(sc.pages[last], vals...)
	c := sc.n
	sc.n++
	return c
}

// appendRow appends to rows the row of a snapshot of cur, the dense clock
// of goroutine g, and returns rows. rows' last row is g's previous
// snapshot (none before its first); joined are the rows of the snapshots
// g joined since. A chunk of cur equal, but for g's own component, to
// the same chunk of one of these is shared, not copied: a receive
// usually raises one or two components over g's previous clock, and a
// goroutine that learns from one that knows more (a sender resumed by
// the receiver of a thousand senders) holds mostly the other's chunks.
func (sc *snapClocks) appendRow(rows []uint32, cur []uint32, g int32, joined [][]uint32) []uint32 {
	start := len(rows)
	if start == 0 {
		rows = append(rows, make([]uint32, sc.nch)...)
	} else {
		rows = append(rows, rows[start-sc.nch:start]...)
	}
	own, ownAt := int(g)>>sc.shift, int(g)&(1<<sc.shift-1)
	equal := func(c uint32, vals []uint32, ci int) bool {
		for j, v := range sc.chunk(c) {
			if v != vals[j] && (ci != own || j != ownAt) {
				return false
			}
		}
		return true
	}
	for ci := range sc.nch {
		vals := cur[ci<<sc.shift : (ci+1)<<sc.shift]
		if equal(rows[start+ci], vals, ci) {
			continue
		}
		shared := false
		for _, r := range joined {
			if c := r[ci]; c != rows[start+ci] && equal(c, vals, ci) {
				rows[start+ci] = c
				shared = true
				break
			}
		}
		if !shared {
			rows[start+ci] = sc.alloc(vals)
		}
	}
	return rows
}

// A Clock is the clock snapshot that applies at an event (Graph.Clock).
// The zero Clock is the clock of an event with no snapshot: it knows no
// other goroutine.
type Clock struct {
	sc  *snapClocks
	row []uint32
}

// At returns the clock's component of goroutine h, which must not be the
// event's own goroutine (its component is the event's epoch).
func (c Clock) At(h int32) uint32 {
	if c.row == nil {
		return 0
	}
	return c.sc.at(c.row, h)
}
