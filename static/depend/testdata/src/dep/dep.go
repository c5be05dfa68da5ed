// Package dep holds the shapes static/depend's tests ask about.
package dep

import (
	"errors"
	"math"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"
)

// Ledger's Withdraw checks in one call and debits in another.
type Ledger struct {
	mu      sync.Mutex
	balance int
}

func (l *Ledger) Balance() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.balance
}

func (l *Ledger) debit(n int) {
	l.mu.Lock()
	l.balance -= n
	l.mu.Unlock()
}

func (l *Ledger) Withdraw(n int) bool {
	if l.Balance() < n {
		return false
	}
	l.debit(n)
	return true
}

// Split is a read-modify-write across two critical sections of one call.
func (l *Ledger) Split(n int) {
	l.mu.Lock()
	b := l.balance
	l.mu.Unlock()
	l.mu.Lock()
	l.balance = b + n
	l.mu.Unlock()
}

// Cache counts its gets under the lock.
type Cache struct {
	mu   sync.Mutex
	m    map[string]int
	nget int
	lmu  sync.Mutex // the loader's
	p    map[string]*int
}

func (c *Cache) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nget++
	return c.m[k]
}

func (c *Cache) GetTwo(a, b string) int {
	return c.get(a) + c.get(b)
}

func (c *Cache) Touch(a, b string) {
	c.get(a)
	c.get(b)
}

func (c *Cache) load(k string) (int, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	v, ok := c.m[k]
	return v, ok
}

func (c *Cache) store(k string, v int) {
	c.mu.Lock()
	c.m[k] = v
	c.mu.Unlock()
}

func (c *Cache) GetOrCreate(k string) int {
	if v, ok := c.load(k); ok {
		return v
	}
	c.store(k, 1)
	return 1
}

// Breaker counts requests before and failures after.
type Breaker struct {
	mu       sync.Mutex
	requests int
	failures int
	open     bool
}

func (cb *Breaker) before() {
	cb.mu.Lock()
	cb.requests++
	cb.mu.Unlock()
}

func (cb *Breaker) after(err error) {
	cb.mu.Lock()
	if err != nil {
		cb.failures++
		if cb.failures > cb.requests/2 {
			cb.open = true
		}
	}
	cb.mu.Unlock()
}

func (cb *Breaker) Do(f func() error) error {
	cb.before()
	err := f()
	cb.after(err)
	return err
}

// Slot writes then reads back.
type Slot struct {
	mu sync.Mutex
	v  int
}

func (s *Slot) Put(v int) int {
	s.mu.Lock()
	s.v = v
	s.mu.Unlock()
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.v
}

func (s *Slot) Get() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	got := s.v
	return got
}

func (s *Slot) Peek() {
	s.mu.Lock()
	_ = s.v
	s.mu.Unlock()
}

// Drain returns the requests counted and resets the count, in two
// critical sections: a request counted in between is lost.
func (cb *Breaker) Drain() int {
	cb.mu.Lock()
	n := cb.requests
	cb.mu.Unlock()
	cb.mu.Lock()
	cb.requests = 0
	cb.mu.Unlock()
	return n
}

// Sweep deletes the expired keys, unlocking for each callback: the next
// iteration reads the map again for its key.
func (c *Cache) Sweep(now int, evict func(string)) {
	c.mu.Lock()
	for k, v := range c.m {
		if v < now {
			delete(c.m, k)
			c.mu.Unlock()
			evict(k)
			c.mu.Lock()
		}
	}
	c.mu.Unlock()
}

// Load looks k up and, on a miss, looks it up again under the loader's
// lock before it stores: the double-checked idiom.
func (c *Cache) Load(k string) int {
	if v, ok := c.load(k); ok {
		return v
	}
	c.lmu.Lock()
	defer c.lmu.Unlock()
	if v, ok := c.load(k); ok {
		return v
	}
	c.store(k, 1)
	return 1
}

// Deref checks that k's pointer is set, then dereferences it in another
// critical section, untested.
func (c *Cache) Deref(k string) int {
	c.mu.Lock()
	ok := c.p[k] != nil
	c.mu.Unlock()
	if !ok {
		return 0
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return *c.p[k]
}

// Drop clears k's pointer.
func (c *Cache) Drop(k string) {
	c.mu.Lock()
	c.p[k] = nil
	c.mu.Unlock()
}

// Gauge's Raise is a CAS loop: it loads the value, computes, and swaps
// only if the value is still what it loaded, else it loads again.
type Gauge struct {
	v   atomic.Int64
	raw int64
}

func (g *Gauge) Raise(n int64) {
	for {
		old := g.v.Load()
		if old >= n {
			return
		}
		if g.v.CompareAndSwap(old, n) {
			return
		}
	}
}

// RaiseRaw is Raise on a plain int64 with the package functions.
func (g *Gauge) RaiseRaw(n int64) {
	for {
		old := atomic.LoadInt64(&g.raw)
		if old >= n {
			return
		}
		if atomic.CompareAndSwapInt64(&g.raw, old, n) {
			return
		}
	}
}

// RaiseBlind loads and then stores: another Raise in between is lost.
func (g *Gauge) RaiseBlind(n int64) {
	if old := atomic.LoadInt64(&g.raw); old < n {
		atomic.StoreInt64(&g.raw, n)
	}
}

// Flight is singleflight's Group: Do publishes the pending call and
// unlocks so that duplicate callers find it and wait for its result.
type Flight struct {
	mu sync.Mutex
	m  map[string]*flightCall
}

type flightCall struct {
	wg   sync.WaitGroup
	val  int
	dups int
}

func (g *Flight) Do(key string, fn func() int) (int, bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[string]*flightCall)
	}
	if c, ok := g.m[key]; ok {
		c.dups++
		g.mu.Unlock()
		c.wg.Wait()
		return c.val, true
	}
	c := new(flightCall)
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	g.doCall(c, key, fn)
	return c.val, c.dups > 0
}

func (g *Flight) doCall(c *flightCall, key string, fn func() int) {
	c.val = fn()
	g.mu.Lock()
	c.wg.Done()
	if g.m[key] == c {
		delete(g.m, key)
	}
	g.mu.Unlock()
}

// Peek returns the pending call's value without waiting for it to be set.
func (g *Flight) Peek(key string) int {
	g.mu.Lock()
	defer g.mu.Unlock()
	if p, ok := g.m[key]; ok {
		return p.val
	}
	return 0
}

// Hold publishes a placeholder call that it never completes: whoever
// waits on it waits for nothing Hold releases.
func (g *Flight) Hold(key string, fn func()) {
	g.mu.Lock()
	g.m[key] = new(flightCall)
	g.mu.Unlock()
	fn()
	g.mu.Lock()
	delete(g.m, key) // the placeholder gone
	g.mu.Unlock()
}

// stack is a pool's worker queue, called through an interface as ants'
// workerQueue is.
type stack interface{ refresh() int }

type wstack struct{ items []int }

func (s *wstack) refresh() int {
	n := len(s.items)
	if n > 0 {
		s.items = s.items[:0]
	}
	return n
}

func (s *wstack) reset() { s.items = nil }

// Pool's purger stops once the pool is closed; it returns nothing.
type Pool struct {
	state   int32
	workers stack
	ws      *wstack
}

func (p *Pool) Purge() {
	if atomic.LoadInt32(&p.state) == 1 {
		return
	}
	if p.workers.refresh() > 0 {
		p.Purge()
	}
}

func (p *Pool) Close() {
	atomic.StoreInt32(&p.state, 1)
	p.ws.reset()
}

func newPool() *Pool {
	ws := &wstack{}
	return &Pool{workers: ws, ws: ws}
}

// Fetch is cache-aside: it looks k up under the lock and, on a miss,
// loads the value outside it and stores it (cache2go's Value).
func (c *Cache) Fetch(k string, load func() int) int {
	c.mu.Lock()
	v, ok := c.m[k] // fetch
	c.mu.Unlock()
	if ok {
		return v
	}
	v = load()
	c.store(k, v)
	return v
}

// Expire deletes k, as an expiry timer does.
func (c *Cache) Expire(k string) {
	c.mu.Lock()
	delete(c.m, k) // expired
	c.mu.Unlock()
}

// Bump stores k again if its lookup hit: a delete in between is undone.
func (c *Cache) Bump(k string) {
	c.mu.Lock()
	_, ok := c.m[k] // bump
	c.mu.Unlock()
	if ok {
		c.store(k, 2)
	}
}

// Claim is gcache's singleflight: it claims the key with its pending
// call under the lock, and run deletes the key, unguarded, when done.
func (g *Flight) Claim(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok { // claim
		g.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(flightCall)
	c.wg.Add(1)
	g.m[key] = c // claimed
	g.mu.Unlock()
	return g.run(c, key, fn)
}

func (g *Flight) run(c *flightCall, key string, fn func() int) int {
	c.val = fn()
	c.wg.Done()
	g.mu.Lock()
	delete(g.m, key) // run done
	g.mu.Unlock()
	return c.val
}

// Late inserts its call only after unlocking: another caller can miss
// too and insert in between, so its miss claims nothing.
func (g *Flight) Late(key string, fn func() int) int {
	g.mu.Lock()
	if c, ok := g.m[key]; ok { // late
		g.mu.Unlock()
		return c.val
	}
	g.mu.Unlock()
	c := new(flightCall)
	c.wg.Add(1)
	g.mu.Lock()
	g.m[key] = c
	g.mu.Unlock()
	return g.run(c, key, fn)
}

// Expiry deletes each expired key through drop, which looks the key up
// again and deletes it after unlocking for its callback (cache2go's
// expirationCheck and deleteInternal).
func (c *Cache) Expiry(now int, evict func(int)) {
	c.mu.Lock()
	for k, v := range c.m {
		if v < now {
			c.drop(k, evict)
		}
	}
	c.mu.Unlock()
}

func (c *Cache) drop(k string, evict func(int)) {
	v, ok := c.m[k] // drop
	if !ok {
		return
	}
	c.mu.Unlock()
	evict(v)
	c.mu.Lock()
	delete(c.m, k) // dropped
}

// Twice zeroes each key, then reads it back through another call in the
// same iteration: the same key.
func (c *Cache) Twice() int {
	n := 0
	for k := range c.m {
		c.zero(k)
		n += c.peek(k)
	}
	return n
}

func (c *Cache) zero(k string) { c.m[k] = 0 }

func (c *Cache) peek(k string) int {
	if c.m[k] > 0 { // peek
		return 1
	}
	return 0
}

// Table's Lookup re-validates under the lock what its lock-free fast
// path found: the locked re-read of meta, not the first, decides.
type Table struct {
	mu   sync.Mutex
	meta uint64
	val  int64
}

func (t *Table) Lookup() int64 {
	if atomic.LoadUint64(&t.meta)&1 != 0 { // fast
		return atomic.LoadInt64(&t.val)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.meta&1 != 0 { // locked
		return t.val // re-validated
	}
	return -1
}

// Blind acts under the lock on its unlocked check: the re-read of meta
// is returned, not tested.
func (t *Table) Blind() (int64, uint64) {
	if atomic.LoadUint64(&t.meta)&1 != 0 { // blind
		return 0, 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.val, t.meta // blind
}

func (t *Table) Publish(v int64) {
	t.mu.Lock()
	t.val = v
	atomic.StoreUint64(&t.meta, 1)
	t.mu.Unlock()
}

// Bounded bumps n under the lock after an unlocked bound check; the
// locked re-read of n only flows into the write.
type Bounded struct {
	mu  sync.Mutex
	n   int64
	max int64
}

func (c *Bounded) Inc() {
	if atomic.LoadInt64(&c.n) < c.max {
		c.mu.Lock()
		c.n = c.n + 1 // bump
		c.mu.Unlock()
	}
}

// IncStale re-checks n under the lock but writes back the value it loaded
// before: the re-check decides, the stale value is still written.
func (c *Bounded) IncStale() {
	if v := atomic.LoadInt64(&c.n); v < c.max {
		c.mu.Lock()
		if c.n < c.max {
			c.n = v + 1 // stale
		}
		c.mu.Unlock()
	}
}

// IncChecked re-checks n under the lock and bumps the fresh value.
func (c *Bounded) IncChecked() {
	if atomic.LoadInt64(&c.n) < c.max {
		c.mu.Lock()
		if c.n < c.max {
			c.n = c.n + 1 // checked
		}
		c.mu.Unlock()
	}
}

// Marked is a Table whose fast path and locked re-check both go through
// one plain helper: the helper's body is shared, not a flow from the
// first read to the second.
type Marked struct {
	mu   sync.Mutex
	meta uint64
	vals [2]int64
}

func mark(w uint64) uint64 { return w & 1 }

func (t *Marked) Lookup() int64 {
	if mark(atomic.LoadUint64(&t.meta)) != 0 { // marked fast
		return 0
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if m := mark(t.meta); m != 0 {
		return t.vals[m] // marked
	}
	return -1
}

func (t *Marked) Publish(v int64) {
	t.mu.Lock()
	t.vals[1] = v
	atomic.StoreUint64(&t.meta, 1)
	t.mu.Unlock()
}

// Size reads the whole map: between two keys' deletes it sees a count
// that neither order of the deletes and the read gives.
func (c *Cache) Size() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	if n := len(c.m); n > 0 { // size
		return n
	}
	return 0
}

// Ticket is go-commons-pool's AtomicInteger.GetAndIncrement: a load, then
// an atomic add, the loaded value returned as the one the add replaced.
type Ticket struct{ n int32 }

func (t *Ticket) Next() int32 {
	ret := atomic.LoadInt32(&t.n)
	atomic.AddInt32(&t.n, 1)
	return ret
}

// Drain is Caffeine's drain status (otter's cache): Run publishes
// processing, works, and closes with a CAS from processing to idle,
// which fails when a writer moved the status to required meanwhile; it
// then reads the status back to see whether to run again.
type Drain struct {
	status atomic.Int32
	runs   int
}

const (
	drainIdle = iota
	drainRequired
	drainProcessing
)

func (d *Drain) Run() bool {
	d.status.Store(drainProcessing) // run publishes
	d.runs++
	if !d.status.CompareAndSwap(drainProcessing, drainIdle) {
		d.status.Store(drainRequired)
	}
	return d.again()
}

func (d *Drain) again() bool { return d.status.Load() == drainRequired }

// RunBlind closes with a plain store: a writer's request between is
// overwritten, and a reader saw processing for nothing.
func (d *Drain) RunBlind() {
	d.status.Store(drainProcessing) // blind publishes
	d.runs++
	d.status.Store(drainIdle)
}

// RunFrom closes with a CAS whose expected value is not the one it
// stored: it does not validate the state it published.
func (d *Drain) RunFrom() {
	d.status.Store(drainProcessing) // from
	d.runs++
	d.status.CompareAndSwap(drainRequired, drainIdle)
}

// RunStatus returns the status it reads back as its own.
func (d *Drain) RunStatus() int32 {
	d.status.Store(drainProcessing) // status
	d.runs++
	return d.status.Load() // as its own
}

// Busy is another goroutine's read of the status.
func (d *Drain) Busy() bool { return d.status.Load() >= drainProcessing }

// Require is another goroutine's request for a drain.
func (d *Drain) Require() { d.status.Store(drainRequired) }

// Request asks for a drain, then schedules one: schedule loads the
// status again and claims it only if no drain runs.
func (d *Drain) Request() {
	d.status.CompareAndSwap(drainIdle, drainRequired) // request
	d.schedule()
}

func (d *Drain) schedule() {
	if d.status.Load() >= drainProcessing {
		return
	}
	d.status.Store(drainProcessing) // schedule
}

// RequestBlind claims the drain without looking again.
func (d *Drain) RequestBlind() {
	d.status.CompareAndSwap(drainIdle, drainRequired) // blind request
	d.claim()
}

func (d *Drain) claim() { d.status.Store(drainProcessing) }

// Resizer marks a resize by making its index odd (JCTools' growable
// queue, otter's MPSC); producers spin while it is.
type Resizer struct {
	idx  atomic.Uint64
	seen uint64
}

// Grow CASes an even index to odd (the resize bit), then stores the
// next even one.
func (r *Resizer) Grow() {
	for {
		i := r.idx.Load() // grow load
		if i&1 == 1 {
			continue
		}
		if r.grow(i) {
			return
		}
	}
}

func (r *Resizer) grow(i uint64) bool {
	if !r.idx.CompareAndSwap(i, i+1) { // resize bit
		return false
	}
	r.idx.Store(i + 2) // resized
	return true
}

// Next waits out a resize, then claims the next slot.
func (r *Resizer) Next() uint64 {
	for {
		i := r.idx.Load() // next load
		if i&1 == 1 {
			continue
		}
		if r.idx.CompareAndSwap(i, i+2) {
			return i
		}
	}
}

// NextSeen records the index before it tests it: the odd one too.
func (r *Resizer) NextSeen() uint64 {
	for {
		i := r.idx.Load() // seen load
		r.seen = i
		if i&1 == 1 {
			continue
		}
		if r.idx.CompareAndSwap(i, i+2) {
			return i
		}
	}
}

// NextLow tests another bit than the resize bit: an odd index passes.
func (r *Resizer) NextLow() uint64 {
	for {
		i := r.idx.Load() // low load
		if i&2 == 2 {
			continue
		}
		if r.idx.CompareAndSwap(i, i+2) {
			return i
		}
	}
}

// Ring's consumer tells an empty ring by comparing its index, always
// even, with the producer index, which a resize marks odd (otter's
// MPSC.TryPop).
type Ring struct {
	prod atomic.Uint64
	cons atomic.Uint64
	odd  atomic.Uint64
}

// Resize marks the producer index odd, then stores the next even one.
func (r *Ring) Resize() {
	for {
		i := r.prod.Load()
		if i&1 == 1 {
			continue
		}
		if r.resize(i) {
			return
		}
	}
}

func (r *Ring) resize(i uint64) bool {
	if !r.prod.CompareAndSwap(i, i+1) { // ring bit
		return false
	}
	r.prod.Store(i + 2) // ring resized
	return true
}

// Mark marks the producer index odd, then restores it: the value before
// and after are one.
func (r *Ring) Mark() {
	for {
		i := r.prod.Load()
		if i&1 == 1 {
			continue
		}
		if r.mark(i) {
			return
		}
	}
}

func (r *Ring) mark(i uint64) bool {
	if !r.prod.CompareAndSwap(i, i+1) { // ring mark
		return false
	}
	r.prod.Store(i) // ring unmarked
	return true
}

// Pop takes a slot unless the ring is empty.
func (r *Ring) Pop() bool {
	c := r.cons.Load()
	if c == r.prod.Load() { // ring pop load
		return false
	}
	r.cons.Store(c + 2)
	return true
}

// PopOdd compares with a field that may hold an odd value.
func (r *Ring) PopOdd() bool {
	c := r.odd.Load()
	if c == r.prod.Load() { // ring odd load
		return false
	}
	r.odd.Store(c + 1)
	return true
}

// Peek returns the producer index.
func (r *Ring) Peek() uint64 {
	return r.prod.Load() // ring peek load
}

// Conns is redigo's pool: Get finds no idle connection and checks closed
// under one lock, dials, and on failure tests closed afresh under the
// lock before giving its slot back.
type Conns struct {
	mu     sync.Mutex
	idle   []int
	closed bool
	active int
	freed  int
}

func (p *Conns) Get(dial func() error) error {
	p.mu.Lock()
	if len(p.idle) > 0 { // idle check
		p.idle = p.idle[1:]
		p.mu.Unlock()
		return nil
	}
	if p.closed { // closed check
		p.mu.Unlock()
		return nil
	}
	p.active++
	p.mu.Unlock()
	if err := dial(); err != nil {
		p.mu.Lock()
		p.active--
		if !p.closed { // closed re-check
			p.freed++
		}
		p.mu.Unlock()
		return err
	}
	return nil
}

func (p *Conns) Close() {
	p.mu.Lock()
	p.closed = true // close
	p.idle = nil    // drop idle
	p.mu.Unlock()
}

// Busy reads the count of slots taken, Get's reservations included.
func (p *Conns) Busy() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.active >= 2 // busy
}

// Root is ctrie's RDCSS root: Install CASes a descriptor in, then
// complete loads the root afresh each round and CASes against what it
// loaded, loading again when the CAS fails; any goroutine that meets
// the descriptor completes it (a helping protocol).
type Root struct{ p unsafe.Pointer }

type rnode struct{ desc *rnode }

func (r *Root) cas(ov, nv *rnode) bool {
	return atomic.CompareAndSwapPointer(&r.p, unsafe.Pointer(ov), unsafe.Pointer(nv)) // root cas
}

func (r *Root) Install(old, nv *rnode) bool {
	if r.cas(old, &rnode{desc: nv}) {
		r.complete()
		return true
	}
	return false
}

func (r *Root) complete() *rnode {
	for {
		n := (*rnode)(atomic.LoadPointer(&r.p)) // retry load
		if n.desc == nil {
			return n
		}
		if r.cas(n, n.desc) {
			return n.desc
		}
	}
}

// InstallOnce completes without a retry: a failed CAS gives the loaded
// root back as the result.
func (r *Root) InstallOnce(old, nv *rnode) *rnode {
	if !r.cas(old, &rnode{desc: nv}) {
		return nil
	}
	return r.completeOnce()
}

func (r *Root) completeOnce() *rnode {
	n := (*rnode)(atomic.LoadPointer(&r.p)) // once load
	if n.desc == nil {
		return n
	}
	if r.cas(n, n.desc) {
		return n.desc
	}
	return n
}

// Swap installs nv over the root it loads, again while the install
// fails (ctrie's snapshot); SwapOnce likewise through InstallOnce.
func (r *Root) Swap(nv *rnode) {
	for {
		if r.Install((*rnode)(atomic.LoadPointer(&r.p)), nv) {
			return
		}
	}
}

func (r *Root) SwapOnce(nv *rnode) {
	for {
		if r.InstallOnce((*rnode)(atomic.LoadPointer(&r.p)), nv) != nil {
			return
		}
	}
}

// Runner is palm's runner flag: Reset releases it and runs again, taking
// the flag back by a CAS from 0 only if no other runner took it
// meanwhile (that runner drains the queue then).
type Runner struct {
	running uint64
	prev    uint64
	runs    int
}

func (r *Runner) Reset() {
	atomic.StoreUint64(&r.running, 0) // runner release
	r.run()
}

func (r *Runner) run() {
	if atomic.CompareAndSwapUint64(&r.running, 0, 1) { // runner take
		r.runs++
	}
}

// ResetFrom takes the flag back by a CAS from the value it finds in
// prev, not a constant: the value compared is not one the unit knows.
func (r *Runner) ResetFrom() {
	atomic.StoreUint64(&r.running, 0)                       // runner release from
	if atomic.CompareAndSwapUint64(&r.running, r.prev, 1) { // runner take from
		r.runs++
	}
}

// Loader is gcache's Group over its cache: Load makes its map of pending
// loads on first use, under its lock, and a miss stores the loaded value
// into the cache, whose size it checks first.
type Loader struct {
	mu    sync.Mutex
	m     map[string]*flightCall
	cmu   sync.Mutex
	items map[string]int
	size  int
}

func (l *Loader) Load(key string) int {
	l.mu.Lock()
	if l.m == nil {
		l.m = make(map[string]*flightCall) // lazy
	}
	if c, ok := l.m[key]; ok { // pending
		l.mu.Unlock()
		c.wg.Wait()
		return c.val
	}
	c := new(flightCall)
	c.wg.Add(1)
	l.m[key] = c
	l.mu.Unlock()
	c.val = l.store(key)
	c.wg.Done()
	return c.val
}

func (l *Loader) store(key string) int {
	l.cmu.Lock()
	defer l.cmu.Unlock()
	if len(l.items) >= l.size { // full
		return 0
	}
	l.items[key] = 1 // stored
	return 1
}

// LoadSeeded makes the map with an entry in it: a reader that finds the
// map sees the entry, which it would miss in nil.
func (l *Loader) LoadSeeded(key string) int {
	l.mu.Lock()
	if l.m == nil {
		l.m = map[string]*flightCall{"": new(flightCall)} // seeded
	}
	l.mu.Unlock()
	return l.store(key)
}

// LoadLate checks for nil under the lock, unlocks, and makes the map
// under the lock again: another goroutine may have made one between.
func (l *Loader) LoadLate(key string) int {
	l.mu.Lock()
	empty := l.m == nil
	l.mu.Unlock()
	if empty {
		l.mu.Lock()
		l.m = make(map[string]*flightCall) // late
		l.mu.Unlock()
	}
	return l.store(key)
}

// LoadBare makes the map without the lock.
func (l *Loader) LoadBare(key string) int {
	if l.m == nil {
		l.m = make(map[string]*flightCall) // bare
	}
	return l.store(key)
}

// LoadShared makes the map under a read lock, which other readers share.
func (l *Loader) LoadShared(key string, rw *sync.RWMutex) int {
	rw.RLock()
	if l.m == nil {
		l.m = make(map[string]*flightCall) // shared
	}
	rw.RUnlock()
	return l.store(key)
}

// LoadUnder makes the map under a mutex it is given, which other callers
// need not pass.
func (l *Loader) LoadUnder(key string, mu *sync.Mutex) int {
	mu.Lock()
	if l.m == nil {
		l.m = make(map[string]*flightCall) // under
	}
	mu.Unlock()
	return l.store(key)
}

// Count tells a made map from nil: it counts the cache only once the
// loader has been used.
func (l *Loader) Count() int {
	l.mu.Lock()
	ready := l.m != nil // ready
	l.mu.Unlock()
	if ready {
		return l.count()
	}
	return -1
}

func (l *Loader) count() int {
	l.cmu.Lock()
	defer l.cmu.Unlock()
	return len(l.items) // count
}

// Trie is ctrie's snapshot loop over its RDCSS root, two calls deep on
// each side: readRoot → readRootP loads the root (completing a
// descriptor it meets), rdcss → casRoot CASes it from the value loaded,
// and a failed CAS makes rdcss return false and Snapshot load again.
type Trie struct {
	root      unsafe.Pointer
	committed int32
	prev      *tnode
}

type tnode struct{ desc, old, nv *tnode }

func (t *Trie) casRoot(ov, nv *tnode) bool {
	return atomic.CompareAndSwapPointer(&t.root, unsafe.Pointer(ov), unsafe.Pointer(nv)) // trie cas
}

func (t *Trie) readRoot() *tnode { return t.readRootP(false) }

func (t *Trie) readRootP(abort bool) *tnode {
	n := (*tnode)(atomic.LoadPointer(&t.root)) // trie load
	if n.desc != nil {
		return t.completeRoot(abort)
	}
	return n
}

func (t *Trie) completeRoot(abort bool) *tnode {
	for {
		n := (*tnode)(atomic.LoadPointer(&t.root)) // trie complete load
		if n.desc == nil {
			return n
		}
		ov, nv := n.desc.old, n.desc.nv
		if abort {
			if t.casRoot(n, ov) {
				return ov
			}
			continue
		}
		if t.casRoot(n, nv) {
			return nv
		}
	}
}

func (t *Trie) rdcss(old, nv *tnode) bool {
	d := &tnode{desc: &tnode{old: old, nv: nv}}
	if t.casRoot(old, d) {
		t.completeRoot(false)
		return atomic.LoadInt32(&t.committed) == 1
	}
	return false
}

// rdcssLoose reports success whether its CAS swapped or not.
func (t *Trie) rdcssLoose(old, nv *tnode) bool {
	if t.casRoot(old, &tnode{desc: &tnode{old: old, nv: nv}}) {
		t.completeRoot(false)
	}
	return true
}

func (t *Trie) Snapshot() *tnode {
	for {
		root := t.readRoot()
		if t.rdcss(root, &tnode{old: root}) {
			return t.readRoot()
		}
	}
}

// rdcssHelp completes a descriptor, with a retry loop, when its own CAS
// failed: nothing of the value it was given is validated then.
func (t *Trie) rdcssHelp(old, nv *tnode) bool {
	if !t.casRoot(old, &tnode{desc: &tnode{old: old, nv: nv}}) {
		t.completeRoot(false)
		return false
	}
	return true
}

// SnapshotHelp retries through rdcssHelp.
func (t *Trie) SnapshotHelp() *tnode {
	for {
		root := t.readRoot()
		if t.rdcssHelp(root, &tnode{old: root}) {
			return root
		}
	}
}

// SnapshotOnce gives up when its CAS fails.
func (t *Trie) SnapshotOnce() *tnode {
	root := t.readRoot()
	if !t.rdcss(root, &tnode{old: root}) {
		return nil
	}
	return root
}

// SnapshotLoose retries while rdcssLoose fails, which it never says.
func (t *Trie) SnapshotLoose() *tnode {
	for {
		root := t.readRoot()
		if t.rdcssLoose(root, &tnode{old: root}) {
			return root
		}
	}
}

// SnapshotPrev decides on the root it loads, then CASes from another.
func (t *Trie) SnapshotPrev() *tnode {
	for {
		root := t.readRoot()
		if root.old == nil && t.rdcss(t.prev, &tnode{old: root}) {
			return root
		}
	}
}

// Future is go-datastructures' Selectable: Get's fast path loads filled
// lock-free, its slow path waits on the channel wchan hands out under
// f.m (making one when nil); Fill sets filled, stores the package's
// closed channel into wait and closes the one it replaces, under f.m.
type Future struct {
	m      sync.Mutex
	val    int
	wait   chan struct{}
	filled uint32
}

func (f *Future) wchan() <-chan struct{} {
	f.m.Lock()
	if f.wait == nil { // Future lazy
		f.wait = make(chan struct{})
	}
	ch := f.wait
	f.m.Unlock()
	return ch
}

func (f *Future) Get() int {
	if atomic.LoadUint32(&f.filled) == 0 { // Future fast
		<-f.wchan()
	}
	return f.val
}

func (f *Future) Fill(v int) {
	f.m.Lock()
	if f.filled == 0 {
		f.val = v
		atomic.StoreUint32(&f.filled, 1) // Future filled
		w := f.wait
		f.wait = closedCh // Future final
		if w != nil {
			close(w)
		}
	}
	f.m.Unlock()
}

// Offer is a slow path that sends on the channel instead of waiting.
func (f *Future) Offer() {
	if atomic.LoadUint32(&f.filled) == 0 { // Future offer
		f.offerChan() <- struct{}{}
	}
}

func (f *Future) offerChan() chan struct{} {
	f.m.Lock()
	if f.wait == nil { // Future offer lazy
		f.wait = make(chan struct{})
	}
	ch := f.wait
	f.m.Unlock()
	return ch
}

var closedCh = make(chan struct{})

func init() {
	close(closedCh)
}

var openCh = make(chan struct{})

// FreshFuture's Fill stores a fresh channel, never closed.
type FreshFuture struct {
	m      sync.Mutex
	val    int
	wait   chan struct{}
	filled uint32
}

func (f *FreshFuture) wchan() <-chan struct{} {
	f.m.Lock()
	if f.wait == nil { // FreshFuture lazy
		f.wait = make(chan struct{})
	}
	ch := f.wait
	f.m.Unlock()
	return ch
}

func (f *FreshFuture) Get() int {
	if atomic.LoadUint32(&f.filled) == 0 { // FreshFuture fast
		<-f.wchan()
	}
	return f.val
}

func (f *FreshFuture) Fill(v int) {
	f.m.Lock()
	if f.filled == 0 {
		f.val = v
		atomic.StoreUint32(&f.filled, 1) // FreshFuture filled
		w := f.wait
		f.wait = make(chan struct{}) // FreshFuture final
		if w != nil {
			close(w)
		}
	}
	f.m.Unlock()
}

// OpenFuture's Fill stores a package channel nobody closes.
type OpenFuture struct {
	m      sync.Mutex
	val    int
	wait   chan struct{}
	filled uint32
}

func (f *OpenFuture) wchan() <-chan struct{} {
	f.m.Lock()
	if f.wait == nil { // OpenFuture lazy
		f.wait = make(chan struct{})
	}
	ch := f.wait
	f.m.Unlock()
	return ch
}

func (f *OpenFuture) Get() int {
	if atomic.LoadUint32(&f.filled) == 0 { // OpenFuture fast
		<-f.wchan()
	}
	return f.val
}

func (f *OpenFuture) Fill(v int) {
	f.m.Lock()
	if f.filled == 0 {
		f.val = v
		atomic.StoreUint32(&f.filled, 1) // OpenFuture filled
		w := f.wait
		f.wait = openCh // OpenFuture final
		if w != nil {
			close(w)
		}
	}
	f.m.Unlock()
}

// LeakFuture's Fill does not close the channel it replaces.
type LeakFuture struct {
	m      sync.Mutex
	val    int
	wait   chan struct{}
	filled uint32
}

func (f *LeakFuture) wchan() <-chan struct{} {
	f.m.Lock()
	if f.wait == nil { // LeakFuture lazy
		f.wait = make(chan struct{})
	}
	ch := f.wait
	f.m.Unlock()
	return ch
}

func (f *LeakFuture) Get() int {
	if atomic.LoadUint32(&f.filled) == 0 { // LeakFuture fast
		<-f.wchan()
	}
	return f.val
}

func (f *LeakFuture) Fill(v int) {
	f.m.Lock()
	if f.filled == 0 {
		f.val = v
		atomic.StoreUint32(&f.filled, 1) // LeakFuture filled
		f.wait = closedCh                // LeakFuture final
	}
	f.m.Unlock()
}

// Trigger fires once when armed: the check and the disarming store are
// in two critical sections. Two callers can both see armed and both
// fire, although each stores the same constant false: the two stores
// commute, but each caller decided on the value before the other's
// store, and no serial order lets both see true.
type Trigger struct {
	mu    sync.Mutex
	armed bool
	fired int
}

func (g *Trigger) Fire() {
	g.mu.Lock()
	armed := g.armed // trigger check
	g.mu.Unlock()
	if !armed {
		return
	}
	g.mu.Lock()
	g.armed = false // trigger disarm
	g.fired++
	g.mu.Unlock()
}

// Seq hands out numbers: Next counts, then reads the count back in a
// second critical section (or a second atomic operation) to return it.
// The increments commute, but two callers that both add before either
// reads back get the same number.
type Seq struct {
	mu sync.Mutex
	n  int
	a  atomic.Int64
}

func (s *Seq) bump() {
	s.mu.Lock()
	s.n++ // seq bump
	s.mu.Unlock()
}

func (s *Seq) cur() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n // seq cur
}

func (s *Seq) Next() int {
	s.bump()
	return s.cur()
}

func (s *Seq) NextAtomic() int64 {
	s.a.Add(1)        // seq add
	return s.a.Load() // seq load
}

// FirstFailure starts recovery on the first failure only: its read-back
// is merely compared with a constant, yet two failures added before
// either reads back both see 2, and recovery never starts.
func (s *Seq) FirstFailure() bool {
	s.a.Add(1)           // first add
	if s.a.Load() == 1 { // first load
		return true
	}
	return false
}

// Teller's Drain debits round after round until the balance runs low:
// the check at the end of one round (take's second critical section)
// decides, through the loop's back edge, the next round's debit, which
// a fresh test of another field (closed) guards under the lock, with a
// constant operand. A debit by another goroutine between the check and
// the next round's debit overdraws: a real check-then-act, the shape of
// pond's worker loop (readTask's workerCount check, then a round later
// its decrement on a fresh tasks.Len() test), which a rule excusing
// such a fresh test of another variable would hide.
type Teller struct {
	mu      sync.Mutex
	closed  bool
	balance atomic.Int64
}

func (t *Teller) take(n int64) bool {
	t.mu.Lock()
	if !t.closed {
		t.balance.Add(-n) // teller debit
	}
	t.mu.Unlock()
	t.mu.Lock()
	low := t.balance.Load() < n // teller check
	t.mu.Unlock()
	return low
}

func (t *Teller) Drain(n int64) {
	for !t.take(n) {
	}
}

// PoolFlight is theine-go's singleflight Group: generic, with its calls
// from a sync.Pool and counted by an atomic, returned to the pool by
// whoever drops the count to 0. Do and doCall each declare their own
// receiver type parameters, so their calls' wg fields are fields of two
// instantiations of poolCall.
type PoolFlight[K comparable, V any] struct {
	mu   sync.Mutex
	m    map[K]*poolCall[V]
	pool sync.Pool
}

type poolCall[V any] struct {
	wg   sync.WaitGroup
	val  V
	dups atomic.Int32
}

func (g *PoolFlight[K, V]) Do(key K, fn func() V) (V, bool) {
	g.mu.Lock()
	if g.m == nil {
		g.m = make(map[K]*poolCall[V])
	}
	if c, ok := g.m[key]; ok { // PoolFlight lookup
		_ = c.dups.Add(1) // PoolFlight join
		g.mu.Unlock()
		c.wg.Wait()
		v := c.val               // PoolFlight result
		if c.dups.Add(-1) == 0 { // PoolFlight leave
			g.pool.Put(c)
		}
		return v, true
	}
	c := g.pool.Get().(*poolCall[V])
	defer func() {
		if c.dups.Add(-1) == 0 { // PoolFlight release
			g.pool.Put(c)
		}
	}()
	_ = c.dups.Add(1) // PoolFlight lead
	c.wg.Add(1)
	g.m[key] = c
	g.mu.Unlock()

	g.doCall(c, key, fn)
	return c.val, false
}

func (g *PoolFlight[K, V]) doCall(c *poolCall[V], key K, fn func() V) {
	defer func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		c.wg.Done()
		if g.m[key] == c {
			delete(g.m, key) // PoolFlight done
		}
	}()
	func() {
		c.val = fn() // PoolFlight set
	}()
}

// Peek reads the pending call's value without waiting for it.
func (g *PoolFlight[K, V]) Peek(key K) (v V) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.m[key]; ok { // PoolFlight peek
		_ = c.dups.Add(1)        // PoolFlight peek join
		v = c.val                // PoolFlight peek result
		if c.dups.Add(-1) == 0 { // PoolFlight peek leave
			g.pool.Put(c)
		}
	}
	return v
}

// PeekLast is Peek that also says whether it dropped the count to 0:
// the value and the count meet in its result.
func (g *PoolFlight[K, V]) PeekLast(key K) (v V, last bool) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if c, ok := g.m[key]; ok {
		_ = c.dups.Add(1)
		v = c.val                  // PoolFlight peeklast result
		last = c.dups.Add(-1) == 0 // PoolFlight peeklast leave
		if last {
			g.pool.Put(c)
		}
	}
	return v, last
}

// usePoolFlight instantiates PoolFlight, as theine-go's tests do.
func usePoolFlight(g *PoolFlight[string, int]) int {
	v, _ := g.Do("k", func() int { return 1 })
	w, _ := g.PeekLast("k")
	return v + g.Peek("k") + w
}

// Strategy is go-events' RetryStrategy: Retry calls it through the
// interface, Proceed before each try and Failure after a failed one.
type Strategy interface {
	Proceed() bool
	Failure()
}

// Tally is a failure count shared by every retrier on purpose: each
// Proceed is meant to see every goroutine's failures.
type Tally struct {
	mu     sync.Mutex
	recent int
	n      atomic.Int64
}

func (t *Tally) Proceed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.recent < 3 // tally proceed
}

func (t *Tally) Failure() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.recent++ // tally failure
}

// Retry's loop reads the count at the top of each try, before the
// failure it may record: the next try's Proceed reads what it reads
// for the first try, the shared count, not its own failure back.
func Retry(s Strategy, try func() error) {
	for {
		if !s.Proceed() {
			continue
		}
		if try() != nil {
			s.Failure()
			continue
		}
		return
	}
}

// Backoff is Retry through the atomic counter, without the interface.
func (t *Tally) Backoff(try func() error) int64 {
	for {
		if n := t.n.Load(); n > 3 { // backoff load
			return n
		}
		if try() != nil {
			t.n.Add(1) // backoff add
			continue
		}
		return 0
	}
}

// Count adds, then reads back in the same round whether its own add
// reached the limit: another goroutine's add between makes both see
// the limit passed, and neither stops at it.
func (t *Tally) Count(try func() error) int64 {
	for {
		t.n.Add(1)                  // count add
		if n := t.n.Load(); n > 3 { // count load
			return n
		}
		_ = try()
	}
}

// Consume is bytedance's channel consumer: each round waits under the
// lock for an item (len at the loop's top), takes it, and unlocks; the
// next round's len is of the queue as producers left it.
type Queue struct {
	mu    sync.Mutex
	cond  *sync.Cond
	items []int
}

func (q *Queue) Consume(out chan<- int) {
	for {
		q.mu.Lock()
		for len(q.items) == 0 { // queue len
			q.cond.Wait()
		}
		it := q.take()
		q.mu.Unlock()
		out <- it
	}
}

func (q *Queue) Push(v int) {
	q.mu.Lock()
	q.items = append(q.items, v) // queue push
	q.cond.Signal()
	q.mu.Unlock()
}

func (q *Queue) take() int {
	it := q.items[0]
	q.items = q.items[1:] // queue take
	return it
}

// Drop takes an item, then reads the queue's length back in the same
// round to report that it emptied it: after another producer's push
// between, neither the push nor the take reports the queue's emptying.
func (q *Queue) Drop(out chan<- int) {
	for {
		q.mu.Lock()
		q.take()
		q.mu.Unlock()
		q.mu.Lock()
		if len(q.items) == 0 { // queue left
			out <- 0
		}
		q.mu.Unlock()
	}
}

// Backer is go-events' Breaker and ExponentialBackoff: a retry loop
// asks for a delay before each try and counts a failed try. What the
// count decides is only the delay; the increment and the add act on
// the count as it stands, whoever else counted.
type Backer struct {
	mu     sync.Mutex
	recent int
	n      atomic.Int64
}

func (b *Backer) Proceed() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.recent < 3 { // backer proceed
		return 0
	}
	return 5
}

func (b *Backer) Failure() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.recent++ // backer failure
}

func (b *Backer) Write(try func() error) {
	for {
		if d := b.Proceed(); d > 0 {
			time.Sleep(time.Duration(d))
		}
		if try() != nil {
			b.Failure()
			continue
		}
		return
	}
}

func (b *Backer) Wait() int64 {
	return b.delay(b.n.Load()) // backer load
}

func (b *Backer) delay(n int64) int64 {
	if n <= 0 {
		return 0
	}
	return n * 2
}

func (b *Backer) Fail() {
	b.n.Add(1) // backer add
}

func (b *Backer) Send(try func() error) {
	for {
		if d := b.Wait(); d > 0 {
			time.Sleep(time.Duration(d))
		}
		if try() != nil {
			b.Fail()
			continue
		}
		return
	}
}

// Job is go-cron's FuncJob: Run calls the closure, which no activation
// of its own holds.
type Job func()

func (j Job) Run() { j() }

// Circuit is go-cron's circuit breaker: a job runs unless the count of
// failures is at the threshold, and a success resets the count to 0
// whatever it holds. A failure counted between the test and the reset
// is reset as it would be had it come before the test.
type Circuit struct {
	mu       sync.Mutex
	failures int64
}

func (s *Circuit) isOpen() bool {
	if atomic.LoadInt64(&s.failures) >= 3 { // circuit check
		return true
	}
	return false
}

func (s *Circuit) fail() {
	s.mu.Lock()
	atomic.AddInt64(&s.failures, 1) // circuit fail
	s.mu.Unlock()
}

func (s *Circuit) reset() {
	s.mu.Lock()
	atomic.StoreInt64(&s.failures, 0) // circuit reset
	s.mu.Unlock()
}

func (s *Circuit) Wrap(job func() error) Job {
	return func() {
		if s.isOpen() {
			return
		}
		if job() != nil {
			s.fail()
			return
		}
		s.reset()
	}
}

// Take returns the failures counted and resets the count: a failure
// counted between the load and the reset is neither returned nor kept.
func (s *Circuit) Take() int64 {
	n := atomic.LoadInt64(&s.failures) // circuit take
	atomic.StoreInt64(&s.failures, 0)  // circuit taken
	return n
}

// Limits is go-limiter's memorystore: Take publishes a full bucket under
// dataLock, unlocks, and takes a token under the bucket's own lock; a
// Take of the same key by another goroutine finds the bucket and takes
// first. Both takes are one method's calls, serialized by bucket.mu.
// TakeHalf publishes an empty bucket and fills it in another method: a
// reader that takes first finds no token.
type Limits struct {
	mu   sync.RWMutex
	data map[string]*tokenBucket
}

type tokenBucket struct {
	mu        sync.Mutex
	available int
}

func newTokenBucket(n int) *tokenBucket { return &tokenBucket{available: n} }

func (s *Limits) Take(key string) bool {
	s.mu.RLock()
	if b, ok := s.data[key]; ok { // limits lookup
		s.mu.RUnlock()
		return b.take()
	}
	s.mu.RUnlock()
	s.mu.Lock()
	b := newTokenBucket(3)
	s.data[key] = b // limits publish
	s.mu.Unlock()
	return b.take()
}

func (s *Limits) TakeHalf(key string) bool {
	s.mu.Lock()
	b := &tokenBucket{}
	s.data[key] = b // limits publish empty
	s.mu.Unlock()
	b.fill(3)
	return b.take()
}

func (b *tokenBucket) take() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.available > 0 { // bucket check
		b.available-- // bucket take
		return true
	}
	return false
}

func (b *tokenBucket) fill(n int) {
	b.mu.Lock()
	if b.available < n { // bucket fill check
		b.available = n // bucket fill
	}
	b.mu.Unlock()
}

// Expirer is ttlcache's notify-after-unlock: Set reads the queue's root
// under the lock, unlocks, and if it moved calls notify, which tests the
// notified flag afresh under the lock, sets it and wakes the loop; the
// loop resets the flag and re-reads the queue under the lock. Consume
// is the same shape acting on what the root check saw: past its fresh
// test of busy it pops the queue, which another goroutine may have
// emptied since the check.
type Expirer struct {
	mu       sync.Mutex
	queue    []int
	notified bool
	busy     bool
	wake     chan bool
}

func (e *Expirer) Set(v int) {
	e.mu.Lock()
	e.queue = append(e.queue, v)
	first := e.queue[0] // expirer root
	e.mu.Unlock()
	if first == v {
		e.notify()
	}
}

func (e *Expirer) notify() {
	e.mu.Lock()
	if e.notified { // expirer flag
		e.mu.Unlock()
		return
	}
	e.notified = true // expirer set flag
	e.mu.Unlock()
	e.wake <- true
}

func (e *Expirer) Loop() {
	for {
		e.mu.Lock()
		e.notified = false // expirer reset
		if len(e.queue) > 0 {
			e.queue = e.queue[1:] // expirer pop
		}
		e.mu.Unlock()
		<-e.wake
	}
}

func (e *Expirer) Poke(v int) int {
	e.mu.Lock()
	first := e.queue[0] // expirer poke root
	e.mu.Unlock()
	if first == v {
		return e.consume()
	}
	return 0
}

func (e *Expirer) consume() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.busy { // expirer busy
		return 0
	}
	e.busy = true
	v := e.queue[0] // expirer consume
	e.queue = e.queue[1:]
	return v
}

// Pinger is Expirer with a receiver that counts its wake-ups without
// looking at the queue: a wake-up it takes for "the root moved", which a
// stale root check can send for nothing.
type Pinger struct {
	mu       sync.Mutex
	queue    []int
	notified bool
	woken    int
	wake     chan bool
}

func (p *Pinger) Set(v int) {
	p.mu.Lock()
	p.queue = append(p.queue, v)
	first := p.queue[0] // pinger root
	p.mu.Unlock()
	if first == v {
		p.notify()
	}
}

func (p *Pinger) notify() {
	p.mu.Lock()
	if p.notified { // pinger flag
		p.mu.Unlock()
		return
	}
	p.notified = true
	p.mu.Unlock()
	p.wake <- true
}

func (p *Pinger) Loop() {
	for range p.wake {
		p.mu.Lock()
		p.notified = false // pinger reset
		p.woken++
		p.mu.Unlock()
	}
}

// Pools is pond's subpool: a worker leaving gives back its slot in the
// subpool, then in the parent (two pools' counters, each an atomic
// under its pool's lock); a submitter checks the subpool's count and,
// below the limit, adds a worker to both. Audit sums the two counts.
type Pools struct {
	sub, parent atomic.Int32
}

func (p *Pools) Leave() {
	p.sub.Add(-1)    // pools leave sub
	p.parent.Add(-1) // pools leave parent
}

func (p *Pools) Submit(max int32) {
	if p.sub.Load() < max { // pools check
		p.sub.Add(1)
		p.parent.Add(1) // pools join parent
	}
}

func (p *Pools) Audit() int32 {
	s := p.sub.Load()          // pools audit sub
	return s + p.parent.Load() // pools audit parent
}

// Entry is bytedance/gopkg's asynccache entry: a value and an error,
// each in its own atomic, which Get returns together. Refresh stores a
// fetched value with its error, known nil there; Fail stores a value
// with a non-nil error.
type Entry struct {
	val atomic.Value
	err EntryError
}

// EntryError is an error in an atomic.Value, wrapped so that nil fits.
type EntryError struct{ v atomic.Value }

type errHolder struct{ err error }

func (e *EntryError) Load() error {
	v := e.v.Load() // entry err load
	if v == nil {
		return nil
	}
	return v.(errHolder).err
}

func (e *EntryError) Store(err error) {
	e.v.Store(errHolder{err: err}) // entry err store
}

func (e *Entry) Store(x any, err error) {
	e.val.Store(x) // entry val store
	e.err.Store(err)
}

func (e *Entry) Get() (any, error) {
	return e.val.Load(), e.err.Load() // entry get
}

func (e *Entry) Refresh(fetch func() (any, error)) {
	v, err := fetch()
	if err != nil {
		return
	}
	e.Store(v, err)
}

func (e *Entry) Fail(v any, err error) {
	e.Store(v, err)
}

// GetOr returns the entry's value unless its error is set.
func (e *Entry) GetOr(def any) any {
	if e.err.Load() != nil { // entry guard
		return def
	}
	return e.val.Load() // entry guarded value
}

// GetOrLoose returns the value whatever the error, and whether it was
// set.
func (e *Entry) GetOrLoose() (any, bool) {
	failed := e.err.Load() != nil
	return e.val.Load(), failed // entry loose value
}

// AuditBack sums the two counts, the parent's first.
func (p *Pools) AuditBack() int32 {
	q := p.parent.Load()    // pools audit back parent
	return q + p.sub.Load() // pools audit back sub
}

// Held is a lock-order checker's record of a held lock, by value
// (linkdata/deadlock's stackGID): the goroutine and its callers.
type Held struct {
	gid   int64
	stack []uintptr
}

// Locks records the locks held (linkdata/deadlock's lockOrder): Acquired
// and Released each update it under mu, and Check, before a goroutine
// takes another lock, ranges over the held ones for its own.
type Locks struct {
	mu    sync.Mutex
	cur   map[any]Held
	ptr   map[any]*Held
	order map[[2]any]bool
}

func (l *Locks) Acquired(m any, gid int64, stack []uintptr) {
	l.mu.Lock()
	l.cur[m] = Held{gid, stack} // locks acquired
	l.mu.Unlock()
}

func (l *Locks) Released(m any) {
	l.mu.Lock()
	delete(l.cur, m) // locks released
	l.mu.Unlock()
}

func (l *Locks) Check(m any, gid int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for o, h := range l.cur { // locks check
		if o != m && h.gid == gid {
			l.order[[2]any{o, m}] = true
		}
	}
}

// Handover gives a held lock to another goroutine: its entry taken out,
// then put back: in between, the lock looks free.
func (l *Locks) Handover(m any, gid int64) {
	l.mu.Lock()
	h := l.cur[m]
	delete(l.cur, m) // locks handed out
	l.mu.Unlock()
	h.gid = gid
	l.mu.Lock()
	l.cur[m] = h // locks handed in
	l.mu.Unlock()
}

// AcquiredPtr records the held lock by pointer, filled after the insert.
func (l *Locks) AcquiredPtr(m any, gid int64) {
	h := new(Held)
	l.mu.Lock()
	l.ptr[m] = h // locks acquired ptr
	l.mu.Unlock()
	l.mu.Lock()
	h.gid = gid
	l.mu.Unlock()
}

func (l *Locks) ReleasedPtr(m any) {
	l.mu.Lock()
	delete(l.ptr, m) // locks released ptr
	l.mu.Unlock()
}

func (l *Locks) CheckPtr(m any, gid int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for o, h := range l.ptr { // locks check ptr
		if o != m && h.gid == gid {
			l.order[[2]any{o, m}] = true
		}
	}
}

// HeldBuf is go-deadlock's stackGID: a holder's goroutine and its
// callers, in a pooled array the record keeps a pointer to as well.
type HeldBuf struct {
	stack []uintptr
	gid   int64
	buf   *[8]uintptr
}

// Holders is go-deadlock's lockOrder: the holders of each lock (an
// RWMutex has many), updated under mu; Check ranges over them before the
// goroutine takes another lock.
type Holders struct {
	mu  sync.Mutex
	cur map[any][]HeldBuf
	ptr map[any][]*HeldBuf
}

func (l *Holders) Check(m any, gid int64) int {
	n := 0
	l.mu.Lock()
	for o, hs := range l.cur { // holders check
		for _, h := range hs {
			if o != m && h.gid == gid {
				n += len(h.stack)
			}
		}
	}
	l.mu.Unlock()
	return n
}

// Acquired looks m's holders up again and stores them back with its own
// record appended.
func (l *Holders) Acquired(m any, gid int64, buf *[8]uintptr) {
	l.mu.Lock()
	hs := l.cur[m]                                    // holders lookup
	l.cur[m] = append(hs, HeldBuf{buf[:2], gid, buf}) // holders acquired
	l.mu.Unlock()
}

// AcquiredBlind looks m's holders up but stores its record alone.
func (l *Holders) AcquiredBlind(m any, gid int64, buf *[8]uintptr) {
	l.mu.Lock()
	_ = len(l.cur[m])                         // holders blind lookup
	l.cur[m] = []HeldBuf{{buf[:2], gid, buf}} // holders blind
	l.mu.Unlock()
}

// Released deletes m's record when the goroutine was its last holder.
func (l *Holders) Released(m any, gid int64) {
	l.mu.Lock()
	hs := l.cur[m]
	for i, h := range hs {
		if h.gid == gid {
			hs = append(hs[:i], hs[i+1:]...)
			break
		}
	}
	if len(hs) == 0 {
		delete(l.cur, m) // holders released
	} else {
		l.cur[m] = hs
	}
	l.mu.Unlock()
}

// AcquiredPtr and ReleasedPtr keep the records by pointer.
func (l *Holders) AcquiredPtr(m any, gid int64) {
	l.mu.Lock()
	l.ptr[m] = append(l.ptr[m], &HeldBuf{gid: gid}) // holders acquired ptr
	l.mu.Unlock()
}

func (l *Holders) ReleasedPtr(m any) {
	l.mu.Lock()
	delete(l.ptr, m) // holders released ptr
	l.mu.Unlock()
}

func (l *Holders) CheckPtr(gid int64) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, hs := range l.ptr { // holders check ptr
		for _, h := range hs {
			if h.gid == gid {
				return true
			}
		}
	}
	return false
}

// Slots is go-deadlock's holders of one lock as a slice: Take appends the
// goroutine's record, Give moves the last record into its slot and
// clears the last, Mine ranges over them.
type Slots struct {
	mu sync.Mutex
	hs []HeldBuf
	ps []*HeldBuf
}

func (s *Slots) Take(gid int64, buf *[8]uintptr) {
	s.mu.Lock()
	s.hs = append(s.hs, HeldBuf{buf[:2], gid, buf}) // slots take
	s.mu.Unlock()
}

func (s *Slots) Give(gid int64) {
	s.mu.Lock()
	for i, h := range s.hs {
		if h.gid == gid {
			s.hs[i] = s.hs[len(s.hs)-1]   // slots move
			s.hs[len(s.hs)-1] = HeldBuf{} // slots give
			s.hs = s.hs[:len(s.hs)-1]
			break
		}
	}
	s.mu.Unlock()
}

// At returns record i; Drop removes record i (jigsaw's ElementAt and
// RemoveElementAt): a Drop after another goroutine's removes another
// record than the one read.
func (s *Slots) At(i int) HeldBuf {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.hs[i] // slots at
}

func (s *Slots) Drop(i int) {
	s.mu.Lock()
	s.hs = slices.Delete(s.hs, i, i+1) // slots drop
	s.mu.Unlock()
}

// Push appends a record to the records read afresh.
func (s *Slots) Push(h HeldBuf) {
	s.mu.Lock()
	s.hs = append(s.hs, h) // slots push
	s.mu.Unlock()
}

// Mark overwrites the goroutine's record with a mark instead.
func (s *Slots) Mark(i int, gid int64) {
	s.mu.Lock()
	s.hs[i] = HeldBuf{gid: -gid} // slots mark
	s.mu.Unlock()
}

func (s *Slots) Mine(gid int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.hs { // slots check
		if h.gid == gid {
			return true
		}
	}
	return false
}

// TakePtr and GivePtr keep the records by pointer.
func (s *Slots) TakePtr(gid int64) {
	s.mu.Lock()
	s.ps = append(s.ps, &HeldBuf{gid: gid}) // slots take ptr
	s.mu.Unlock()
}

func (s *Slots) GivePtr() {
	s.mu.Lock()
	s.ps[len(s.ps)-1] = nil // slots give ptr
	s.ps = s.ps[:len(s.ps)-1]
	s.mu.Unlock()
}

func (s *Slots) MinePtr(gid int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, h := range s.ps { // slots check ptr
		if h.gid == gid {
			return true
		}
	}
	return false
}

// Crew is pond's worker loop: a worker tests the crew's size against
// its limit under the lock (over: leave; not over: take a job), runs the
// job, and a round later, finding no job, leaves, lowering the size. A
// leave by another worker in between only lowers the size, which keeps
// the test's "not over" (static/depend's boundKept); a Grow in between
// raises it, and the worker that read "not over" goes on past the limit.
// A max of 0 is no limit: the test's "not over" joins that path (&&).
type Crew struct {
	mu   sync.Mutex
	jobs []func()
	n    atomic.Int64
	max  int
	// reads counts the jobs taken, for statistics.
	reads atomic.Int64
}

func (c *Crew) next() (func(), bool) {
	c.mu.Lock()
	if len(c.jobs) == 0 {
		c.n.Add(-1) // crew leave
		c.mu.Unlock()
		return nil, false
	}
	if c.max > 0 && int(c.n.Load()) > c.max { // crew check
		c.n.Add(-1) // crew over
		c.mu.Unlock()
		return nil, false
	}
	job := c.jobs[0] // crew take
	c.jobs = c.jobs[1:]
	c.reads.Add(1) // crew count
	c.mu.Unlock()  // crew unlock
	return job, true
}

func (c *Crew) Work() {
	for {
		job, ok := c.next()
		if !ok {
			return
		}
		job()
	}
}

// Reset clears the job count (a store, not an add: it does not commute
// with a worker's count).
func (c *Crew) Reset() {
	c.reads.Store(0) // crew reset
}

// Run runs one job and leaves, as a worker started for one job does.
func (c *Crew) Run() {
	if job, ok := c.next(); ok {
		job()
		c.n.Add(-1) // crew quit
	}
}

// RunAgain runs one job and joins the crew again for the next.
func (c *Crew) RunAgain() {
	if job, ok := c.next(); ok {
		job()
		c.n.Add(1) // crew join
	}
}

// Hire adds a worker if the crew is below its limit: the count it
// leaves is at most max, which keeps a worker's "not over".
func (c *Crew) Hire() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int(c.n.Load()) >= c.max { // crew hire check
		return false
	}
	c.n.Add(1) // crew hire
	return true
}

// HireLoose adds a worker unless the crew is over its limit: the count
// it leaves can be max+1.
func (c *Crew) HireLoose() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if int(c.n.Load()) > c.max { // crew loose check
		return false
	}
	c.n.Add(1) // crew loose hire
	return true
}

// Resize sets the limit.
func (c *Crew) Resize(max int) {
	c.mu.Lock()
	c.max = max // crew resize
	c.mu.Unlock()
}

// Grow adds a worker, whatever the limit.
func (c *Crew) Grow() {
	c.n.Add(1) // crew grow
	go c.Work()
}

// Count hands out units while at least min are left, counted in a
// uint32: a take is an add of ^uint32(0), which wraps the count below 0
// rather than keeping "at least min" as an increment would.
type Count struct {
	mu  sync.Mutex
	n   atomic.Uint32
	min uint32
}

func (c *Count) Use() bool {
	c.mu.Lock()
	if c.n.Load() < c.min { // count check
		c.mu.Unlock()
		return false
	}
	c.mu.Unlock()       // count unlock
	c.n.Add(^uint32(0)) // count take
	return true
}

// Subpools is pond's subpool and its parent: a subpool worker's exit
// lowers both counts, a launch raises both, each count on its own. Submit
// tests the subpool's count against its limit and, below it, the
// parent's against the parent's (static/depend's snapshotKept: an exit
// between the two reads leaves the parent's "below" as it was; a launch
// before the first only raised what Submit found below the limit).
// Watch alarms when the subpool is busy and the parent idle, a pair a
// launch between its reads shows though no serial order does.
type Subpools struct {
	sub, parent       atomic.Int64
	subMax, parentMax int64
	runs, alarms      atomic.Int64
}

func (p *Subpools) Exit() {
	p.sub.Add(-1)    // subpools exit sub
	p.parent.Add(-1) // subpools exit parent
}

func (p *Subpools) Launch() {
	p.sub.Add(1)    // subpools launch sub
	p.parent.Add(1) // subpools launch parent
}

func (p *Subpools) Submit() bool {
	if p.sub.Load() >= p.subMax { // subpools sub check
		return false
	}
	p.runs.Add(1)                       // subpools sub run
	if p.parent.Load() >= p.parentMax { // subpools parent check
		return false
	}
	p.runs.Add(1) // subpools parent run
	return true
}

func (p *Subpools) Watch() {
	if p.sub.Load() > 0 { // subpools busy
		p.runs.Add(1)            // subpools busy run
		if p.parent.Load() < 1 { // subpools idle
			p.alarms.Add(1) // subpools alarm
		}
	}
}

// Spawner is linkdata/deadlock's TestNoDeadlocks load count: a worker
// lowers it by one at each of its releases, and the spawner starts
// workers while it is under a cap.
type Spawner struct{ load int32 }

// Release gives back one lock.
func (s *Spawner) Release() {
	atomic.AddInt32(&s.load, -1) // spawner release
}

// Take takes one lock.
func (s *Spawner) Take() {
	atomic.AddInt32(&s.load, 1) // spawner take
}

// Done gives back two locks, one at a time.
func (s *Spawner) Done(wg *sync.WaitGroup) {
	defer wg.Done()
	s.Release()
	s.Release()
}

// SpawnIf starts a worker when the load is under max.
func (s *Spawner) SpawnIf(max int32, wg *sync.WaitGroup) {
	if atomic.LoadInt32(&s.load) < max { // spawner if
		wg.Add(1) // spawner if start
		go s.Done(wg)
	}
}

// SpawnAt starts a worker when the load is exactly max: a count between
// the releases can be one that neither order shows.
func (s *Spawner) SpawnAt(max int32, wg *sync.WaitGroup) {
	if atomic.LoadInt32(&s.load) == max { // spawner exact
		wg.Add(1) // spawner exact start
		go s.Done(wg)
	}
}

// Timers is benbjohnson/clock's Mock.Timer and runNextTimer: Add appends
// a timer, and Next, in a critical section of its own, runs the first
// one if there is any, whoever added it.
type Timers struct {
	mu   sync.Mutex
	list []func()
}

func (q *Timers) Add(f func()) {
	q.mu.Lock()
	q.list = append(q.list, f) // timers append
	q.mu.Unlock()
	q.Next()
}

func (q *Timers) Next() bool {
	q.mu.Lock()
	if len(q.list) == 0 { // timers empty
		q.mu.Unlock()
		return false
	}
	f := q.list[0]
	q.list = q.list[1:]
	q.mu.Unlock()
	f()
	return true
}

// AddIndex appends and returns the index it takes for its own entry's.
func (q *Timers) AddIndex(f func()) int {
	q.mu.Lock()
	q.list = append(q.list, f) // timers append index
	q.mu.Unlock()
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.list) - 1 // timers own index
}

// AddAll appends what it is given, maybe nothing, then tests for empty.
func (q *Timers) AddAll(fs []func()) bool {
	q.mu.Lock()
	q.list = append(q.list, fs...) // timers append all
	q.mu.Unlock()
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.list) > 0 // timers any
}

// Jobs is qmuntal/stateless's queued firing mode: Fire appends a job,
// then fetches and runs jobs until fetch finds none, whoever queued them.
type Jobs struct {
	mu   sync.Mutex
	list []int
	done []int
}

func (q *Jobs) Fire(j int) {
	q.mu.Lock()
	q.list = append(q.list, j) // jobs append
	q.mu.Unlock()
	for {
		j, ok := q.fetch()
		if !ok {
			break
		}
		q.run(j)
	}
}

func (q *Jobs) fetch() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.list) == 0 { // jobs empty
		return 0, false
	}
	var j int
	j, q.list = q.list[0], q.list[1:] // jobs head
	return j, true
}

func (q *Jobs) run(j int) {
	q.mu.Lock()
	q.done = append(q.done, j)
	q.mu.Unlock()
}

// Drain appends a job, then takes and runs jobs in a loop of its own
// until it finds the list empty.
func (q *Jobs) Drain(j int) {
	q.mu.Lock()
	q.list = append(q.list, j) // jobs append drain
	q.mu.Unlock()
	for {
		q.mu.Lock()
		if len(q.list) == 0 { // jobs drain empty
			q.mu.Unlock()
			return
		}
		j := q.list[0] // jobs drain head
		q.list = q.list[1:]
		q.mu.Unlock()
		q.run(j)
	}
}

// Call appends a request and takes the head once as its own reply: with
// another goroutine's request queued first, it returns that one's.
func (q *Jobs) Call(j int) int {
	q.mu.Lock()
	q.list = append(q.list, j) // jobs append call
	q.mu.Unlock()
	j, ok := q.fetch()
	if !ok {
		return -1
	}
	return j * 2
}

// Pop appends and takes the tail back as its own: a stack.
func (q *Jobs) Pop(j int) int {
	q.mu.Lock()
	q.list = append(q.list, j) // jobs append pop
	q.mu.Unlock()
	q.mu.Lock()
	defer q.mu.Unlock()
	n := len(q.list)
	if n == 0 {
		return -1
	}
	j = q.list[n-1] // jobs tail
	q.list = q.list[:n-1]
	return j
}

// Firer is qmuntal/stateless's queued firing mode with its claim: Fire
// appends a job, then fetches, claiming the drain by a CAS of firing, and
// runs jobs until fetch finds none or another goroutine holds the claim.
type Firer struct {
	mu     sync.Mutex
	list   []int
	firing atomic.Bool
	n      int
}

func (q *Firer) Fire(j int) {
	q.mu.Lock()
	q.list = append(q.list, j) // firer append
	q.mu.Unlock()
	for {
		j, ok := q.fetch()
		if !ok {
			break
		}
		q.firing.Store(false) // firer release
		q.run(j)
	}
}

// run runs a job under a claim it releases when done; the job may fire
// (append) again.
func (q *Firer) run(j int) {
	defer q.firing.Store(false) // firer run release
	_ = j
}

// FireLate drains, then runs a last job whose release no take follows.
func (q *Firer) FireLate() {
	for {
		if _, ok := q.fetch(); !ok {
			break
		}
	}
	q.run(0)
}

func (q *Firer) fetch() (int, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.list) == 0 { // firer empty
		return 0, false
	}
	if !q.firing.CompareAndSwap(false, true) { // firer claim
		return 0, false
	}
	var j int
	j, q.list = q.list[0], q.list[1:] // firer take
	return j, true
}

// Put appends a job and counts it in a second critical section; Take
// drains, and a job it finds before its count is a count gone negative.
func (q *Firer) Put(j int) {
	q.mu.Lock()
	q.list = append(q.list, j) // firer put
	q.mu.Unlock()
	q.mu.Lock()
	q.n++ // firer count
	q.mu.Unlock()
}

func (q *Firer) Take() {
	for {
		q.mu.Lock()
		if len(q.list) == 0 { // firer take empty
			q.mu.Unlock()
			return
		}
		q.list = q.list[1:]
		q.n-- // firer uncount
		if q.n < 0 {
			panic("count")
		}
		q.mu.Unlock()
	}
}

// FireCheckFirst claims the drain, takes jobs until it finds none, and
// only then releases the claim: a Fire whose claim fails in between
// returns and leaves its job to no one.
func (q *Firer) FireCheckFirst(j int) {
	q.mu.Lock()
	q.list = append(q.list, j)
	q.mu.Unlock()
	if !q.firing.CompareAndSwap(false, true) { // firer early claim
		return
	}
	for {
		q.mu.Lock()
		if len(q.list) == 0 {
			q.mu.Unlock()
			break
		}
		q.list = q.list[1:]
		q.mu.Unlock()
	}
	q.firing.Store(false) // firer early release
}

// Metrics is tally's scope: counts reported under its own lock, and a
// closed flag.
type Metrics struct {
	mu     sync.RWMutex
	counts map[string]int64
	closed atomic.Bool
	out    chan int64
}

func (s *Metrics) report(emit func(string, int64)) {
	s.mu.RLock()
	for k, v := range s.counts {
		emit(k, v)
	}
	s.mu.RUnlock()
}

// Registry is tally's scope registry: Replace swaps a scope for a fresh
// one, deleting its key and inserting the new one under a second lock;
// the other methods range over the scopes.
type Registry struct {
	mu     sync.RWMutex
	scopes map[string]*Metrics
}

func (r *Registry) Replace(k string) *Metrics {
	r.mu.Lock()
	delete(r.scopes, k) // registry delete
	r.mu.Unlock()
	s := &Metrics{counts: make(map[string]int64)}
	r.mu.Lock()
	r.scopes[k] = s // registry insert fresh
	r.mu.Unlock()
	return s
}

// ReplaceFilled inserts a scope with a count already in it.
func (r *Registry) ReplaceFilled(k string) *Metrics {
	r.mu.Lock()
	delete(r.scopes, k) // registry delete filled
	r.mu.Unlock()
	s := &Metrics{counts: map[string]int64{"a": 1}}
	r.mu.Lock()
	r.scopes[k] = s // registry insert filled
	r.mu.Unlock()
	return s
}

// ReplaceOld takes the scope out and puts it back.
func (r *Registry) ReplaceOld(k string) {
	r.mu.Lock()
	s := r.scopes[k]
	delete(r.scopes, k) // registry take out
	r.mu.Unlock()
	r.mu.Lock()
	r.scopes[k] = s // registry put back
	r.mu.Unlock()
}

// ReplaceShared hands the new scope to another goroutine before it
// inserts it.
func (r *Registry) ReplaceShared(k string, ch chan *Metrics) {
	r.mu.Lock()
	delete(r.scopes, k) // registry delete shared
	r.mu.Unlock()
	s := &Metrics{counts: make(map[string]int64)}
	ch <- s
	r.mu.Lock()
	r.scopes[k] = s // registry insert shared
	r.mu.Unlock()
}

// Remove deletes the key twice, as tally's Subscope does for its two
// spellings of one key.
func (r *Registry) Remove(k, k2 string) {
	r.mu.Lock()
	delete(r.scopes, k) // registry remove
	r.mu.Unlock()
	r.mu.Lock()
	delete(r.scopes, k2) // registry remove again
	r.mu.Unlock()
}

func (r *Registry) Report(emit func(string, int64)) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, s := range r.scopes { // registry report
		s.report(emit)
		if s.closed.Load() {
			emit("closed", 0)
		}
	}
}

// Count counts the scopes: one missing is a count no serial order gives.
func (r *Registry) Count() int {
	r.mu.RLock()
	defer r.mu.RUnlock()
	n := 0
	for range r.scopes { // registry count
		n++
	}
	return n
}

// Notify sends to each scope.
func (r *Registry) Notify(v int64) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for _, s := range r.scopes { // registry notify
		s.out <- v
	}
}

// FindOpen returns the key of an open scope: the loop ends at one (the
// caller holds the lock).
func (r *Registry) FindOpen() string {
	for k, s := range r.scopes { // registry find
		if !s.closed.Load() {
			return k
		}
	}
	return ""
}

// AnyOpen tells whether a scope is open: the loop breaks at one.
func (r *Registry) AnyOpen() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	open := false
	for _, s := range r.scopes { // registry any open
		if !s.closed.Load() {
			open = true
			break
		}
	}
	return open
}

// Bump is ristretto's Allocator: an atomic add claims a span, and the
// goroutine that overflows the page re-reads the counter under the lock,
// retrying when another moved it to a new page (bumpRechecked).
type Bump struct {
	sync.Mutex
	idx   uint64
	pages [][]byte
}

func bumpParse(pos uint64) (page, off int) { return int(pos >> 32), int(pos & 0xFFFFFFFF) }

// bumpNoted keeps what it is given: no pure function.
var bumpNoted uint64

func bumpNote(pos uint64) (page, off int) {
	bumpNoted = pos
	return int(pos >> 32), int(pos & 0xFFFFFFFF)
}

func (b *Bump) Alloc(sz int) []byte {
	for {
		pos := atomic.AddUint64(&b.idx, uint64(sz)) // bump add
		page, off := bumpParse(pos)
		buf := b.pages[page]
		if off > len(buf) {
			b.Lock()
			newPage, _ := bumpParse(atomic.LoadUint64(&b.idx)) // bump recheck
			if newPage != page {
				b.Unlock()
				continue
			}
			b.pages = append(b.pages, make([]byte, 1<<20))
			atomic.StoreUint64(&b.idx, uint64(page+1)<<32) // bump store
			b.Unlock()
			continue
		}
		return buf[off-sz : off]
	}
}

// AllocGiveUp fails instead of retrying when another moved the counter:
// the other's add makes the unit fail.
func (b *Bump) AllocGiveUp(sz int) []byte {
	pos := atomic.AddUint64(&b.idx, uint64(sz)) // giveup add
	page, off := bumpParse(pos)
	newPage, _ := bumpParse(atomic.LoadUint64(&b.idx)) // giveup recheck
	if newPage != page {
		return nil
	}
	return b.pages[page][off-sz : off]
}

// AllocUsed takes the read-back's offset as its own span.
func (b *Bump) AllocUsed(sz int) []byte {
	for {
		pos := atomic.AddUint64(&b.idx, uint64(sz)) // used add
		page, _ := bumpParse(pos)
		newPage, off := bumpParse(atomic.LoadUint64(&b.idx)) // used recheck
		if newPage != page {
			continue
		}
		return b.pages[page][off-sz : off]
	}
}

// AllocNoted passes the read-back to a function that keeps it.
func (b *Bump) AllocNoted(sz int) []byte {
	for {
		pos := atomic.AddUint64(&b.idx, uint64(sz)) // noted add
		page, off := bumpNote(pos)
		newPage, _ := bumpNote(atomic.LoadUint64(&b.idx)) // noted recheck
		if newPage != page {
			continue
		}
		return b.pages[page][off-sz : off]
	}
}

// AllocLast takes the counter's unchanged value as "no one else came":
// the read-back compared with the unit's own result, but what the
// unequal side does is go on to hand out the span without retrying.
func (b *Bump) AllocLast(sz int) ([]byte, bool) {
	pos := atomic.AddUint64(&b.idx, uint64(sz)) // last add
	page, off := bumpParse(pos)
	last := atomic.LoadUint64(&b.idx) == pos // last recheck
	return b.pages[page][off-sz : off], last
}

// Drops is tally's subscope lookup and removeWithRLock: Drop looks a key
// up under the read lock and, when found, deletes it under the write lock
// that remove takes after dropping the read lock.
type Drops struct {
	mu sync.RWMutex
	m  map[string]*dropEntry
	n  int
}

type dropEntry struct{ done chan struct{} }

// Drop deletes k if present: a second Drop's delete is a no-op.
func (d *Drops) Drop(k string) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	_, ok := d.m[k] // drops lookup
	if ok {
		d.remove(k)
	}
}

func (d *Drops) remove(k string) {
	d.mu.RUnlock()
	defer d.mu.RLock()
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, k) // drops delete
}

// DropCounted also counts the drop: two Drops of one key count two.
func (d *Drops) DropCounted(k string) {
	d.mu.RLock()
	defer d.mu.RUnlock()
	_, ok := d.m[k] // drops counted lookup
	if ok {
		d.removeCounted(k)
	}
}

func (d *Drops) removeCounted(k string) {
	d.mu.RUnlock()
	defer d.mu.RLock()
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, k) // drops counted delete
	d.n++
}

// DropClosed closes the entry it found: two Drops close it twice.
func (d *Drops) DropClosed(k string) {
	d.mu.RLock()
	e, ok := d.m[k] // drops closed lookup
	d.mu.RUnlock()
	if ok {
		d.mu.Lock()
		delete(d.m, k) // drops closed delete
		d.mu.Unlock()
		close(e.done)
	}
}

// DropTold returns whether it found k: two Drops are both told so.
func (d *Drops) DropTold(k string) bool {
	d.mu.RLock()
	_, ok := d.m[k] // drops told lookup
	d.mu.RUnlock()
	if ok {
		d.mu.Lock()
		delete(d.m, k) // drops told delete
		d.mu.Unlock()
	}
	return ok
}

// Put inserts k.
func (d *Drops) Put(k string) {
	d.mu.Lock()
	d.m[k] = &dropEntry{done: make(chan struct{})} // drops put
	d.mu.Unlock()
}

// Meter is tally's scope with its gauges: report swaps a gauge's updated
// flag to 0 and emits the gauge only when it was 1; Clear deletes the
// gauges (tally's clearMetrics). A report between another report's swap
// and Clear finds the gauge drained.
type Meter struct {
	mu     sync.RWMutex
	prefix string
	gauges map[string]*meterGauge
	n      int
	slice  []*meterGauge // tally's gaugesSlice, for its cached report
}

type meterGauge struct{ updated, curr uint64 }

// Update sets the gauge and marks it updated.
func (g *meterGauge) Update(v uint64) {
	atomic.StoreUint64(&g.curr, v)
	atomic.StoreUint64(&g.updated, 1) // meter update
}

func (g *meterGauge) report(name string, emit func(string, uint64)) {
	if atomic.SwapUint64(&g.updated, 0) == 1 { // meter swap
		emit(name, atomic.LoadUint64(&g.curr))
	}
}

// reportAlways emits the gauge whatever its flag held.
func (g *meterGauge) reportAlways(name string, emit func(string, uint64)) {
	atomic.SwapUint64(&g.updated, 0) // meter swap always
	emit(name, atomic.LoadUint64(&g.curr))
}

func (m *Meter) name(k string) string {
	if len(m.prefix) == 0 {
		return k
	}
	return m.prefix + "." + k
}

// Report emits the updated gauges.
func (m *Meter) Report(emit func(string, uint64)) {
	m.mu.RLock()
	for k, g := range m.gauges { // meter report
		g.report(m.name(k), emit)
	}
	m.mu.RUnlock()
}

// ReportAlways emits every gauge.
func (m *Meter) ReportAlways(emit func(string, uint64)) {
	m.mu.RLock()
	for k, g := range m.gauges { // meter report always
		g.reportAlways(m.name(k), emit)
	}
	m.mu.RUnlock()
}

// ReportCounted emits the updated gauges and counts the gauges it came to.
func (m *Meter) ReportCounted(emit func(string, uint64)) {
	m.mu.Lock()
	for k, g := range m.gauges { // meter report counted
		g.report(m.name(k), emit)
		m.n++
	}
	m.mu.Unlock()
}

// Clear deletes every gauge.
func (m *Meter) Clear() {
	m.mu.Lock()
	for k := range m.gauges {
		delete(m.gauges, k) // meter clear
	}
	m.mu.Unlock()
}

// ReportTold emits the updated gauges and returns how many it came to.
func (m *Meter) ReportTold(emit func(string, uint64)) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for k, g := range m.gauges { // meter report told
		g.report(m.name(k), emit)
		n++
	}
	return n
}

// Slate is tally's scope with its cleared slices: Clear sets the slice to
// nil and then sums what is left; another Clear of the same slate between
// leaves nil too, so the sum reads what the unit's own write left.
type Slate struct {
	mu    sync.Mutex
	items []int
	flag  int32
}

// Clear drops the items, then sums what is left.
func (s *Slate) Clear() int {
	s.mu.Lock()
	s.items = nil // slate clear
	s.mu.Unlock()
	return s.Sum()
}

// Reset gives the slate an empty slice that is not nil.
func (s *Slate) Reset() {
	s.mu.Lock()
	s.items = []int{} // slate reset
	s.mu.Unlock()
}

// Add appends v.
func (s *Slate) Add(v int) {
	s.mu.Lock()
	s.items = append(s.items, v) // slate add
	s.mu.Unlock()
}

// Sum adds the items up.
func (s *Slate) Sum() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	t := 0
	for _, v := range s.items { // slate sum
		t += v
	}
	return t
}

// Mark sets the flag and returns what it holds then.
func (s *Slate) Mark() int32 {
	atomic.StoreInt32(&s.flag, 1)    // slate mark
	return atomic.LoadInt32(&s.flag) // slate marked
}

// Unmark clears the flag.
func (s *Slate) Unmark() {
	atomic.StoreInt32(&s.flag, 0) // slate unmark
}

// CachedReport emits the updated gauges of the slice (tally's
// cachedReport).
func (m *Meter) CachedReport(emit func(string, uint64)) {
	m.mu.RLock()
	for _, g := range m.slice { // meter cached report
		g.report(m.prefix, emit)
	}
	m.mu.RUnlock()
}

// CachedReportAlways emits every gauge of the slice.
func (m *Meter) CachedReportAlways(emit func(string, uint64)) {
	m.mu.RLock()
	for _, g := range m.slice { // meter cached report always
		g.reportAlways(m.prefix, emit)
	}
	m.mu.RUnlock()
}

// CachedReportCounted emits the updated gauges of the slice and counts
// the gauges it came to.
func (m *Meter) CachedReportCounted(emit func(string, uint64)) {
	m.mu.Lock()
	for _, g := range m.slice { // meter cached report counted
		g.report(m.prefix, emit)
		m.n++
	}
	m.mu.Unlock()
}

// CachedReportUntil emits the updated gauges of the slice up to the
// first nil one.
func (m *Meter) CachedReportUntil(emit func(string, uint64)) {
	m.mu.RLock()
	for _, g := range m.slice { // meter cached report until
		if g == nil {
			break
		}
		g.report(m.prefix, emit)
	}
	m.mu.RUnlock()
}

// ClearSlice drops the slice (tally's clearMetrics).
func (m *Meter) ClearSlice() {
	m.mu.Lock()
	m.slice = nil // meter clear slice
	m.mu.Unlock()
}

// TrimSlice empties the slice but keeps its array.
func (m *Meter) TrimSlice() {
	m.mu.Lock()
	m.slice = m.slice[:0] // meter trim slice
	m.mu.Unlock()
}

// SumIfOpen sums the items while the flag is set.
func (s *Slate) SumIfOpen() int {
	if atomic.LoadInt32(&s.flag) == 0 { // slate open
		return 0
	}
	return s.Sum()
}

// SumLenIfOpen sums the items while the flag is set, and says how many
// there were.
func (s *Slate) SumLenIfOpen() (int, int) {
	if atomic.LoadInt32(&s.flag) == 0 { // slate open len
		return 0, 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	items, t := s.items, 0 // slate sum len
	for _, v := range items {
		t += v
	}
	return t, len(items)
}

// Shelf is tally's scope with one of its metric maps: Clear deletes
// every key (clearMetrics), ClearIfOpen clears it unless it was closed.
// Two clears of one shelf leave it empty whichever comes first.
type Shelf struct {
	mu   sync.Mutex
	open int32
	m    map[string]int
}

// ClearIfOpen clears the shelf while it is open.
func (s *Shelf) ClearIfOpen() {
	if atomic.LoadInt32(&s.open) == 0 { // shelf open
		return
	}
	s.Clear()
}

// Clear deletes every key.
func (s *Shelf) Clear() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for k := range s.m { // shelf clear
		delete(s.m, k) // shelf clear delete
	}
}

// ClearCountedIfOpen clears the shelf while it is open and says how many
// keys it deleted.
func (s *Shelf) ClearCountedIfOpen() int {
	if atomic.LoadInt32(&s.open) == 0 { // shelf open counted
		return 0
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for k := range s.m { // shelf clear counted
		delete(s.m, k)
		n++
	}
	return n
}

// Drop deletes k.
func (s *Shelf) Drop(k string) {
	s.mu.Lock()
	delete(s.m, k) // shelf drop
	s.mu.Unlock()
}

// Put inserts k.
func (s *Shelf) Put(k string) {
	s.mu.Lock()
	s.m[k] = 1 // shelf put
	s.mu.Unlock()
}

// Close closes the shelf.
func (s *Shelf) Close() {
	atomic.StoreInt32(&s.open, 0) // shelf close
}

// CachedReportTold emits the updated gauges of the slice and returns how
// many it came to.
func (m *Meter) CachedReportTold(emit func(string, uint64)) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	gs := m.slice // meter cached report told, for the range below
	for _, g := range gs {
		g.report(m.prefix, emit)
	}
	return len(gs)
}

// CachedReportCount emits the updated gauges of the slice and returns how
// many it came to, counted in the loop.
func (m *Meter) CachedReportCount(emit func(string, uint64)) int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	n := 0
	for _, g := range m.slice { // meter cached report local
		g.report(m.prefix, emit)
		n++
	}
	return n
}

// IdxStore is cornelk/hashmap's index (store.go): addItem loads a slot
// and, when it is empty, swaps the new item in by a CAS from nil, the
// constant the load was just tested against; when it holds an item with
// a larger key hash, by a CAS from that item. Either CAS failing loads
// the slot again.
type IdxStore[K comparable, V any] struct {
	slots [4]unsafe.Pointer
	count atomic.Uintptr
}

type IdxItem[K comparable, V any] struct {
	hash uintptr
	key  K
	val  V
}

func (s *IdxStore[K, V]) addItem(item *IdxItem[K, V]) uintptr {
	ptr := &s.slots[item.hash&3]
	for {
		element := (*IdxItem[K, V])(atomic.LoadPointer(ptr)) // idx load
		if element == nil {
			if atomic.CompareAndSwapPointer(ptr, nil, unsafe.Pointer(item)) { // idx cas nil
				return s.count.Add(1)
			}
			continue
		}
		if item.hash < element.hash {
			if !atomic.CompareAndSwapPointer(ptr, unsafe.Pointer(element), unsafe.Pointer(item)) { // idx cas element
				continue
			}
		}
		return 0
	}
}

// addBlind stores a smaller item over the slot's with no CAS: nothing
// sends it back to load the slot again.
func (s *IdxStore[K, V]) addBlind(item *IdxItem[K, V]) {
	ptr := &s.slots[item.hash&3]
	element := (*IdxItem[K, V])(atomic.LoadPointer(ptr)) // idx blind load
	if element == nil || item.hash < element.hash {
		atomic.StorePointer(ptr, unsafe.Pointer(item)) // idx blind store
	}
}

func (s *IdxStore[K, V]) Fill(items []*IdxItem[K, V]) {
	for _, it := range items {
		s.addItem(it)
		s.addBlind(it)
	}
}

func UseIdxStore() {
	var s IdxStore[int, string]
	s.Fill([]*IdxItem[int, string]{{hash: 1}})
}

// Streams is cep21/circuit's MetricEventStream: its map is made by the
// function its once runs (from Serve and from Start), and Serve then
// registers into it under the lock; Listeners reads its len.
type Streams struct {
	once sync.Once
	mu   sync.Mutex
	m    map[string]chan int
}

func (s *Streams) init() {
	s.m = make(map[string]chan int) // streams once
}

func (s *Streams) Serve(key string) {
	s.once.Do(s.init)
	s.mu.Lock()
	s.m[key] = make(chan int) // streams register
	s.mu.Unlock()
}

func (s *Streams) Start() int {
	s.once.Do(s.init)
	return s.Listeners()
}

func (s *Streams) Listeners() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m) // streams len
}

// ResetStreams is Streams whose map Reset also replaces, with one that
// holds an entry: before init's store the variable need not be nil.
type ResetStreams struct {
	once sync.Once
	mu   sync.Mutex
	m    map[string]chan int
}

func (s *ResetStreams) init() {
	s.m = make(map[string]chan int) // reset streams once
}

func (s *ResetStreams) Serve(key string) {
	s.once.Do(s.init)
	s.mu.Lock()
	s.m[key] = make(chan int) // reset streams register
	s.mu.Unlock()
}

func (s *ResetStreams) Reset() {
	s.mu.Lock()
	s.m = map[string]chan int{"": nil}
	s.mu.Unlock()
}

func (s *ResetStreams) Listeners() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m) // reset streams len
}

// DirectStreams's init also runs when Clear calls it directly, after
// entries were registered: its store replaces a map that is not nil.
type DirectStreams struct {
	once sync.Once
	mu   sync.Mutex
	m    map[string]chan int
}

func (s *DirectStreams) init() {
	s.m = make(map[string]chan int) // direct streams once
}

func (s *DirectStreams) Serve(key string) {
	s.once.Do(s.init)
	s.mu.Lock()
	s.m[key] = make(chan int) // direct streams register
	s.mu.Unlock()
}

func (s *DirectStreams) Clear() { s.init() }

func (s *DirectStreams) Listeners() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.m) // direct streams len
}

// RollIndex is an atomic counter behind a getter (cep21/circuit's
// AtomicInt64).
type RollIndex struct{ atomic.Int64 }

// Get loads the index.
func (a *RollIndex) Get() int64 {
	return a.Load() // ring get
}

// Roll is cep21/circuit's RollingBuckets: Advance moves the index one
// bucket per CAS, clearing each, and retries by calling itself again,
// with its own arguments, when a CAS fails (or after its last CAS).
type Roll struct {
	N    int
	Last RollIndex
}

func (r *Roll) Advance(abs int, clear func(int)) int {
	last := int(r.Last.Get())
	if abs <= last {
		return abs % r.N
	}
	for i := 0; i < r.N && last < abs; i++ {
		if !r.Last.CompareAndSwap(int64(last), int64(last)+1) { // ring step
			return r.Advance(abs, clear)
		}
		last++
		clear(last % r.N)
	}
	r.Last.CompareAndSwap(int64(last), int64(abs)) // ring jump
	return r.Advance(abs, clear)
}

// AdvanceNext retries with another argument: the next call is no round
// of the same loop.
func (r *Roll) AdvanceNext(abs int, clear func(int)) int {
	last := int(r.Last.Get())
	if abs <= last {
		return abs % r.N
	}
	if !r.Last.CompareAndSwap(int64(last), int64(last)+1) { // ring next step
		return r.AdvanceNext(abs+1, clear)
	}
	clear((last + 1) % r.N)
	return r.AdvanceNext(abs, clear)
}

// AdvanceBlind moves the index with a plain store and calls itself again:
// no CAS validates what the next call reads.
func (r *Roll) AdvanceBlind(abs int) int {
	last := int(r.Last.Get())
	if abs <= last {
		return abs % r.N
	}
	r.Last.Store(int64(last + 1)) // ring blind store
	return r.AdvanceBlind(abs)
}

// AdvanceStale retries a failed CAS by recursion, but after a CAS that
// swapped stores the target computed from the value loaded with a plain
// store: another goroutine's move in between is overwritten.
func (r *Roll) AdvanceStale(abs int) int {
	last := int(r.Last.Get())
	if abs <= last {
		return abs % r.N
	}
	if !r.Last.CompareAndSwap(int64(last), int64(last)+1) { // stale step
		return r.AdvanceStale(abs)
	}
	r.Last.Store(int64(abs)) // stale store
	return abs % r.N
}

// GaugeShard is datadog-go's aggregator shard: a lookup under the read
// lock, then, when it missed, the write lock and the lookup again before
// the insert (the double check, gaugeWithContextBuffer).
type GaugeShard struct {
	sync.RWMutex
	gauges map[string]*int
}

func (s *GaugeShard) Gauge(key string) error {
	return s.sample(key)
}

func (s *GaugeShard) sample(key string) error {
	s.RLock()
	if g, found := s.gauges[key]; found { // gauge lookup
		*g++
		s.RUnlock()
		return nil
	}
	s.RUnlock()
	g := new(int)
	s.Lock()
	if old, found := s.gauges[key]; found { // gauge recheck
		*old++
		s.Unlock()
		return nil
	}
	if s.gauges == nil { // gauge nil check
		s.gauges = map[string]*int{} // gauge make
	}
	s.gauges[key] = g // gauge insert
	s.Unlock()
	return nil
}

// sampleBare is sample whose first lookup holds no lock (a racy hint,
// decided again under the lock).
func (s *GaugeShard) sampleBare(key string) {
	if _, found := s.gauges[key]; found { // bare lookup
		return
	}
	s.Lock()
	if _, found := s.gauges[key]; !found { // bare recheck
		s.gauges[key] = new(int) // bare insert
	}
	s.Unlock()
}

// sampleLost is sample without the re-check: another goroutine's insert
// between the lookup and the lock is overwritten.
func (s *GaugeShard) sampleLost(key string) {
	s.RLock()
	if g, found := s.gauges[key]; found { // lost lookup
		*g++
		s.RUnlock()
		return
	}
	s.RUnlock()
	g := new(int)
	s.Lock()
	if s.gauges == nil { // lost nil check
		s.gauges = map[string]*int{}
	}
	s.gauges[key] = g // lost insert
	s.Unlock()
}

// Take is the lost check: the balance tested under one lock section, then
// decremented under another; the decrement reads it again without
// deciding anything.
type Purse struct {
	mu  sync.Mutex
	bal int
}

func (p *Purse) Take(n int) bool {
	p.take(n)
	return true
}

func (p *Purse) take(n int) {
	p.mu.Lock()
	ok := p.bal >= n // purse check
	p.mu.Unlock()
	if ok {
		p.mu.Lock()
		p.bal -= n // purse take
		p.mu.Unlock()
	}
}

// Capped checks a bound on its map's size under one lock section, then
// looks the key up again under another before inserting: the re-check is
// the key's, not the bound's, and two goroutines both under the bound
// insert two keys past it.
type Capped struct {
	mu  sync.Mutex
	m   map[string]int
	max int
}

func (c *Capped) Add(k string) {
	c.add(k)
}

func (c *Capped) add(k string) {
	c.mu.Lock()
	full := len(c.m) >= c.max // capped bound
	c.mu.Unlock()
	if full {
		return
	}
	c.mu.Lock()
	if _, ok := c.m[k]; !ok { // capped recheck
		c.m[k] = 1 // capped insert
	}
	c.mu.Unlock()
}

// Compactor is akrylysov/pogreb's single-flight compaction: Compact
// claims its flag by CAS, releases it in a deferred store, and a Compact
// that finds it held returns errCompactBusy having done nothing.
type Compactor struct {
	running int32
	mu      sync.RWMutex
	pending int
	done    int
}

var errCompactBusy = errors.New("compaction in progress")

func (c *Compactor) Compact() (int, error) {
	n := 0
	if !atomic.CompareAndSwapInt32(&c.running, 0, 1) { // compactor claim
		return n, errCompactBusy
	}
	defer func() {
		atomic.StoreInt32(&c.running, 0) // compactor release
	}()
	c.mu.Lock()
	n, c.pending = c.pending, 0
	c.done += n
	c.mu.Unlock()
	return n, nil
}

// CompactQuiet's refusal returns nothing: its caller cannot tell that
// the compaction it asked for did not run.
func (c *Compactor) CompactQuiet() {
	if !atomic.CompareAndSwapInt32(&c.running, 0, 1) { // compactor quiet claim
		return
	}
	c.mu.Lock()
	c.done += c.pending
	c.pending = 0
	c.mu.Unlock()
	atomic.StoreInt32(&c.running, 0) // compactor quiet release
}

// CompactAdd queues work before it tries the claim, and leaves it to the
// holder when refused (claimdrain's shape, with an error).
func (c *Compactor) CompactAdd(k int) error {
	c.mu.Lock()
	c.pending += k // compactor add
	c.mu.Unlock()
	if !atomic.CompareAndSwapInt32(&c.running, 0, 1) { // compactor add claim
		return errCompactBusy
	}
	c.mu.Lock()
	c.done += c.pending
	c.pending = 0
	c.mu.Unlock()
	atomic.StoreInt32(&c.running, 0) // compactor add release
	return nil
}

// CompactNil's refusal says nothing went wrong.
func (c *Compactor) CompactNil() error {
	if !atomic.CompareAndSwapInt32(&c.running, 0, 1) { // compactor nil claim
		return nil
	}
	atomic.StoreInt32(&c.running, 0) // compactor nil release
	return nil
}

// CompactCounted counts the refusal in shared memory.
func (c *Compactor) CompactCounted() error {
	if !atomic.CompareAndSwapInt32(&c.running, 0, 1) { // compactor counted claim
		c.mu.Lock()
		c.pending++
		c.mu.Unlock()
		return errCompactBusy
	}
	atomic.StoreInt32(&c.running, 0) // compactor counted release
	return nil
}

// CompactOther's try expects another value than the claim's free one:
// it is no try of that claim.
func (c *Compactor) CompactOther() error {
	if !atomic.CompareAndSwapInt32(&c.running, 2, 1) { // compactor other claim
		return errCompactBusy
	}
	return nil
}

// Busy is a probe of the claim in the package's own code.
func (c *Compactor) Busy(wait func(func() bool)) {
	wait(func() bool { return atomic.LoadInt32(&c.running) == 1 }) // compactor busy probe
}

// Swapper is kelindar/event's consumer: each round of Listen's for {}
// takes the whole queue under the Cond's lock and leaves a fresh one
// for the producers (Post), which append to whatever queue stands.
type Swapper[T any] struct {
	queue []T
	stop  bool
}

// Listen runs until stopped, one round per batch.
func (s *Swapper[T]) Listen(c *sync.Cond, fn func(T)) {
	pending := make([]T, 0, 8)
	for {
		c.L.Lock()
		for len(s.queue) == 0 {
			if s.stop {
				c.L.Unlock()
				return
			}
			c.Wait()
		}
		temp := s.queue
		s.queue = pending[:0] // swapper swap
		pending = temp
		c.L.Unlock()
		for _, ev := range pending {
			fn(ev)
		}
	}
}

// Post appends ev to the queue that stands.
func (s *Swapper[T]) Post(c *sync.Cond, ev T) {
	c.L.Lock()
	s.queue = append(s.queue, ev) // swapper post
	c.L.Unlock()
	c.Broadcast()
}

// IntSwapper is Swapper without type parameters.
type IntSwapper struct {
	queue []int
	stop  bool
}

// Listen runs until stopped, one round per batch.
func (s *IntSwapper) Listen(c *sync.Cond, fn func(int)) {
	pending := make([]int, 0, 8)
	for {
		c.L.Lock()
		for len(s.queue) == 0 {
			if s.stop {
				c.L.Unlock()
				return
			}
			c.Wait()
		}
		temp := s.queue
		s.queue = pending[:0] // intswapper swap
		pending = temp
		c.L.Unlock()
		for _, ev := range pending {
			fn(ev)
		}
	}
}

// Post appends ev to the queue that stands.
func (s *IntSwapper) Post(c *sync.Cond, ev int) {
	c.L.Lock()
	s.queue = append(s.queue, ev) // intswapper post
	c.L.Unlock()
	c.Broadcast()
}

// SwapperUse instantiates Swapper, as kelindar/event's SubscribeTo does.
func SwapperUse(c *sync.Cond) {
	s := &Swapper[int]{}
	go s.Listen(c, func(int) {})
	s.Post(c, 1)
}

// Pending is xtaci/lossyconn's TimedSender: WriteTo reads a connection's
// pending count for a queueing delay, then the send adds its packets to
// the count read afresh under the lock; the sender's loop takes one off
// in between. The add keeps the take (rebuilt); a blind store of the
// count the unit read plus its own loses it.
type Pending struct {
	mu   sync.Mutex
	n    map[int]int
	last int
}

func (p *Pending) For(k int) int {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.n[k] // pending for
}

func (p *Pending) Add(k, d int) {
	p.mu.Lock()
	p.n[k] += d // pending add
	p.mu.Unlock()
}

func (p *Pending) Sub(k, d int) {
	p.mu.Lock()
	p.n[k] = p.n[k] - d // pending sub
	p.mu.Unlock()
}

func (p *Pending) Double(k int) {
	p.mu.Lock()
	p.n[k] = p.n[k] * 2 // pending double
	p.mu.Unlock()
}

func (p *Pending) Store(k, v int) {
	p.mu.Lock()
	p.n[k] = v // pending store
	p.mu.Unlock()
}

func (p *Pending) Done(k int) {
	p.mu.Lock()
	p.n[k]-- // pending done
	p.mu.Unlock()
}

// Send uses the count it read as data (the delay), then adds to it.
func (p *Pending) Send(k, d int) {
	delay := p.For(k)
	p.last = delay * 10 // pending delay
	p.Add(k, d)
}

// SendSub, SendDouble and SendStore write the count as Sub, Double and
// Store do.
func (p *Pending) SendSub(k, d int) {
	delay := p.For(k)
	p.last = delay * 10
	p.Sub(k, d)
}

func (p *Pending) SendDouble(k int) {
	delay := p.For(k)
	p.last = delay * 10
	p.Double(k)
}

func (p *Pending) SendStore(k, d int) {
	v := p.For(k)
	p.last = v * 10
	p.Store(k, v+d)
}

// Roots is cilium/statedb's root of tables: each Commit, under mu, loads
// the root afresh, builds the next one from it and publishes it with one
// atomic store; readers load it without a lock.
type Roots struct {
	mu   sync.Mutex
	root atomic.Pointer[[]int]
}

// Commit publishes the root with v added.
func (r *Roots) Commit(v int) {
	r.mu.Lock()
	next := []int{v}
	if cur := r.root.Load(); cur != nil { // roots load
		next = append(slices.Clone(*cur), v)
	}
	r.root.Store(&next) // roots store
	r.mu.Unlock()
}

// Snapshot is ReadTxn: the last committed root.
func (r *Roots) Snapshot() *[]int {
	return r.root.Load() // roots snapshot
}

// Derive is statedb's derive job: a commit, then one per round, each
// round waiting for the next batch.
func (r *Roots) Derive(batches <-chan int, stop <-chan struct{}) {
	r.Commit(0)
	for {
		r.Commit(1)
		select {
		case <-batches:
		case <-stop:
			return
		}
	}
}

// DeriveTick commits in rounds that sleep.
func (r *Roots) DeriveTick(d time.Duration) {
	r.Commit(0)
	for {
		r.Commit(1)
		time.Sleep(d)
	}
}

// DeriveBusy's rounds do not wait.
func (r *Roots) DeriveBusy(n int) {
	r.Commit(0)
	for i := 0; ; i++ {
		r.Commit(1)
		if i == n {
			return
		}
	}
}

// DeriveSome waits only in the rounds that find a batch queued.
func (r *Roots) DeriveSome(batches <-chan int) {
	r.Commit(0)
	for {
		r.Commit(1)
		if len(batches) > 0 {
			<-batches
		}
	}
}

// DeriveTwo commits twice in each round.
func (r *Roots) DeriveTwo(batches <-chan int) {
	for {
		r.Commit(0)
		r.Commit(1)
		<-batches
	}
}

// Twice commits twice in a row.
func (r *Roots) Twice() {
	r.Commit(0)
	r.Commit(1)
}

// Admit is lossyconn's WriteTo for its result: Write reads the pending
// count for a delay, then a method admits the packets on the queue's
// length read afresh under the lock and returns whether it did; the
// delay only sets the entry's time, so Write's result does not carry
// the count. WriteRefused's admit refuses a long delay: its result does.
// WriteRetry admits through a method that recurses.
type Admit struct {
	mu      sync.Mutex
	entries []int
	pending int
	max     int
}

func (q *Admit) Pending() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.pending // admit pending
}

func (q *Admit) Len() int { return len(q.entries) } // admit len

func (q *Admit) admit(n, delay int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.Len()+n > q.max {
		return false
	}
	q.entries = append(q.entries, delay)
	return true
}

func (q *Admit) admitRefusing(n, delay int) bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.Len()+n > q.max || delay > 100 {
		return false
	}
	q.entries = append(q.entries, delay)
	return true
}

func (q *Admit) admitRetry(n, delay, tries int) bool {
	if tries == 0 || q.admit(n, delay) {
		return tries > 0
	}
	return q.admitRetry(n, delay+1, tries-1)
}

func (q *Admit) Write(n int) bool {
	delay := q.Pending() * 10
	return q.admit(n, delay)
}

func (q *Admit) WriteRefused(n int) bool {
	delay := q.Pending() * 10
	return q.admitRefusing(n, delay)
}

func (q *Admit) WriteRetry(n int) bool {
	delay := q.Pending() * 10
	return q.admitRetry(n, delay, 3)
}

// WriteTries retries as often as the count says: its result depends on
// the count through the recursion's tries.
func (q *Admit) WriteTries(n int) bool {
	tries := q.Pending()
	return q.admitRetry(n, 0, tries)
}

// Claims is claimbitfixed's queue (JCTools' MpscGrowableArrayQueue
// index protocol): a producer claims slot i/2 by CASing the even index i
// to i+1, fills the slot, and stores i+2; the consumer compares its even
// index with the producer index and, when they differ, waits for the
// slot to be filled.
type Claims struct {
	idx   atomic.Uint64
	cons  atomic.Uint64
	slots [4]atomic.Pointer[int]
	last  *int
	taken int
}

// Push claims the next slot and fills it.
func (q *Claims) Push(v int) {
	for {
		i := q.idx.Load()
		if i&1 == 1 {
			continue
		}
		if q.push(i, v) {
			return
		}
	}
}

func (q *Claims) push(i uint64, v int) bool {
	if !q.idx.CompareAndSwap(i, i+1) { // claims cas
		return false
	}
	q.slots[i/2%4].Store(&v) // claims fill
	q.idx.Store(i + 2)       // claims end
	return true
}

// PushBack claims the next slot and gives the claim back, storing i
// again (claimbit's rejected count): the values before and after are
// one.
func (q *Claims) PushBack(v int) {
	for {
		i := q.idx.Load()
		if i&1 == 1 {
			continue
		}
		if q.pushBack(i, v) {
			return
		}
	}
}

func (q *Claims) pushBack(i uint64, v int) bool {
	if !q.idx.CompareAndSwap(i, i+1) { // claims back cas
		return false
	}
	q.slots[i/2%4].Store(&v) // claims back fill
	q.idx.Store(i)           // claims back end
	return true
}

// Pop waits for the claimed slot to be filled.
func (q *Claims) Pop() (int, bool) {
	c := q.cons.Load()
	if c == q.idx.Load() { // claims pop idx
		return 0, false
	}
	s := &q.slots[c/2%4]
	for n := 0; ; n++ {
		if p := s.Load(); p != nil { // claims pop slot
			s.Store(nil) // claims pop take
			q.cons.Store(c + 2)
			return *p, true
		}
		if n == 10000 {
			panic("never filled")
		}
	}
}

// PopSeen waits as Pop does but keeps every value it reads, nil ones
// included, in a field.
func (q *Claims) PopSeen() (int, bool) {
	c := q.cons.Load()
	if c == q.idx.Load() { // claims seen idx
		return 0, false
	}
	s := &q.slots[c/2%4]
	for {
		p := s.Load() // claims seen slot
		q.last = p
		if p != nil {
			s.Store(nil)
			q.cons.Store(c + 2)
			return *p, true
		}
	}
}

// PopCount waits as Pop does and counts its take in a plain field before
// it clears the slot: the exit's first recorded step is that count.
func (q *Claims) PopCount() (int, bool) {
	c := q.cons.Load()
	if c == q.idx.Load() {
		return 0, false
	}
	s := &q.slots[c/2%4]
	for {
		if p := s.Load(); p != nil { // claims count slot
			q.taken++
			s.Store(nil)
			q.cons.Store(c + 2)
			return *p, true
		}
	}
}

// MemFs is afero's MemMapFs: getData's once makes the map, with the
// root's entry, and returns it; Mkdir looks the name up under the read
// lock, then looks again and inserts under the lock.
type MemFs struct {
	mu   sync.RWMutex
	data map[string]int
	init sync.Once
}

func (m *MemFs) getData() map[string]int {
	m.init.Do(func() {
		m.data = make(map[string]int) // memfs once
		m.data["/"] = 1
	})
	return m.data // memfs get
}

func (m *MemFs) Mkdir(name string) bool {
	m.mu.RLock()
	_, ok := m.getData()[name] // memfs check
	m.mu.RUnlock()
	if ok {
		return false
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.getData()[name]; ok {
		return false
	}
	m.getData()[name] = 2 // memfs insert
	return true
}

// Touch keeps getData's result, looks the name up in it and inserts
// through it: the map it read is the one it changes.
func (m *MemFs) Touch(name string) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	d := m.getData()
	_, ok := d[name] // memfs kept
	if !ok {
		d[name] = 3
	}
	return ok
}

// Has computes the key by a call after getData's: that call may read
// the map again, and the lookup's map is then not the last one read.
func (m *MemFs) Has(name string) bool {
	m.mu.RLock()
	defer m.mu.RUnlock()
	_, ok := m.getData()[clean(name)] // memfs keyed
	return ok
}

func clean(name string) string { return "/" + name }

// Router is pion vnet's router with a duplication filter (issue 26):
// its loop takes a chunk from its queue under the queue's lock and hands
// it to a filter, which looks a bucket up in its own map under its own
// lock; a bucket's timer deletes its bucket and then pushes its chunks
// into the queue. The queue and the bucket map share no invariant: a
// step that returns what it saw of the queue and only tests the bucket
// it found mixes the two nowhere. The other steps combine the two
// values (one result, one branch, one call, a decided use), which an
// inconsistent pair of them can make wrong.
type Router struct {
	qmu     sync.Mutex
	queue   []int
	fmu     sync.Mutex
	buckets map[int]int
	last    int
}

// Fire is the bucket's timer: it takes the bucket, then pushes.
func (r *Router) Fire(k int) {
	r.fmu.Lock()
	delete(r.buckets, k) // router fire delete
	r.fmu.Unlock()
	r.qmu.Lock()
	r.queue = append(r.queue, k) // router fire push
	r.qmu.Unlock()
}

func (r *Router) queued() int {
	r.qmu.Lock()
	defer r.qmu.Unlock()
	return len(r.queue) // router queued
}

// schedule makes the bucket of k when there is none: its lookup decides
// its own insert only.
func (r *Router) schedule(k int) {
	r.fmu.Lock()
	defer r.fmu.Unlock()
	if _, ok := r.buckets[k]; !ok { // router schedule
		r.buckets[k] = 1
	}
}

// count returns the bucket's count.
func (r *Router) count(k int) int {
	r.fmu.Lock()
	defer r.fmu.Unlock()
	return r.buckets[k] // router count
}

// mark notes k when the bucket's count exceeds n: the two meet here,
// and nothing comes back.
func (r *Router) mark(k, n int) {
	r.fmu.Lock()
	defer r.fmu.Unlock()
	if r.buckets[k] > n { // router mark
		r.last = k
	}
}

// Step returns the queue's length and schedules k's bucket: the two
// values never meet.
func (r *Router) Step(k int) int {
	n := r.queued()
	r.schedule(k)
	return n
}

// StepSum returns the queue's length plus the bucket's count.
func (r *Router) StepSum(k int) int {
	n := r.queued()
	return n + r.count(k)
}

// StepPair returns both.
func (r *Router) StepPair(k int) (int, int) {
	n := r.queued()
	return n, r.count(k)
}

// StepCompare compares the two in a branch, and returns the length.
func (r *Router) StepCompare(k int) int {
	n := r.queued()
	if r.count(k) > n {
		r.last = k
	}
	return n
}

// StepMark hands the length to the method that reads the count and
// compares it there.
func (r *Router) StepMark(k int) int {
	n := r.queued()
	r.mark(k, n)
	return n
}

// StepKept keeps the count where the length says.
func (r *Router) StepKept(k int) int {
	n := r.queued()
	c := r.count(k)
	if n > 0 {
		r.last = c
	}
	return n
}

// StepIf schedules the bucket only when the queue holds something.
func (r *Router) StepIf(k int) int {
	n := r.queued()
	if n > 0 {
		r.schedule(k)
	}
	return n
}

// Flush takes the queue and then the buckets, each in its own critical
// section, into one list (datadog-go's flushMetrics, its shards then its
// histograms): the two meet in its result.
func (r *Router) Flush() []int {
	out := r.takeQueue()
	return r.takeBuckets(out)
}

func (r *Router) takeQueue() []int {
	r.qmu.Lock()
	defer r.qmu.Unlock()
	q := r.queue // router take queue
	r.queue = nil
	return q
}

func (r *Router) takeBuckets(out []int) []int {
	r.fmu.Lock()
	b := r.buckets // router take buckets
	r.buckets = map[int]int{}
	r.fmu.Unlock()
	for k := range b {
		out = append(out, k)
	}
	return out
}

// Stopper is miekg/dns's Server: Serve sets started and loops while
// isStarted holds, reading through an interface (dns's Reader), and
// leaves when a read fails after a stop; read skips setting a deadline
// once stopped. Stop clears started, and Restart sets it. The other
// methods change one use of the flag.
type Stopper struct {
	mu       sync.RWMutex
	started  bool
	deadline int
	was      bool
	resets   int
	q        []int
}

// StopReader is dns's Reader, StopDefault its defaultReader.
type StopReader interface {
	Read(in chan int) error
	Kept(in chan int) error
	Keep(v int)
}

type StopDefault struct{ s *Stopper }

func (d StopDefault) Read(in chan int) error { return d.s.read(in) }
func (d StopDefault) Kept(in chan int) error { return d.s.readKept(in) }
func (d StopDefault) Keep(v int)             { d.s.keep(v) }

func (s *Stopper) isStarted() bool {
	s.mu.RLock()
	started := s.started // stopper started
	s.mu.RUnlock()
	return started
}

func (s *Stopper) Serve(in chan int) error {
	s.mu.Lock()
	if s.started { // stopper once
		s.mu.Unlock()
		return errors.New("already started")
	}
	s.started = true // stopper begin
	s.mu.Unlock()
	var r StopReader = StopDefault{s}
	for s.isStarted() {
		if err := r.Read(in); err != nil {
			if !s.isStarted() {
				return nil
			}
			return err
		}
	}
	return nil
}

func (s *Stopper) read(in chan int) error {
	s.mu.RLock()
	if s.started { // stopper deadline
		s.deadline = 1
	}
	s.mu.RUnlock()
	if _, ok := <-in; !ok {
		return errors.New("closed")
	}
	return nil
}

// ServeReset resets the server and goes on when a read fails after a
// stop: the flag's stop value does work, and keeps the loop going.
func (s *Stopper) ServeReset(in chan int) error {
	s.mu.Lock()
	s.started = true // stopper reset begin
	s.mu.Unlock()
	var r StopReader = StopDefault{s}
	for s.isStarted() {
		if err := r.Read(in); err != nil {
			if !s.isStarted() {
				s.resets++
				continue
			}
			return err
		}
	}
	return nil
}

// ServeKept's readKept keeps what it read of the flag.
func (s *Stopper) ServeKept(in chan int) error {
	var r StopReader = StopDefault{s}
	for s.isStarted() {
		if err := r.Kept(in); err != nil {
			return err
		}
	}
	return nil
}

func (s *Stopper) readKept(in chan int) error {
	s.mu.Lock()
	s.was = s.started // stopper kept
	s.mu.Unlock()
	if _, ok := <-in; !ok {
		return errors.New("closed")
	}
	return nil
}

// Put starts the server and hands v to keep, which keeps it only while
// started: a skip, but in no loop that the flag stops.
func (s *Stopper) Put(v int) {
	s.mu.Lock()
	s.started = true // stopper put begin
	s.mu.Unlock()
	var r StopReader = StopDefault{s}
	r.Keep(v)
}

func (s *Stopper) keep(v int) {
	s.mu.Lock()
	if s.started { // stopper keep
		s.q = append(s.q, v)
	}
	s.mu.Unlock()
}

// Open starts the server and returns false at once if stopped since: a
// check that leaves, in straight code.
func (s *Stopper) Open() bool {
	s.mu.Lock()
	s.started = true // stopper open begin
	s.mu.Unlock()
	if !s.isStarted() {
		return false
	}
	s.mu.Lock()
	s.q = append(s.q, 1)
	s.mu.Unlock()
	return true
}

func (s *Stopper) Stop() {
	s.mu.Lock()
	s.started = false // stopper stop
	s.mu.Unlock()
}

func (s *Stopper) Restart() {
	s.mu.Lock()
	s.started = true // stopper restart
	s.mu.Unlock()
}

// Line holds a backend session that Close logs out once: the nil check,
// the logout and the clear under one lock (go-smtp's Conn.Close), so a
// second Close, by the connection itself or by a server closing every
// live connection, finds nil and skips it.
type Line struct {
	mu   sync.Mutex
	sess Session
}

type Session interface{ Logout() }

func (l *Line) SetSession(s Session) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.sess = s // takeclear set
}

func (l *Line) Close() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil { // takeclear check
		l.sess.Logout() // takeclear act
		l.sess = nil    // takeclear clear
	}
}

// CloseSplit logs out outside the lock: two Closes can both find the
// session and log it out twice.
func (l *Line) CloseSplit() {
	l.mu.Lock()
	if l.sess != nil { // takeclear split check
		s := l.sess // takeclear split act
		l.mu.Unlock()
		s.Logout()
		l.mu.Lock()
		l.sess = nil // takeclear split clear
	}
	l.mu.Unlock()
}

// Drop clears the session without logging it out: nothing does the
// unit's work on it.
func (l *Line) Drop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil { // takeclear drop check
		l.sess = nil // takeclear drop clear
	}
}

// CloseAs logs out the session for a caller: two runs differ by it.
func (l *Line) CloseAs(who string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.sess != nil { // takeclear as check
		l.sess.Logout() // takeclear as act
		if who != "" {
			l.sess = nil // takeclear as clear
		}
	}
}

// Reset clears the session with no check.
func (l *Line) Reset() {
	l.mu.Lock()
	l.sess = nil // takeclear reset
	l.mu.Unlock()
}

// FastPool is ants's Pool: Submit checks IsClosed on a fast path, then
// retrieve takes a worker from the stack under the lock, or starts one
// when the stack is empty; a worker puts itself back (revert) only after
// re-checking the flag under the lock; Release CASes the state to closed
// and resets the stack under the lock. ReleaseBare resets it without the
// lock.
type FastPool struct {
	state   int32
	lock    sync.Locker
	workers fastQueue
}

const (
	fastOpen = iota
	fastClosed
)

var errFastClosed = errors.New("closed")

type fastQueue interface {
	insert(w *FastWorker) error
	detach() *FastWorker
	reset()
}

type FastStack struct{ items []*FastWorker }

func newFastStack(n int) *FastStack {
	return &FastStack{items: make([]*FastWorker, 0, n)}
}

type FastWorker struct {
	pool interface{ revert(w *FastWorker) bool }
	task chan func()
}

func (w *FastWorker) run() {
	go func() {
		for f := range w.task {
			if f == nil {
				return
			}
			f()
			if !w.pool.revert(w) {
				return
			}
		}
	}()
}

func (s *FastStack) len() int {
	return len(s.items) // fast len
}

func (s *FastStack) insert(w *FastWorker) error {
	s.items = append(s.items, w) // fast insert
	return nil
}

func (s *FastStack) detach() *FastWorker {
	l := s.len()
	if l == 0 {
		return nil
	}
	w := s.items[l-1]
	s.items[l-1] = nil
	s.items = s.items[:l-1] // fast detach
	return w
}

func (s *FastStack) reset() {
	for i := 0; i < s.len(); i++ {
		s.items[i].task <- nil
		s.items[i] = nil // fast clear slot
	}
	s.items = s.items[:0] // fast reset
}

func (p *FastPool) IsClosed() bool {
	return atomic.LoadInt32(&p.state) == fastClosed // fast closed
}

func (p *FastPool) Submit(task func()) error {
	if p.IsClosed() {
		return errFastClosed
	}
	w := p.retrieve()
	w.task <- task
	return nil
}

func (p *FastPool) retrieve() *FastWorker {
	p.lock.Lock()
	w := p.workers.detach()
	if w == nil {
		w = &FastWorker{pool: p, task: make(chan func(), 1)}
		w.run()
	}
	p.lock.Unlock()
	return w
}

func (p *FastPool) revert(w *FastWorker) bool {
	if p.IsClosed() {
		return false
	}
	p.lock.Lock()
	if p.IsClosed() {
		p.lock.Unlock()
		return false
	}
	_ = p.workers.insert(w)
	p.lock.Unlock()
	return true
}

func (p *FastPool) Release() {
	if !atomic.CompareAndSwapInt32(&p.state, fastOpen, fastClosed) { // fast release
		return
	}
	p.lock.Lock()
	p.workers.reset()
	p.lock.Unlock()
}

func (p *FastPool) ReleaseBare() {
	if !atomic.CompareAndSwapInt32(&p.state, fastOpen, fastClosed) { // fast release bare
		return
	}
	p.workers.reset()
}

// LeakyPool is ants before its issue 113: revert puts the worker back
// without re-checking the flag under the lock, so a worker started by a
// Submit that overlapped Release waits in the emptied stack for good.
type LeakyPool struct {
	state   int32
	lock    sync.Mutex
	workers *LeakyStack
}

type LeakyStack struct{ items []*FastWorker }

// PublishedLeaky publishes its stack before filling it: a grow of a
// shared stack, unlike newFastStack's composite literal.
func PublishedLeaky(p *LeakyPool, w *FastWorker) {
	s := &LeakyStack{}
	p.workers = s
	s.items = append(s.items, w) // leaky published grow
}

func (s *LeakyStack) len() int {
	return len(s.items) // leaky len
}

func (s *LeakyStack) insert(w *FastWorker) {
	s.items = append(s.items, w) // leaky insert
}

func (s *LeakyStack) detach() *FastWorker {
	l := s.len()
	if l == 0 {
		return nil
	}
	w := s.items[l-1]
	s.items = s.items[:l-1]
	return w
}

func (s *LeakyStack) reset() {
	s.items = nil // leaky reset
}

func (p *LeakyPool) IsClosed() bool {
	return atomic.LoadInt32(&p.state) == fastClosed // leaky closed
}

func (p *LeakyPool) Submit(task func()) error {
	if p.IsClosed() {
		return errFastClosed
	}
	p.lock.Lock()
	w := p.workers.detach()
	if w == nil {
		w = &FastWorker{pool: p, task: make(chan func(), 1)}
		w.run()
	}
	p.lock.Unlock()
	w.task <- task
	return nil
}

func (p *LeakyPool) revert(w *FastWorker) bool {
	p.lock.Lock()
	p.workers.insert(w)
	p.lock.Unlock()
	return true
}

func (p *LeakyPool) Release() {
	atomic.StoreInt32(&p.state, fastClosed) // leaky release
	p.lock.Lock()
	p.workers.reset()
	p.lock.Unlock()
}

// QueuePool's Submit appends its task to a queue that Release drains:
// a Submit that read "open" before Release appends after the drain, and
// its task is lost.
type QueuePool struct {
	closed atomic.Bool
	mu     sync.Mutex
	tasks  []func()
}

func (p *QueuePool) Submit(task func()) error {
	if p.closed.Load() { // queue closed
		return errFastClosed
	}
	p.mu.Lock()
	p.tasks = append(p.tasks, task) // queue append
	p.mu.Unlock()
	return nil
}

func (p *QueuePool) Release() []func() {
	p.closed.Store(true) // queue release
	p.mu.Lock()
	t := p.tasks
	p.tasks = nil // queue drain
	p.mu.Unlock()
	return t
}

// WakeLock is go-trylock's lock: Unlock drops the state with an atomic
// add and, on 0, broadcasts by swapping in a fresh channel under lock and
// closing the old one; a waiter fetches the channel and, woken, starts
// its loop over (wakeRetried). The other Wake* types each break one
// condition.
type WakeLock struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func NewWakeLock() *WakeLock { return &WakeLock{ch: make(chan struct{}, 1)} }

func (m *WakeLock) Lock(done <-chan struct{}) bool {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return true
		}
		ch := m.channel()
		select {
		case <-ch:
		case <-done:
			return false
		}
	}
}

func (m *WakeLock) LockPlain() {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return
		}
		<-m.channel()
	}
}

func (m *WakeLock) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakelock release
		m.broadcast()
	}
}

func (m *WakeLock) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeLock) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakelock swap
	m.lock.Unlock()
	close(ch)
}

// WakeOnce's waiter takes a wake-up for the lock: it leaves its loop.
type WakeOnce struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func (m *WakeOnce) Lock() {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return
		}
		ch := m.channel()
		select {
		case <-ch:
			return
		}
	}
}

func (m *WakeOnce) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakeonce release
		m.broadcast()
	}
}

func (m *WakeOnce) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeOnce) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakeonce swap
	m.lock.Unlock()
	close(ch)
}

// WakeCount's waiter counts its wake-ups and gives up after three.
type WakeCount struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func (m *WakeCount) Lock() bool {
	for tries := 0; tries < 3; tries++ {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return true
		}
		<-m.channel()
	}
	return false
}

func (m *WakeCount) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakecount release
		m.broadcast()
	}
}

func (m *WakeCount) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeCount) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakecount swap
	m.lock.Unlock()
	close(ch)
}

// WakeKeep's broadcast replaces the channel without closing the old one.
type WakeKeep struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func (m *WakeKeep) Lock() {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return
		}
		<-m.channel()
	}
}

func (m *WakeKeep) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakekeep release
		m.broadcast()
	}
}

func (m *WakeKeep) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeKeep) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakekeep swap
	m.lock.Unlock()
	select {
	case ch <- struct{}{}:
	default:
	}
}

// WakeMore's broadcast also counts its wake-ups.
type WakeMore struct {
	state int32
	wakes int
	ch    chan struct{}
	lock  sync.Mutex
}

func (m *WakeMore) Lock() {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return
		}
		<-m.channel()
	}
}

func (m *WakeMore) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakemore release
		m.broadcast()
	}
}

func (m *WakeMore) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeMore) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakemore swap
	m.wakes++
	m.lock.Unlock()
	close(ch)
}

// WakeValue hands its getter out as a method value, which a caller may
// use as it likes (here to close the channel: a second close).
type WakeValue struct {
	state int32
	ch    chan struct{}
	lock  sync.Mutex
}

func (m *WakeValue) Lock() {
	for {
		if atomic.CompareAndSwapInt32(&m.state, 0, 1) {
			return
		}
		<-m.channel()
	}
}

func (m *WakeValue) Getter() func() chan struct{} { return m.channel }

func (m *WakeValue) Unlock() {
	if atomic.AddInt32(&m.state, -1) == 0 { // wakevalue release
		m.broadcast()
	}
}

func (m *WakeValue) channel() chan struct{} {
	m.lock.Lock()
	ch := m.ch
	m.lock.Unlock()
	return ch
}

func (m *WakeValue) broadcast() {
	newCh := make(chan struct{}, 1)
	m.lock.Lock()
	ch := m.ch
	m.ch = newCh // wakevalue swap
	m.lock.Unlock()
	close(ch)
}

// NameLocks is moby/locker's Locker: Lock counts itself as a waiter for
// the name's lock under the map's lock, and Unlock deletes the name's
// entry only when no one waits (handedOn).
type NameLocks struct {
	mu    sync.Mutex
	locks map[string]*nameCtr
}

type nameCtr struct {
	mu      sync.Mutex
	waiters int32
	hits    uint32
}

func (c *nameCtr) inc()         { atomic.AddInt32(&c.waiters, 1) }        // handed inc
func (c *nameCtr) dec()         { atomic.AddInt32(&c.waiters, -1) }       // handed dec
func (c *nameCtr) add(n int32)  { atomic.AddInt32(&c.waiters, n) }        // handed add n
func (c *nameCtr) hit()         { atomic.AddUint32(&c.hits, ^uint32(0)) } // handed hit
func (c *nameCtr) count() int32 { return atomic.LoadInt32(&c.waiters) }   // handed count

func (l *NameLocks) Lock(name string) {
	l.mu.Lock()
	c, ok := l.locks[name]
	if !ok {
		c = &nameCtr{}
		l.locks[name] = c
	}
	c.inc()
	l.mu.Unlock()
	c.mu.Lock()
	c.dec()
}

func (l *NameLocks) Unlock(name string) {
	l.mu.Lock()
	c := l.locks[name]
	if c.count() == 0 {
		delete(l.locks, name)
	}
	c.mu.Unlock()
	l.mu.Unlock()
}

// Windows keeps one bucket per time window, go-metrics' InmemSink:
// current gets or creates the bucket of the present window; Add puts a
// count into it; Snapshot forces the current window's creation and then
// copies the buckets. currentLate creates the next window's bucket on a
// miss, not the one its test looks for.
type Windows struct {
	mu      sync.RWMutex
	width   time.Duration
	buckets []*Bucket
}

// Bucket is one window's counts.
type Bucket struct {
	mu     sync.Mutex
	Start  time.Time
	Counts map[string]int
}

// NewBucket makes an empty bucket for the window from start.
func NewBucket(start time.Time) *Bucket {
	return &Bucket{Start: start, Counts: make(map[string]int)}
}

func (w *Windows) current() *Bucket {
	start := time.Now().Truncate(w.width)
	w.mu.RLock()
	n := len(w.buckets)                             // windows found len
	if n > 0 && w.buckets[n-1].Start.Equal(start) { // windows found test
		defer w.mu.RUnlock()
		return w.buckets[n-1] // windows found elem
	}
	w.mu.RUnlock()
	w.mu.Lock()
	defer w.mu.Unlock()
	n = len(w.buckets)
	if n > 0 && w.buckets[n-1].Start.Equal(start) {
		return w.buckets[n-1]
	}
	b := NewBucket(start)
	w.buckets = append(w.buckets, b) // windows append
	return b
}

func (w *Windows) currentLate() *Bucket {
	start := time.Now().Truncate(w.width)
	w.mu.Lock()
	defer w.mu.Unlock()
	n := len(w.buckets)                             // late found len
	if n > 0 && w.buckets[n-1].Start.Equal(start) { // late found test
		return w.buckets[n-1] // late found elem
	}
	b := NewBucket(start.Add(w.width))
	w.buckets = append(w.buckets, b) // late append
	return b
}

func (w *Windows) Add(k string) {
	b := w.current()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.Counts[k]++ // windows add
}

func (w *Windows) AddLate(k string) {
	b := w.currentLate()
	b.mu.Lock()
	defer b.mu.Unlock()
	b.Counts[k]++ // late add
}

func (w *Windows) Snapshot() []map[string]int {
	w.current()
	w.mu.RLock()
	defer w.mu.RUnlock()
	var out []map[string]int
	for _, b := range w.buckets { // windows snap range
		b.mu.Lock()
		m := make(map[string]int, len(b.Counts))
		for k, v := range b.Counts { // windows snap counts
			m[k] = v
		}
		b.mu.Unlock()
		out = append(out, m)
	}
	return out
}

// currentLoose tests under the read lock and appends under the write
// lock without testing again: another append may come between.
func (w *Windows) currentLoose() *Bucket {
	start := time.Now().Truncate(w.width)
	w.mu.RLock()
	n := len(w.buckets)
	if n > 0 && w.buckets[n-1].Start.Equal(start) {
		defer w.mu.RUnlock()
		return w.buckets[n-1]
	}
	w.mu.RUnlock()
	b := NewBucket(start)
	w.mu.Lock()
	w.buckets = append(w.buckets, b) // loose append
	w.mu.Unlock()
	return b
}

// Names is moby/locker's Locker with the adds inline (NameLocks has
// them in methods): Lock finds or makes the name's entry
// and adds itself as a waiter under the map's lock, then takes the
// name's lock; Unlock deletes the entry when its count says no one
// waits. LockCounted is a Lock that keeps its add's result.
type Names struct {
	mu    sync.Mutex
	locks map[string]*nameSlot
}

type nameSlot struct {
	mu      sync.Mutex
	waiters int32
}

func (n *Names) Lock(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // names lookup
	if !ok {
		c = &nameSlot{}
		n.locks[name] = c // names create
	}
	atomic.AddInt32(&c.waiters, 1) // names add
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1) // names take back
}

func (n *Names) LockCounted(name string) int32 {
	n.mu.Lock()
	c, ok := n.locks[name] // names counted lookup
	if !ok {
		c = &nameSlot{}
		n.locks[name] = c
	}
	k := atomic.AddInt32(&c.waiters, 1) // names counted add
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
	return k
}

func (n *Names) Unlock(name string) {
	n.mu.Lock()
	c := n.locks[name]
	if atomic.LoadInt32(&c.waiters) == 0 {
		delete(n.locks, name) // names delete
	}
	c.mu.Unlock()
	n.mu.Unlock()
}

// WQueue is golang-queue's schedule: a worker's deferred decrement of the
// busy count, then a fresh read of it through two getters' returns
// compared with the worker limit, a plain field (witnessKept). Every
// write of busy is an atomic add of a constant.
type wMetric struct{ busy int64 }

func (m *wMetric) IncBusy()           { atomic.AddInt64(&m.busy, 1) }         // witness inc
func (m *wMetric) DecBusy()           { atomic.AddInt64(&m.busy, ^int64(0)) } // witness dec
func (m *wMetric) BusyWorkers() int64 { return atomic.LoadInt64(&m.busy) }    // witness load

type WQueue struct {
	sync.Mutex
	metric  *wMetric
	limit   int64
	ready   chan struct{}
	skipped int
	last    int64
}

func (q *WQueue) BusyWorkers() int64 { return q.metric.BusyWorkers() }

func (q *WQueue) work() {
	defer func() {
		q.metric.DecBusy()
		q.schedule()
	}()
	q.metric.IncBusy()
}

func (q *WQueue) schedule() {
	q.Lock()
	defer q.Unlock()
	if q.BusyWorkers() >= q.limit { // witness test
		q.skipped++ // witness full
		return
	}
	select {
	case q.ready <- struct{}{}: // witness send
	default:
	}
}

// scheduleEq wakes only at the limit (retryloop's `==`).
func (q *WQueue) scheduleEq() {
	q.Lock()
	defer q.Unlock()
	if q.BusyWorkers() == q.limit-1 { // witness eq
		select {
		case q.ready <- struct{}{}: // witness eq send
		default:
		}
	}
}

// scheduleFirst loads the limit before it reads the count.
func (q *WQueue) scheduleFirst() {
	q.Lock()
	defer q.Unlock()
	if q.limit <= q.BusyWorkers() { // witness first
		return
	}
	select {
	case q.ready <- struct{}{}: // witness first send
	default:
	}
}

// scheduleKept also keeps the count it read.
func (q *WQueue) scheduleKept() {
	q.Lock()
	defer q.Unlock()
	n := q.BusyWorkers() // witness kept
	q.last = n
	if n >= q.limit {
		return
	}
	select {
	case q.ready <- struct{}{}: // witness kept send
	default:
	}
}

// wGauge's count is also stored plainly (Reset): its adds do not give
// its values.
type wGauge struct{ n int64 }

func (g *wGauge) Dec()        { atomic.AddInt64(&g.n, -1) }     // witness gauge dec
func (g *wGauge) Load() int64 { return atomic.LoadInt64(&g.n) } // witness gauge load
func (g *wGauge) Reset()      { g.n = 0 }

type WGaugeQueue struct {
	g     *wGauge
	limit int64
	ready chan struct{}
}

func (q *WGaugeQueue) Reset() { q.g.Reset() }

func (q *WGaugeQueue) schedule() {
	if q.g.Load() >= q.limit { // witness gauge test
		return
	}
	q.ready <- struct{}{} // witness gauge send
}

// Made is moby/locker's Locker once more, for madeEntry: Lock's
// get-or-create makes a fresh zero madeSlot, a type of a mutex and a
// count touched only by atomic loads and blind adds; Unlock deletes the
// entry when no one is counted. The variants each break one condition:
// a create branch that locks the new slot, one that counts the entries
// it made, a found value used apart from the made one, and entry types
// with a data field and with an add whose result is kept.
type Made struct {
	mu    sync.Mutex
	locks map[string]*madeSlot
	made  int
	data  map[string]*dataSlot
	kept  map[string]*keptSlot
}

type madeSlot struct {
	mu      sync.Mutex
	waiters int32
}

func (n *Made) Lock(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // made lookup
	if !ok {
		c = &madeSlot{}
		n.locks[name] = c // made create
	}
	atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
}

func (n *Made) LockHeld(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // made held lookup
	if !ok {
		c = &madeSlot{}
		c.mu.Lock()
		n.locks[name] = c // made held create
		n.mu.Unlock()
		return
	}
	atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
}

func (n *Made) LockCounting(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // made counting lookup
	if !ok {
		c = &madeSlot{}
		n.locks[name] = c // made counting create
		n.made++
	}
	atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
}

func (n *Made) LockApart(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // made apart lookup
	if !ok {
		c = &madeSlot{}
		n.locks[name] = c // made apart create
	} else {
		atomic.AddInt32(&c.waiters, 1)
	}
	atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
}

func (n *Made) LockUnlocked(name string) {
	n.mu.Lock()
	c, ok := n.locks[name] // made unlocked lookup
	n.mu.Unlock()
	if !ok {
		c = &madeSlot{}
		n.locks[name] = c // made unlocked create
	}
	atomic.AddInt32(&c.waiters, 1)
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
}

func (n *Made) Unlock(name string) {
	n.mu.Lock()
	c := n.locks[name] // made unlock lookup
	if atomic.LoadInt32(&c.waiters) == 0 {
		delete(n.locks, name) // made delete
	}
	c.mu.Unlock()
	n.mu.Unlock()
}

type dataSlot struct {
	mu      sync.Mutex
	waiters int32
	owner   string
}

func (n *Made) LockData(name string) {
	n.mu.Lock()
	c, ok := n.data[name] // made data lookup
	if !ok {
		c = &dataSlot{}
		n.data[name] = c // made data create
	}
	atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
	c.owner = name
}

func (n *Made) UnlockData(name string) {
	n.mu.Lock()
	c := n.data[name]
	if atomic.LoadInt32(&c.waiters) == 0 {
		delete(n.data, name) // made data delete
	}
	c.mu.Unlock()
	n.mu.Unlock()
}

type keptSlot struct {
	mu      sync.Mutex
	waiters int32
}

func (n *Made) LockKept(name string) int32 {
	n.mu.Lock()
	c, ok := n.kept[name] // made kept lookup
	if !ok {
		c = &keptSlot{}
		n.kept[name] = c // made kept create
	}
	k := atomic.AddInt32(&c.waiters, 1)
	n.mu.Unlock()
	c.mu.Lock()
	atomic.AddInt32(&c.waiters, -1)
	return k
}

func (n *Made) UnlockKept(name string) {
	n.mu.Lock()
	c := n.kept[name]
	if atomic.LoadInt32(&c.waiters) == 0 {
		delete(n.kept, name) // made kept delete
	}
	c.mu.Unlock()
	n.mu.Unlock()
}

// Squad is ants' pool: Submit checks the running count against the
// capacity and starts a worker (through its interface, as ants'
// retrieveWorker does), whose run adds one to the count and drops the
// sum; the goroutine run starts adds minus one on its way out and tests
// that sum. runCounted returns its own sum instead.
type Squad struct {
	running int32
	limit   int32
	idle    chan struct{}
	w       squadWorker
}

type squadWorker interface{ run() }

var errSquadFull = errors.New("squad full")

func (c *Squad) Running() int32 {
	return atomic.LoadInt32(&c.running) // squad running
}

func (c *Squad) addRunning(d int32) int32 {
	return atomic.AddInt32(&c.running, d) // squad add
}

func (c *Squad) run() {
	c.addRunning(1)
	go func() {
		defer func() {
			if c.addRunning(-1) == 0 { // squad exit
				close(c.idle)
			}
		}()
	}()
}

func (c *Squad) runCounted() int32 {
	n := c.addRunning(1)
	go func() {
		if c.addRunning(-1) == 0 {
			close(c.idle)
		}
	}()
	return n
}

// runLater hands the sum to a goroutine it starts: that goroutine, not
// run's caller, uses it.
func (c *Squad) runLater() {
	go func() {
		if c.addRunning(1) > c.limit {
			close(c.idle)
		}
	}()
	c.addRunning(1)
}

func (c *Squad) Submit() error {
	if c.limit > c.Running() {
		c.w.run()
		return nil
	}
	return errSquadFull
}

func (c *Squad) SubmitCounted() (int32, error) {
	if c.limit > c.Running() {
		return c.runCounted(), nil
	}
	return 0, errSquadFull
}

func (c *Squad) SubmitLater() error {
	if c.limit > c.Running() {
		var l interface{ runLater() } = c
		l.runLater()
		return nil
	}
	return errSquadFull
}

// PollJobs is caddyserver/certmagic's jobManager: its worker releases a
// job's name and its worker count in two critical sections, which a
// test polls (TestPollJobs, TestJudgePoll).
type PollJobs struct {
	mu     sync.Mutex
	names  map[string]struct{}
	active int
}

func (j *PollJobs) worker(name string) {
	j.mu.Lock()
	delete(j.names, name) // polljobs delete
	j.mu.Unlock()
	j.mu.Lock()
	j.active-- // polljobs decrement
	j.mu.Unlock()
}

// SCache is istio's Cache over its lruCache (TestJudgeSuperseded): Set
// adds to the write count, then loads it and sets the writes gauge to
// the total (superseded); SetID is an id generator's add then load, the
// id keying the map and returned; SetKept keeps the total besides the
// gauge, SetCmp compares it.
type SCache struct {
	writes atomic.Uint64
	gauge  sGauge
	mu     sync.Mutex
	items  map[uint64]string
	last   uint64
}

type sStats struct{ Writes, Hits uint64 }

func (c *SCache) stats() sStats {
	return sStats{Writes: c.writes.Load()} // superseded load
}

type sGauge struct {
	mu sync.Mutex
	v  float64
}

func (g *sGauge) Set(v float64) {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.v = v // superseded store
}

func (c *SCache) Set() {
	c.writes.Add(1) // superseded add
	c.record()
}

func (c *SCache) record() {
	s := c.stats()
	c.gauge.Set(float64(s.Writes))
}

func (c *SCache) SetID(name string) uint64 {
	c.writes.Add(1)       // superseded id add
	id := c.writes.Load() // superseded id load
	c.mu.Lock()
	c.items[id] = name
	c.mu.Unlock()
	return id
}

func (c *SCache) SetKept() {
	c.writes.Add(1)      // superseded kept add
	n := c.writes.Load() // superseded kept load
	c.gauge.Set(float64(n))
	c.mu.Lock()
	c.last = n // superseded kept store
	c.mu.Unlock()
}

func (c *SCache) SetCmp() {
	c.writes.Add(1)                  // superseded cmp add
	if n := c.writes.Load(); n > 1 { // superseded cmp load
		c.gauge.Set(float64(n))
	}
}

// HotCold is prometheus' histogram's hot/cold scheme: the low 63 bits
// of countAndHot count observations, the top bit picks the hot shard.
type HotCold struct {
	countAndHot uint64
	shards      [2]hcShard
}

type hcShard struct{ n uint64 }

// Observe uses only the top bit of its add's result.
func (h *HotCold) Observe() {
	n := atomic.AddUint64(&h.countAndHot, 1) // hc observe
	s := &h.shards[n>>63]
	atomic.AddUint64(&s.n, 1) // hc shard
}

// Flip changes the hot shard, leaving the count.
func (h *HotCold) Flip() {
	atomic.AddUint64(&h.countAndHot, 1<<63) // hc flip
}

// HotColdLow picks its shard by the count's low bit.
type HotColdLow struct {
	countAndHot uint64
	shards      [2]hcShard
}

func (h *HotColdLow) Observe() {
	n := atomic.AddUint64(&h.countAndHot, 1) // hc low observe
	s := &h.shards[n&1]
	atomic.AddUint64(&s.n, 1) // hc low shard
}

// HotColdMid picks its shard by bit 40: 2^40 adds carry into it.
type HotColdMid struct {
	countAndHot uint64
	shards      [2]hcShard
}

func (h *HotColdMid) Observe() {
	n := atomic.AddUint64(&h.countAndHot, 1) // hc mid observe
	s := &h.shards[(n>>40)&1]
	atomic.AddUint64(&s.n, 1) // hc mid shard
}

// HotColdSet is HotCold with a Set that stores any count.
type HotColdSet struct {
	countAndHot uint64
	shards      [2]hcShard
}

func (h *HotColdSet) Observe() {
	n := atomic.AddUint64(&h.countAndHot, 1) // hc set observe
	s := &h.shards[n>>63]
	atomic.AddUint64(&s.n, 1) // hc set shard
}

func (h *HotColdSet) Set(v uint64) { atomic.StoreUint64(&h.countAndHot, v) }

// HotColdReset is HotCold with a Reset that stores the hot bit and a
// zero count, as prometheus' histogram's resetCounts does.
type HotColdReset struct {
	countAndHot uint64
	shards      [2]hcShard
}

func (h *HotColdReset) Observe() {
	n := atomic.AddUint64(&h.countAndHot, 1) // hc reset observe
	s := &h.shards[n>>63]
	atomic.AddUint64(&s.n, 1) // hc reset shard
}

func (h *HotColdReset) Reset(hot uint64) { atomic.StoreUint64(&h.countAndHot, hot<<63+1) }

// HotColdSum is HotCold with float sums added by a CAS loop (prometheus'
// atomicAddFloat); Merge flips and adds to the new hot sum.
type HotColdSum struct {
	countAndHot uint64
	sums        [2]uint64
}

func (h *HotColdSum) Observe(v float64) {
	n := atomic.AddUint64(&h.countAndHot, 1) // hcs observe
	hcAddFloat(&h.sums[n>>63], v)
}

func (h *HotColdSum) Merge(v float64) {
	n := atomic.AddUint64(&h.countAndHot, 1<<63) // hcs flip
	hcAddFloat(&h.sums[n>>63], v)
}

func (h *HotColdSum) MergeStore(v float64) {
	n := atomic.AddUint64(&h.countAndHot, 1<<63)            // hcs flip store
	atomic.StoreUint64(&h.sums[n>>63], math.Float64bits(v)) // hcs store
}

func (h *HotColdSum) MergeOnce(v float64) {
	n := atomic.AddUint64(&h.countAndHot, 1<<63) // hcs flip once
	hcTryAdd(&h.sums[n>>63], v)
}

func hcAddFloat(bits *uint64, v float64) {
	for {
		old := atomic.LoadUint64(bits)                                                             // hcs load
		if atomic.CompareAndSwapUint64(bits, old, math.Float64bits(math.Float64frombits(old)+v)) { // hcs cas
			return
		}
	}
}

// hcTryAdd gives up when its CAS fails: an add that can be lost.
func hcTryAdd(bits *uint64, v float64) bool {
	old := atomic.LoadUint64(bits)
	return atomic.CompareAndSwapUint64(bits, old, math.Float64bits(math.Float64frombits(old)+v)) // hcs try
}

// Reply is socket.io's HttpContext: Write claims the reply (committed)
// under mu, writes unlocked, and finishes with state|finalizing under mu
// again. Readers test the state in different ways between the two.
type Reply struct {
	mu    sync.Mutex
	state atomic.Int32
	name  string
}

const (
	replyCommitted = 1
	replyFinal     = 2
)

var errReplied = errors.New("replied")

func (c *Reply) Write() error {
	c.mu.Lock()
	if c.Done() {
		c.mu.Unlock()
		return errReplied
	}
	c.state.Store(replyCommitted) // reply commit
	c.mu.Unlock()
	c.finish()
	return nil
}

func (c *Reply) finish() {
	c.mu.Lock()
	c.state.Store(c.state.Load() | replyFinal) // reply finish
	c.mu.Unlock()
}

// WriteOver closes with a plain store of a constant that a zero test
// tells from the intermediate one.
func (c *Reply) WriteOver() {
	c.state.Store(replyCommitted) // reply commit over
	c.state.Store(0)              // reply reset
}

// Claim takes the reply by CAS from idle and gives it back: a reader
// that sees the claim answers a test for finalizing as before it.
func (c *Reply) Claim() {
	if c.state.CompareAndSwap(0, replyCommitted) { // reply claim
		c.state.Store(0) // reply release
	}
}

// Rename stores two names.
func (c *Reply) Rename() {
	c.name = "busy" // reply busy
	c.name = "idle" // reply idle
}

// Done is true on committed and on anything|finalizing alike.
func (c *Reply) Done() bool { return c.state.Load() != 0 }

// Finalizing tells the two apart: false on committed, true after.
func (c *Reply) Finalizing() bool { return c.state.Load()&replyFinal != 0 }

// OnlyCommitted tells them apart too: (x|2) == 1 never holds.
func (c *Reply) OnlyCommitted() bool { return c.state.Load() == replyCommitted }

// Committed masks the bit committed sets, which state|finalizing keeps
// only if it was there: not a constant outcome.
func (c *Reply) Committed() bool { return c.state.Load()&replyCommitted != 0 }

// State returns the value itself.
func (c *Reply) State() int32 { return c.state.Load() }

// Against compares with a variable.
func (c *Reply) Against(n int32) bool { return c.state.Load() != n }

// Named tests the name against a constant.
func (c *Reply) Named() bool { return c.name != "" }

// Idle tells the names apart.
func (c *Reply) Idle() bool { return c.name == "idle" }

// Claimed reads the state twice: the first test answers as after the
// Write, the second (== committed) does not.
func (c *Reply) Claimed() bool { return c.state.Load() != 0 && c.state.Load() == replyCommitted }

// Asking is true only on required: as neither idle (before a blind
// request's CAS) nor processing (after its claim) is.
func (d *Drain) Asking() bool {
	v := d.status.Load()
	return v != drainIdle && v < drainProcessing
}

// RecvBucket is smux's token bucket (session.go's recvLoop): each round
// of a for {} waits while no tokens are left, then takes a frame's
// length from the bucket; a reader's Return adds tokens back. The wait
// loop is the round's first statement, so go/ssa's jump threading
// removes the for {}'s header, which held only the jump into the wait
// loop, and the for {}'s back edge lands on the wait loop's header.
type RecvBucket struct {
	tokens int32
	spins  int32
	notify chan struct{}
	frames chan int32
}

func (b *RecvBucket) Recv() {
	for {
		for atomic.LoadInt32(&b.tokens) <= 0 { // recvbucket wait
			atomic.AddInt32(&b.spins, 1) // recvbucket spin
			<-b.notify
		}
		n, ok := <-b.frames
		if !ok {
			return
		}
		atomic.AddInt32(&b.tokens, -n) // recvbucket take
	}
}

// Overdrawn takes a frame's length, then reads the bucket back in the
// same round to tell whether its own take overdrew it: a Return between
// is read as if the take had left that much.
func (b *RecvBucket) Overdrawn() bool {
	for {
		for atomic.LoadInt32(&b.tokens) <= 0 { // overdrawn wait
			<-b.notify
		}
		n, ok := <-b.frames
		if !ok {
			return false
		}
		atomic.AddInt32(&b.tokens, -n)       // overdrawn take
		if atomic.LoadInt32(&b.tokens) < 0 { // overdrawn check
			return true
		}
	}
}

func (b *RecvBucket) Return(n int32) {
	atomic.AddInt32(&b.tokens, n) // recvbucket return
}

// RaftLog is seaweedfs/raft's Log: the leader appends an entry and then
// commits it, each under the lock on its own (appendedPrefix).
type RaftLog struct {
	mu      sync.RWMutex
	entries []*RaftEntry
	spare   []*RaftEntry
	commit  uint64
	start   uint64
}

type RaftEntry struct{ Index, Term uint64 }

func (l *RaftLog) Append(e *RaftEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.entries, e) // raftlog append
}

// AppendSpare appends to another slice than the one it stores into.
func (l *RaftLog) AppendSpare(e *RaftEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append(l.spare, e) // raftlog append spare
}

// Prepend puts the entry first: every element moves.
func (l *RaftLog) Prepend(e *RaftEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries = append([]*RaftEntry{e}, l.entries...) // raftlog prepend
}

func (l *RaftLog) SetCommit(n uint64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.commit = n // raftlog commit
}

// CommitInfo is raft's commitInfo: the last committed entry.
func (l *RaftLog) CommitInfo() (uint64, uint64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.commit == 0 { // raftlog commit zero
		return 0, 0
	}
	e := l.entries[l.commit-1-l.start] // raftlog committed entry
	return e.Index, e.Term
}

// Status returns the count of entries beside the commit index.
func (l *RaftLog) Status() (int, uint64) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	n := len(l.entries) // raftlog status
	return n, l.commit  // raftlog status commit
}

// Uncommitted returns the entries past the commit index.
func (l *RaftLog) Uncommitted() []*RaftEntry {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.commit == 0 { // raftlog uncommitted zero
		return nil
	}
	return l.entries[l.commit-l.start:] // raftlog uncommitted slice
}

// Restamp writes the committed entry's slot in place.
func (l *RaftLog) Restamp(e *RaftEntry) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.entries[l.commit-1] = e // raftlog restamp
}

// LastEntry loads the last entry by the length it takes first.
func (l *RaftLog) LastEntry() *RaftEntry {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if l.commit == 0 { // raftlog last zero
		return nil
	}
	n := len(l.entries)
	return l.entries[n-1] // raftlog last entry
}

// Machine is seaweedfs/raft's server: each transition is a setState call
// under the lock, and Loop runs the step of the state it finds. follow
// moves to the candidate state; campaign, a later activation of the
// loop's, checks the state afresh before it promotes (rereadAbove).
type Machine struct {
	mu    sync.RWMutex
	state int
	last  int
}

const (
	mFollower = iota
	mCandidate
	mLeader
	mStopped
)

func (m *Machine) State() int {
	m.mu.RLock()
	defer m.mu.RUnlock()
	return m.state // machine state
}

func (m *Machine) setState(s int) {
	m.mu.Lock()
	m.state = s // machine set
	m.mu.Unlock()
}

func (m *Machine) Loop() {
	for st := m.State(); st != mStopped; st = m.State() {
		switch st {
		case mFollower:
			m.follow()
		case mCandidate:
			m.campaign()
		}
	}
}

func (m *Machine) follow() { m.setState(mCandidate) }

func (m *Machine) campaign() {
	for m.State() == mCandidate {
		m.setState(mLeader)
		return
	}
}

// Elect promotes without a re-check: the candidate state is its middle.
func (m *Machine) Elect() {
	m.follow()
	m.promote()
}

func (m *Machine) promote() { m.setState(mLeader) }

// ElectChecked re-checks in the activation that made a too: the read
// may be of the round before.
func (m *Machine) ElectChecked() {
	m.setState(mCandidate)
	if m.State() == mCandidate {
		m.setState(mLeader)
	}
}

// ElectCopy's later activation reads the state only to copy it.
func (m *Machine) ElectCopy() {
	m.follow()
	m.promoteCopy()
}

func (m *Machine) promoteCopy() {
	m.last = m.State()
	m.setState(mLeader)
}

// Leader is hashicorp/raft's leader record: setLeader swaps the address
// under the lock and notifies when it changed; setState clears it first.
type Leader struct {
	mu    sync.Mutex
	addr  string
	state int
}

func (l *Leader) setLeader(addr string) {
	l.mu.Lock()
	old := l.addr // leader old
	l.addr = addr // leader set
	l.mu.Unlock()
	if old != addr {
		l.observe(addr)
	}
}

func (l *Leader) observe(string) {}

func (l *Leader) setState(s int) {
	l.setLeader("")
	l.state = s
}

// Timeout clears the leader, then stands (raft's runFollower): both
// writes store the empty leader.
func (l *Leader) Timeout() {
	l.setLeader("")
	l.setState(1)
}

// Win leads, then records itself (raft's runCandidate): the second write
// stores a variable.
func (l *Leader) Win(self string) {
	l.setState(2)
	l.setLeader(self)
}

// Shutdown clears the leader too.
func (l *Leader) Shutdown() { l.setState(3) }

// Reset calls the setter with the empty leader and with a variable.
func (l *Leader) Reset(addr string) {
	l.setLeader("")
	if addr != "" {
		l.setLeader(addr)
	}
}

// Via clears the leader, runs a function value, then stands.
func (l *Leader) Via(f func()) {
	l.setLeader("")
	f()
	l.setState(1)
}

// Srv is seaweedfs/raft's server: Start returns when Running, Init
// returns when Running and stores Initialized, then Start goes on to
// setState(Follower); a peer's vote asks Running in between.
type Srv struct {
	mu    sync.RWMutex
	state string
	term  int
}

func (s *Srv) Running() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state != "stopped" && s.state != "initialized" // srv running
}

// Started answers otherwise on Initialized: true.
func (s *Srv) Started() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state != "stopped" // srv started
}

// Peeked reads the term too.
func (s *Srv) Peeked() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state != "stopped" && s.term > 0 // srv peeked
}

func (s *Srv) setState(st string) {
	s.mu.Lock()
	s.state = st // srv set
	s.mu.Unlock()
}

func (s *Srv) Init() error {
	if s.Running() {
		return errors.New("running")
	}
	s.mu.Lock()
	s.state = "initialized" // srv init
	s.mu.Unlock()
	return nil
}

// Stopped answers otherwise on Initialized than on Stopped.
func (s *Srv) Stopped() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.state == "stopped" // srv stopped
}

// InitStopped goes on when Stopped, which Initialized answers otherwise.
func (s *Srv) InitStopped() error {
	if !s.Stopped() {
		return errors.New("running")
	}
	s.mu.Lock()
	s.state = "initialized" // srv init stopped
	s.mu.Unlock()
	return nil
}

func (s *Srv) voteStopped() bool {
	if s.Stopped() {
		return false
	}
	return true
}

// InitTwice asks Running twice: which answer went on to the store?
func (s *Srv) InitTwice() error {
	if s.Running() {
		return errors.New("running")
	}
	ok := s.Running()
	s.mu.Lock()
	s.state = "initialized" // srv init twice
	s.mu.Unlock()
	_ = ok
	return nil
}

func (s *Srv) Start() error {
	if err := s.Init(); err != nil {
		return err
	}
	s.setState("follower")
	return nil
}

func (s *Srv) vote() bool {
	if !s.Running() {
		return false
	}
	return true
}

// Transport is hashicorp/raft's InmemTransport: Connect stores a peer's
// transport in the peers map under the lock; MakeRPC looks one up and
// calls it. FullyConnect connects each ordered pair, both ways, so each
// map gets each peer twice, the same pointer (storedAgain).
type Transport struct {
	mu    sync.RWMutex
	peers map[string]*Transport
	addr  string
	n     int
}

func (t *Transport) Connect(addr string, p *Transport) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.peers[addr] = p // transport connect
}

func (t *Transport) MakeRPC(addr string) int {
	t.mu.RLock()
	p, ok := t.peers[addr] // transport lookup
	t.mu.RUnlock()
	if !ok {
		return -1
	}
	return p.Serve()
}

func (t *Transport) Serve() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.n++
	return t.n
}

func FullyConnect(ts []*Transport) {
	for i, t1 := range ts {
		for j, t2 := range ts {
			if i != j {
				t1.Connect(t2.addr, t2)
				t2.Connect(t1.addr, t1)
			}
		}
	}
}

// slideBucket and Slider are goresilience's bucketWindow (circuitbreaker
// metrics.go): Restart resets the window twice, as a Run's two moveState
// calls do, and Slide, the window slider's tick, may fall between
// (TestJudgeUnused).
type slideBucket struct{ total int }

type Slider struct {
	mu      sync.Mutex
	size    int
	buckets []*slideBucket
	current *slideBucket
	next    int
	log     []int
}

func (w *Slider) Reset() {
	w.mu.Lock()
	defer w.mu.Unlock()
	buckets := make([]*slideBucket, w.size)
	for i := range buckets {
		buckets[i] = &slideBucket{}
	}
	w.buckets = buckets // slider reset
	w.current = buckets[0]
	w.next = 1 // slider next
}

func (w *Slider) Slide() {
	w.mu.Lock()
	b := &slideBucket{}
	w.buckets[w.next] = b // slider slide
	w.current = b
	w.next++
	if w.next >= len(w.buckets) { // slider wrap
		w.next = 0
	}
	w.mu.Unlock()
}

// SlideLogged hands the window's length to a method.
func (w *Slider) SlideLogged() {
	w.mu.Lock()
	w.note(len(w.buckets)) // slider note
	w.mu.Unlock()
}

func (w *Slider) note(n int) { w.log = append(w.log, n) }

// SlideWrapNoted wraps the index and notes it: the branch decides a call.
func (w *Slider) SlideWrapNoted() {
	w.mu.Lock()
	if w.next >= len(w.buckets) { // slider wrap noted
		w.next = 0
		w.note(0)
	}
	w.mu.Unlock()
}

// SlideAcross carries the window round its loop.
func (w *Slider) SlideAcross(n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	var last []*slideBucket
	for i := 0; i < n; i++ {
		if last != nil {
			last[0] = &slideBucket{}
		}
		last = w.buckets // slider across
	}
}

func (w *Slider) Restart() {
	w.Reset()
	w.Reset()
}

// SlideDivided divides by the window's length: a panic it may decide.
func (w *Slider) SlideDivided() {
	w.mu.Lock()
	w.next = w.size / len(w.buckets) // slider divided
	w.mu.Unlock()
}

// SlideKept keeps the window in a local whose address a method takes
// (not recorded by the instrumentation) and hands it on from there.
func (w *Slider) SlideKept() {
	w.mu.Lock()
	var kept slideKeep
	kept.buckets = w.buckets // slider kept
	kept.show(w)
	w.mu.Unlock()
}

type slideKeep struct{ buckets []*slideBucket }

func (k *slideKeep) show(w *Slider) { w.note(len(k.buckets)) }

// Lazy is lrita/cmap's Cmap (cmap.go:128-144, :164-210): getNode makes
// the map's node on first use by double-checked initialization (an
// atomic load, then under the lock a load again, then a node made of
// constants, published by an atomic store), and a bucket's map is made
// under the bucket's lock once its flag, tested under the lock again,
// says it is not yet made, and the flag set after it.
type Lazy struct {
	mu    sync.Mutex
	node  unsafe.Pointer // *lazyNode
	count int64
}

type lazyNode struct {
	mask    uintptr
	size    int64
	buckets []lazyBucket
}

type lazyBucket struct {
	mu   sync.RWMutex
	init int64
	m    map[string]int
}

func (l *Lazy) getNode() *lazyNode {
	n := (*lazyNode)(atomic.LoadPointer(&l.node)) // lazy fast
	if n == nil {
		l.mu.Lock()
		n = (*lazyNode)(atomic.LoadPointer(&l.node)) // lazy recheck
		if n == nil {
			n = &lazyNode{mask: 3, buckets: make([]lazyBucket, 4)}
			atomic.StorePointer(&l.node, unsafe.Pointer(n)) // lazy publish
		}
		l.mu.Unlock()
	}
	return n
}

// getNodeBare drops the check under the lock: two callers that both
// find nil both make a node, and the second replaces the first's.
func (l *Lazy) getNodeBare() *lazyNode {
	n := (*lazyNode)(atomic.LoadPointer(&l.node)) // bare fast
	if n == nil {
		l.mu.Lock()
		n = &lazyNode{mask: 3, buckets: make([]lazyBucket, 4)}
		atomic.StorePointer(&l.node, unsafe.Pointer(n)) // bare publish
		l.mu.Unlock()
	}
	return n
}

// getNodeHalf publishes the node before it fills its buckets: a caller
// that finds it on the fast path may see no buckets.
func (l *Lazy) getNodeHalf() *lazyNode {
	n := (*lazyNode)(atomic.LoadPointer(&l.node)) // half fast
	if n == nil {
		l.mu.Lock()
		n = (*lazyNode)(atomic.LoadPointer(&l.node)) // half recheck
		if n == nil {
			n = &lazyNode{mask: 3}
			atomic.StorePointer(&l.node, unsafe.Pointer(n)) // half publish
			n.buckets = make([]lazyBucket, 4)
		}
		l.mu.Unlock()
	}
	return n
}

// getNodeSized makes the node from its caller's argument: another
// caller would have made another node.
func (l *Lazy) getNodeSized(size int) *lazyNode {
	n := (*lazyNode)(atomic.LoadPointer(&l.node)) // sized fast
	if n == nil {
		l.mu.Lock()
		n = (*lazyNode)(atomic.LoadPointer(&l.node)) // sized recheck
		if n == nil {
			n = &lazyNode{mask: uintptr(size - 1), buckets: make([]lazyBucket, size)}
			atomic.StorePointer(&l.node, unsafe.Pointer(n)) // sized publish
		}
		l.mu.Unlock()
	}
	return n
}

// Len tells nil from the node without making one: it would not make
// the node had it found nil.
func (l *Lazy) Len(k string) int {
	n := (*lazyNode)(atomic.LoadPointer(&l.node)) // lazy peek
	if n == nil {
		return 0
	}
	b := &n.buckets[uintptr(len(k))&n.mask]
	b.mu.RLock()
	defer b.mu.RUnlock()
	return len(b.m) // peek len
}

func (n *lazyNode) initBucket(i uintptr) {
	b := &n.buckets[i]
	b.mu.Lock()
	if b.inited() {
		b.mu.Unlock()
		return
	}
	b.m = make(map[string]int) // bucket made
	atomic.AddInt64(&n.size, int64(len(b.m)))
	atomic.StoreInt64(&b.init, 1)
	b.mu.Unlock()
}

func (b *lazyBucket) inited() bool {
	return atomic.LoadInt64(&b.init) == 1
}

// bucket is getNode's bucket for k, made if need be.
func (l *Lazy) bucket(n *lazyNode, k string) *lazyBucket {
	i := uintptr(len(k)) & n.mask
	b := &n.buckets[i]
	if !b.inited() { // lazy inited
		n.initBucket(i)
	}
	return b
}

// Store inserts k and counts it when it is new.
func (l *Lazy) Store(k string, v int) {
	l.put(l.getNode(), k, v)
}

func (l *Lazy) put(n *lazyNode, k string, v int) {
	b := l.bucket(n, k)
	b.mu.Lock()
	l0 := len(b.m) // lazy len
	b.m[k] = v     // lazy insert
	length := len(b.m)
	b.mu.Unlock()
	if l0 != length {
		atomic.AddInt64(&l.count, 1)
	}
}

// StoreBare, StoreHalf and StoreSized are Store through getNodeBare,
// getNodeHalf and getNodeSized.
func (l *Lazy) StoreBare(k string, v int)  { l.put(l.getNodeBare(), k, v) }
func (l *Lazy) StoreHalf(k string, v int)  { l.put(l.getNodeHalf(), k, v) }
func (l *Lazy) StoreSized(k string, v int) { l.put(l.getNodeSized(len(k)+1), k, v) }

// LateBucket is lazyBucket whose initLate sets the flag, releases the
// lock and makes the map after it: another caller that finds the flag
// set may find no map yet.
type LateBucket struct {
	mu   sync.Mutex
	init int64
	m    map[string]int
}

func (b *LateBucket) initLate() {
	b.mu.Lock()
	if atomic.LoadInt64(&b.init) == 1 {
		b.mu.Unlock()
		return
	}
	atomic.StoreInt64(&b.init, 1)
	b.mu.Unlock()
	b.mu.Lock()
	b.m = make(map[string]int) // bucket late
	b.mu.Unlock()
}

func (b *LateBucket) Put(k string, v int) int {
	if atomic.LoadInt64(&b.init) != 1 {
		b.initLate()
	}
	b.mu.Lock()
	l0 := len(b.m) // late len
	b.m[k] = v     // late insert
	b.mu.Unlock()
	return l0
}

// JobQueue is goresilience's dynamicQueue: the one dequeuer tests
// isEmpty, len(jobs) < 1 under the lock, and on false takes the lock
// again to dequeue; the enqueuer only appends (lenAlike).
type JobQueue struct {
	mu   sync.Mutex
	jobs []func()
	out  chan func()
	stop chan struct{}
}

func (q *JobQueue) isEmpty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1 // jobqueue check
}

func (q *JobQueue) enqueue(j func()) {
	q.mu.Lock()
	q.jobs = append(q.jobs, j) // jobqueue append
	q.mu.Unlock()
}

func (q *JobQueue) dequeuer() {
	for {
		select {
		case <-q.stop:
			return
		default:
		}
		if q.isEmpty() {
			continue
		}
		q.mu.Lock()
		job := q.jobs[0]    // jobqueue head
		q.jobs = q.jobs[1:] // jobqueue take
		q.mu.Unlock()
		q.out <- job
	}
}

// KeyLocks is bool64/cache v0.4.8's Failover.Get with SyncRead, cut
// down: Get publishes a per-key build lock under mu and deletes it (in a
// deferred function) when its build is done; a caller that finds the
// lock and whose read of the store hits returns that value, skipping
// only the store into the lock it found, and one that misses waits for
// the lock in a callee (wait).
type KeyLocks struct {
	mu    sync.Mutex
	locks map[string]*keyLock
	read  func() (int, bool)
}

type keyLock struct {
	done chan struct{}
	val  int
}

func (k *KeyLocks) Get(key string, build func() int) int {
	k.mu.Lock()
	l, found := k.locks[key] // keylocks lookup
	if !found {
		l = &keyLock{done: make(chan struct{})}
		k.locks[key] = l // keylocks insert
	}
	k.mu.Unlock()
	defer func() {
		if !found {
			k.mu.Lock()
			delete(k.locks, key) // keylocks delete
			close(l.done)
			k.mu.Unlock()
		}
	}()
	if v, ok := k.read(); ok {
		if !found {
			l.val = v // keylocks val
		}
		return v
	}
	if found {
		return k.wait(l)
	}
	l.val = build()
	return l.val
}

func (k *KeyLocks) wait(l *keyLock) int {
	<-l.done
	return l.val
}

// CountQueue is goresilience's dynamicQueue with its queueStats: the one
// dequeuer tests isEmpty, takes the head under the lock again and
// uncounts it (dec reads the count); the enqueuer counts its job and
// appends it (lenAhead).
type CountQueue struct {
	mu    sync.Mutex
	jobs  []func()
	stats CountStats
	out   chan func()
	stop  chan struct{}
}

// CountStats is the queue's count and the time it was last empty.
type CountStats struct {
	mu      sync.Mutex
	size    int
	empties int
}

func (s *CountStats) inc() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.size++ // countqueue inc
}

func (s *CountStats) dec() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.size--
	if s.size <= 0 { // countqueue dec
		s.empties++
	}
}

func (q *CountQueue) isEmpty() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return len(q.jobs) < 1 // countqueue check
}

func (q *CountQueue) enqueue(j func()) {
	q.stats.inc()
	q.mu.Lock()
	q.jobs = append(q.jobs, j) // countqueue append
	q.mu.Unlock()
}

func (q *CountQueue) dequeuer() {
	for {
		select {
		case <-q.stop:
			return
		default:
		}
		if q.isEmpty() {
			continue
		}
		q.mu.Lock()
		job := q.jobs[0]
		q.jobs = q.jobs[1:]
		q.mu.Unlock()
		q.stats.dec()
		q.out <- job
	}
}

// LFStack is lockfree's LLStack (static/depend's restarted): Push's CAS
// retry loop goes back, when the CAS fails, through a loop condition
// that reads the size afresh and may give up. The other Push* methods
// are near misses, whose failed round leaves something behind.
type LFStack struct {
	head     atomic.Pointer[lfElem]
	size     atomic.Int32
	last     atomic.Pointer[lfElem]
	capacity int32
}

type lfElem struct {
	value atomic.Pointer[any]
	next  atomic.Pointer[lfElem]
	tries int
}

func (s *LFStack) Full() bool { return s.size.Load() == s.capacity }

func (s *LFStack) Push(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load() // lfstack push load
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) { // lfstack push cas
			s.size.Add(1) // lfstack push size
			return true
		}
	}
	return false
}

// PushYield backs off after a failed CAS: a yield leaves nothing.
func (s *LFStack) PushYield(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load()
		e.next.Store(h)
		if !s.head.CompareAndSwap(h, e) { // lfstack yield cas
			time.Sleep(time.Microsecond)
			continue
		}
		s.size.Add(1)
		return true
	}
	return false
}

// PushTries gives up after two failed CASes: the round counts, and the
// count reaches the next round's condition through the loop head's phi.
func (s *LFStack) PushTries(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for tries := 0; !s.Full() && tries < 2; tries++ {
		h := s.head.Load() // lfstack tries load
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) { // lfstack tries cas
			s.size.Add(1)
			return true
		}
	}
	return false
}

// PushNoted notes in shared state the head each round tried.
func (s *LFStack) PushNoted(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load()
		s.last.Store(h)
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) { // lfstack noted cas
			s.size.Add(1)
			return true
		}
	}
	return false
}

// PushLinked links the node only to a non-nil head: a failed round's
// link survives into a round that finds the stack empty.
func (s *LFStack) PushLinked(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load()
		if h != nil {
			e.next.Store(h)
		}
		if s.head.CompareAndSwap(h, e) { // lfstack linked cas
			s.size.Add(1)
			return true
		}
	}
	return false
}

// PushCounted counts its failed rounds in the node it publishes.
func (s *LFStack) PushCounted(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load()
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) { // lfstack counted cas
			s.size.Add(1)
			return true
		}
		e.tries++
	}
	return false
}

// Pop is lockfree's LLStack.Pop (claimAdd): after its swap it counts
// down with an add whose result it drops, as Push counts up.
func (s *LFStack) Pop() (any, bool) {
	h := s.head.Load()
	if h == nil {
		return nil, false
	}
	next, value := h.next.Load(), h.value.Load()
	if changed := s.head.CompareAndSwap(h, next); changed { // lfstack pop cas
		_ = s.size.Add(-1) // lfstack pop size
		return *value, true
	}
	return nil, false
}

// PopEmptied uses its add's result: it clears last when the stack
// runs empty, on the count that the adds between decide.
func (s *LFStack) PopEmptied() (any, bool) {
	h := s.head.Load()
	if h == nil {
		return nil, false
	}
	next, value := h.next.Load(), h.value.Load()
	if s.head.CompareAndSwap(h, next) { // lfstack emptied cas
		if s.size.Add(-1) == 0 { // lfstack emptied size
			s.last.Store(nil)
		}
		return *value, true
	}
	return nil, false
}

// Reset empties the stack by stores: no add to commute with Pop's.
func (s *LFStack) Reset() {
	s.head.Store(nil) // lfstack reset head
	s.size.Store(0)   // lfstack reset size
}

// GStack is LFStack's Push on a generic type, as lockfree's LLStack[Value].
type GStack[V any] struct {
	head     atomic.Pointer[gElem[V]]
	size     atomic.Int32
	capacity int32
}

type gElem[V any] struct {
	value atomic.Pointer[V]
	next  atomic.Pointer[gElem[V]]
}

func (s *GStack[V]) Full() bool { return s.size.Load() == s.capacity }

func (s *GStack[V]) Push(v V) bool {
	e := &gElem[V]{}
	e.value.Store(&v)
	for !s.Full() {
		h := s.head.Load()
		e.next.Store(h)
		if s.head.CompareAndSwap(h, e) { // gstack push cas
			s.size.Add(1) // gstack push size
			return true
		}
	}
	return false
}

// UseGStack instantiates GStack.
func UseGStack() bool { return (&GStack[int]{capacity: 4}).Push(1) }

// PushTwice pushes one node twice: after the first swap the node is
// the head, and a failed round of the second push relinks it in place.
func (s *LFStack) PushTwice(v any) bool {
	e := &lfElem{}
	e.value.Store(&v)
	for range 2 {
		for !s.Full() {
			h := s.head.Load()
			e.next.Store(h)
			if s.head.CompareAndSwap(h, e) { // lfstack twice cas
				break
			}
		}
	}
	return true
}

// Clearer marks a swap of its map with a flag (reugn/async's
// ConcurrentMap.Clear); its readers spin while the flag is set.
type Clearer struct {
	clearing atomic.Bool
	phase    atomic.Int32
	m        atomic.Pointer[map[int]int]
	waits    int
}

// Clear sets the flag, swaps the map, and clears the flag in a defer.
func (c *Clearer) Clear() {
	c.clearing.Store(true)        // clearer set
	defer c.clearing.Store(false) // clearer unset
	c.m.Store(&map[int]int{})
}

// ClearKept sets the flag twice: its end keeps readers waiting.
func (c *Clearer) ClearKept() {
	c.clearing.Store(true) // clearer kept set
	c.m.Store(&map[int]int{})
	c.clearing.Store(true) // clearer kept again
}

// Shift moves the phase through 1 to 2; readers wait while it is 1.
func (c *Clearer) Shift() {
	c.phase.Store(1) // clearer phase busy
	c.m.Store(&map[int]int{})
	c.phase.Store(2) // clearer phase done
}

// Map sleeps while the flag is set and loads the map once it is not.
func (c *Clearer) Map() map[int]int {
	for {
		if !c.clearing.Load() { // clearer spin load
			break
		}
		time.Sleep(time.Nanosecond)
	}
	return *c.m.Load()
}

// MapYield yields while the flag is set.
func (c *Clearer) MapYield() map[int]int {
	for c.clearing.Load() { // clearer yield load
		runtime.Gosched()
	}
	return *c.m.Load()
}

// MapPhase yields while the phase is 1.
func (c *Clearer) MapPhase() map[int]int {
	for c.phase.Load() == 1 { // clearer phase load
		runtime.Gosched()
	}
	return *c.m.Load()
}

// MapNow gives up on a set flag: it acts on the intermediate value.
func (c *Clearer) MapNow() map[int]int {
	if c.clearing.Load() { // clearer now load
		return nil
	}
	return *c.m.Load()
}

// MapCounted counts its waits: a round another goroutine can see.
func (c *Clearer) MapCounted() map[int]int {
	for c.clearing.Load() { // clearer counted load
		c.waits++
		runtime.Gosched()
	}
	return *c.m.Load()
}

// MapTries gives up after some rounds: its count decides too.
func (c *Clearer) MapTries() map[int]int {
	for i := 0; c.clearing.Load(); i++ { // clearer tries load
		if i > 10 {
			return nil
		}
		runtime.Gosched()
	}
	return *c.m.Load()
}

// MapSeen keeps what it read: the value is used past the test.
func (c *Clearer) MapSeen() (map[int]int, bool) {
	var seen bool
	for {
		seen = c.clearing.Load() // clearer seen load
		if !seen {
			break
		}
		time.Sleep(time.Nanosecond)
	}
	return *c.m.Load(), seen
}

// MSQueue is lockfree's queue.Queue (a Michael-Scott queue): Dequeue
// loads the tail, the head and the head's next before testing any of
// them (aheadOfUse). DequeueLate loads next from the tail it tested.
type MSQueue struct {
	head, tail atomic.Pointer[msElem]
	size       atomic.Int32
}

type msElem struct {
	value int
	next  atomic.Pointer[msElem]
}

func (q *MSQueue) Dequeue() (int, bool) {
	for {
		t := q.tail.Load()    // msqueue dequeue tail
		h := q.head.Load()    // msqueue dequeue head
		next := h.next.Load() // msqueue dequeue next
		if h != t {
			if next == nil {
				return 0, false
			}
			v := next.value // msqueue dequeue value
			if q.head.CompareAndSwap(h, next) {
				q.size.Add(-1)
				return v, true
			}
		} else {
			if next == nil {
				return 0, false
			}
			q.tail.CompareAndSwap(t, next)
		}
	}
}

func (q *MSQueue) DequeueLate() (int, bool) {
	for {
		t := q.tail.Load() // msqueue late tail
		h := q.head.Load()
		if h == t {
			return 0, false
		}
		next := h.next.Load() // msqueue late next
		if next == nil {
			return 0, false
		}
		v := next.value // msqueue late value
		if q.head.CompareAndSwap(h, next) {
			return v, true
		}
	}
}

func (q *MSQueue) DequeueFrom() (int, bool) {
	t := q.tail.Load()    // msqueue from tail
	next := t.next.Load() // msqueue from next
	if next == nil {
		return 0, false
	}
	return next.value, true // msqueue from value
}

func (q *MSQueue) Enqueue(v int) {
	e := &msElem{value: v}
	for {
		t := q.tail.Load()  // msqueue enqueue tail
		tn := t.next.Load() // msqueue enqueue tn
		if tn == nil {
			if t.next.CompareAndSwap(tn, e) { // msqueue enqueue link
				q.tail.CompareAndSwap(t, e) // msqueue enqueue swing
				return
			}
		} else {
			q.tail.CompareAndSwap(t, tn) // msqueue enqueue help
		}
	}
}

// EnqueueCounted gives up after three rounds: its count is a value one
// round carries into the next, so no round of it is void (VoidLoad).
func (q *MSQueue) EnqueueCounted(v int) bool {
	e := &msElem{value: v}
	for tries := 0; tries < 3; tries++ {
		t := q.tail.Load()  // msqueue counted tail
		tn := t.next.Load() // msqueue counted tn
		if tn == nil {
			if t.next.CompareAndSwap(tn, e) {
				q.tail.CompareAndSwap(t, e)
				return true
			}
		} else {
			q.tail.CompareAndSwap(t, tn)
		}
	}
	return false
}

// msNoted counts its Enqueue's rounds in a plain field, a write the
// trace need not show: no void round (VoidLoad).
type msNoted struct {
	q      MSQueue
	rounds int
}

func (n *msNoted) Enqueue(v int) {
	e := &msElem{value: v}
	for {
		t := n.q.tail.Load() // msqueue noted tail
		n.rounds++
		tn := t.next.Load()
		if tn == nil {
			if t.next.CompareAndSwap(tn, e) {
				n.q.tail.CompareAndSwap(t, e)
				return
			}
		} else {
			n.q.tail.CompareAndSwap(t, tn)
		}
	}
}

// msEnqueue is Enqueue as a function: no region marks its activation,
// so the trace cannot tell its next call's load from its next round's.
func msEnqueue(q *MSQueue, v int) {
	e := &msElem{value: v}
	for {
		t := q.tail.Load() // msqueue func tail
		tn := t.next.Load()
		if tn == nil {
			if t.next.CompareAndSwap(tn, e) {
				q.tail.CompareAndSwap(t, e)
				return
			}
		} else {
			q.tail.CompareAndSwap(t, tn)
		}
	}
}
