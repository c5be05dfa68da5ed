package rt

import (
	minheap "container/heap"
	"time"
)

// Wake-up order of sleepers (recording only).
//
// A program that times its goroutines with sleeps asks for an order: the
// goroutine whose sleep ends first runs first. A loaded machine does not
// always give it: a timer's goroutine whose thread lost its CPU wakes
// late, and one whose sleep ends later overtakes it. The corpus's jigsaw
// (a network goroutine sleeping 4 ms, a dispatcher 8 ms) then recorded the
// dispatcher polling an empty queue before the network goroutine's add
// (12 and 9 runs of 30 under four busy loops at load 25 to 45), and its
// jigsaw.go:29 finding was not predicted from that trace.
//
// So while recording, a goroutine whose instrumented sleep ended waits,
// before it goes on, for every sleeper whose deadline is earlier to wake
// and run to its next pause (Goroutine.pauses: a sleep, an operation that
// would block, its end). Each such wait is bounded per sleeper waited
// for: one that has not paused wakeWait after the latest of its deadline,
// its wake and the first wait for it (a late thread, a CPU loop, a wait
// rt does not see) is waited for no more, so a sleeper costs its waiters
// wakeWait at most however many there are. A replay is not touched (it
// has its own clock, vclock.go), nor a synctest bubble, whose fake clock
// wakes sleepers in deadline order already and stands still while a
// goroutine yields.

// wakeWait bounds how long a sleeper is waited for (see done; a variable
// for tests, which run on loaded machines too).
var wakeWait = 50 * time.Millisecond

// sleeper is one instrumented sleep of goroutine g, while recording.
type sleeper struct {
	g        *Goroutine
	deadline int64  // now() at which the sleep ends
	woke     int64  // now() when it woke; 0: not yet
	pauses   uint32 // g.pauses when it woke (a select's: when it began)
	idx      int    // in the recorder's sleepers heap; -1: out of it
	// timer: a select on a timer's channel, whose wake rt does not see:
	// done at g's next pause.
	timer bool
	// waited: now() when a sleeper first waited for it; 0: none did. A
	// machine that runs every thread late wakes the later sleeper, too,
	// past the earlier one's deadline by more than wakeWait (jigsaw's 8
	// ms dispatcher woke at 367 ms, the 4 ms sleeper not yet, at load 45).
	waited int64
}

// done reports whether s is waited for no more at t (mu held): it paused
// since it woke, or wakeWait has passed since the latest of its deadline,
// its wake and the first wait for it.
func (s *sleeper) done(t int64) bool {
	if (s.timer || s.woke != 0) && s.g.pauses != s.pauses {
		return true
	}
	return t-max(s.deadline, s.woke, s.waited) > int64(wakeWait)
}

// sleepers is a min-heap of sleepers by deadline: the recorder's sleeps
// not known to be done.
type sleepers []*sleeper

func (h sleepers) Len() int           { return len(h) }
func (h sleepers) Less(i, j int) bool { return h[i].deadline < h[j].deadline }
func (h sleepers) Swap(i, j int) {
	h[i], h[j] = h[j], h[i]
	h[i].idx, h[j].idx = i, j
}
func (h *sleepers) Push(x any) {
	s := x.(*sleeper)
	s.idx = len(*h)
	*h = append(*h, s)
}
func (h *sleepers) Pop() any {
	old := *h
	s := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	s.idx = -1
	return s
}

// inBubble reports whether the calling goroutine is in a synctest
// bubble: there time.Now carries no monotonic reading (runtime's
// time_now), which Round(0) would strip.
func inBubble() bool {
	t := time.Now()
	return t == t.Round(0)
}

// sleepInOrder is Sleep while recording: time.Sleep(d), then the wait
// for the sleepers due before this one.
func sleepInOrder(d time.Duration) {
	if inBubble() {
		time.Sleep(d)
		return
	}
	mu.Lock()
	w := rec
	var s *sleeper
	if w != nil && rp == nil {
		if g := w.known(); g != nil {
			s = w.addSleeper(g, now()+int64(d))
		}
	}
	mu.Unlock()
	time.Sleep(d)
	if s == nil {
		return
	}
	if sleepWoke != nil {
		sleepWoke(s.g.name)
	}
	mu.Lock()
	s.woke, s.pauses = now(), s.g.pauses
	mu.Unlock()
	// Each sleeper waited for is done by wakeWait after the first wait
	// for it, so this bounds only a wait for several in turn.
	limit := time.Now().Add(4 * wakeWait)
	for {
		mu.Lock()
		first := rec != w || w.firstDue(s)
		mu.Unlock()
		if first || time.Now().After(limit) {
			return
		}
		yieldFor(waitRound)
	}
}

// sleepWoke, if set (tests), is called as a sleeper's timer has fired,
// before it counts as woken: a thread the machine ran late.
var sleepWoke func(name string)

// addSleeper enters g's sleep until deadline in w's heap (mu held). The
// sleep is a pause of g, and ends its previous sleep's entry.
func (w *recorder) addSleeper(g *Goroutine, deadline int64) *sleeper {
	g.pauses++
	for t := now(); len(w.sleepers) > 0 && w.sleepers[0].done(t); {
		minheap.Pop(&w.sleepers)
	}
	if old := g.sleep; old != nil && old.idx >= 0 && old.idx < len(w.sleepers) && w.sleepers[old.idx] == old {
		minheap.Remove(&w.sleepers, old.idx)
	}
	s := &sleeper{g: g, deadline: deadline}
	g.sleep = s
	minheap.Push(&w.sleepers, s)
	return s
}

// firstDue reports whether no sleeper due before s is still to be waited
// for (mu held), dropping those that are done.
func (w *recorder) firstDue(s *sleeper) bool {
	t := now()
	for len(w.sleepers) > 0 {
		top := w.sleepers[0]
		if top == s || top.deadline >= s.deadline {
			return true
		}
		if top.waited == 0 {
			top.waited = t
		}
		if !top.done(t) {
			return false
		}
		minheap.Pop(&w.sleepers)
	}
	return true
}

// A select that waits on a timer's channel (time.After, time.NewTimer)
// is a sleeper too, due when its earliest timer is: the corpus's
// lockstop polls on a 4 ms time.After while its test sleeps 10 ms and
// then stops it; under load the test's sleep ended before the loop had
// taken its 8 ms tick, Stop came while the tick was ready, and the
// recording hung (4 of 20 runs under four busy loops) instead of showing
// the order the timing asks for. Such a select is waited for until its
// goroutine's next pause after it (the select's own pause counted), or
// wakeWait after the later of its timer's deadline and the first wait
// for it.

// noteTimerChan notes, recording, that channel c receives when a timer
// falls due after d (mu held). Entries are dropped once well past due,
// and past maxTimerDue timers not yet due (a loop's long time.After in a
// select that another case wins) new ones are not noted.
func noteTimerChan(c <-chan time.Time, d time.Duration) {
	w := rec
	if w == nil || rp != nil || c == nil || inBubble() {
		return
	}
	t := now()
	if w.timerDue == nil {
		w.timerDue = map[uintptr]int64{}
	}
	if n := len(w.timerDue); n >= 64 && n&(n-1) == 0 {
		for k, due := range w.timerDue {
			if t-due > int64(wakeWait) {
				delete(w.timerDue, k)
			}
		}
	}
	if len(w.timerDue) < maxTimerDue {
		w.timerDue[uintptr(chanOfAny(c))] = t + int64(d)
	}
}

const maxTimerDue = 1 << 14

// forgetTimerChan drops c's timer (a Stop: it will not fire; mu held).
func forgetTimerChan(c <-chan time.Time) {
	if w := rec; w != nil && w.timerDue != nil && c != nil {
		delete(w.timerDue, uintptr(chanOfAny(c)))
	}
}

// selectTimer enters g's select on cases as a sleeper due at its
// earliest timer, if it has one (recording, mu held).
func (w *recorder) selectTimer(g *Goroutine, cases []SelCase) {
	if g == nil || len(w.timerDue) == 0 {
		return
	}
	due := int64(0)
	for i := range cases {
		if cases[i].Send {
			continue
		}
		if p := chanOfAny(cases[i].Ch); p != nil {
			if t, ok := w.timerDue[uintptr(p)]; ok && (due == 0 || t < due) {
				due = t
			}
		}
	}
	if due == 0 || now()-due > int64(wakeWait) || inBubble() {
		return
	}
	s := w.addSleeper(g, due)
	s.timer, s.pauses = true, g.pauses
}
