package ptg

import "sort"

// lockSets interns locksets (sets of (lock, mode)) so that events can be
// grouped by lockset and two locksets compared by id.
type lockSets struct {
	ids     map[setKey]int32
	byValue map[string]int32
	members [][]lockMode // set id → sorted members; id 0 is the empty set
	conf    map[[2]int32]bool
	// cache is a direct-mapped cache of ids in front of the map: add runs
	// at every acquisition, and most are of a few (parent, lock) pairs.
	cache [256]struct {
		k  setKey
		id int32 // 1 + id; 0: empty
	}
}

type lockMode struct {
	lock int32
	mode uint8
}

type setKey struct {
	parent int32
	lock   int32
	mode   uint8
}

func (s *lockSets) init() {
	s.ids = map[setKey]int32{}
	s.byValue = map[string]int32{"": 0}
	s.members = [][]lockMode{nil}
	s.conf = map[[2]int32]bool{}
}

// add returns the id of parent ∪ {(lock, mode)}.
func (s *lockSets) add(parent, lock int32, mode uint8) int32 {
	k := setKey{parent, lock, mode}
	slot := &s.cache[(uint32(parent)*0x9e3779b1^uint32(lock)*0x85ebca77^uint32(mode))>>24]
	if slot.id > 0 && slot.k == k {
		return slot.id - 1
	}
	if id, ok := s.ids[k]; ok {
		slot.k, slot.id = k, id+1
		return id
	}
	m := append(append([]lockMode(nil), s.members[parent]...), lockMode{lock, mode})
	sort.Slice(m, func(i, j int) bool {
		if m[i].lock != m[j].lock {
			return m[i].lock < m[j].lock
		}
		return m[i].mode < m[j].mode
	})
	// The same set may be reached through another parent.
	v := make([]byte, 0, 5*len(m))
	for _, x := range m {
		v = append(v, byte(x.lock), byte(x.lock>>8), byte(x.lock>>16), byte(x.lock>>24), x.mode)
	}
	id, ok := s.byValue[string(v)]
	if !ok {
		id = int32(len(s.members))
		s.members = append(s.members, m)
		s.byValue[string(v)] = id
	}
	s.ids[k] = id
	slot.k, slot.id = k, id+1
	return id
}

// conflict reports whether two locksets share a lock that at least one holds
// in write mode: two goroutines cannot hold both at once.
func (s *lockSets) conflict(a, b int32) bool {
	if a == 0 || b == 0 {
		return false
	}
	if a > b {
		a, b = b, a
	}
	k := [2]int32{a, b}
	if c, ok := s.conf[k]; ok {
		return c
	}
	c := false
	ma, mb := s.members[a], s.members[b]
	for i, j := 0, 0; i < len(ma) && j < len(mb); {
		switch {
		case ma[i].lock < mb[j].lock:
			i++
		case ma[i].lock > mb[j].lock:
			j++
		default:
			if ma[i].mode == modeW || mb[j].mode == modeW {
				c = true
			}
			i++
			j++
		}
	}
	s.conf[k] = c
	return c
}

// SetOf returns the interned lockset id of lockset node n (0 = empty).
func (gr *Graph) SetOf(n int32) int32 {
	if n < 0 {
		return 0
	}
	return gr.nodes[n].set
}

// LockSet returns the interned lockset id held at event e.
func (gr *Graph) LockSet(e int32) int32 { return gr.SetOf(gr.Lock[e]) }

// Conflict reports whether locksets (ids) a and b exclude each other.
func (gr *Graph) Conflict(a, b int32) bool { return gr.sets.conflict(a, b) }

// Held returns the lockset node held throughout the stretch of one
// goroutine from event a to event b (a before b): the acquisitions that are
// held at a and still held, not re-acquired, at b.
func (gr *Graph) Held(a, b int32) int32 {
	x, y := gr.Lock[a], gr.Lock[b]
	for x >= 0 && y >= 0 && x != y {
		dx, dy := gr.nodes[x].depth, gr.nodes[y].depth
		switch {
		case dx > dy:
			x = gr.nodes[x].parent
		case dy > dx:
			y = gr.nodes[y].parent
		default:
			x, y = gr.nodes[x].parent, gr.nodes[y].parent
		}
	}
	if x != y {
		return -1
	}
	return x
}

// HeldAcquires calls f with the acquiring event of every lock held at e,
// innermost first.
func (gr *Graph) HeldAcquires(e int32, f func(acq, lock int32, write bool)) {
	for n := gr.Lock[e]; n >= 0; n = gr.nodes[n].parent {
		f(gr.nodes[n].acq, gr.nodes[n].lock, gr.nodes[n].mode == modeW)
	}
}

// LockNames returns the lock objects of lockset id s (for messages).
func (gr *Graph) LockNames(s int32) []string {
	var out []string
	for _, m := range gr.sets.members[s] {
		n := gr.Tr.Objects[m.lock]
		if m.mode == modeR {
			n += "(r)"
		}
		out = append(out, n)
	}
	return out
}
