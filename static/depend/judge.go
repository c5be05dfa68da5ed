package depend

import (
	"fmt"
	"go/token"
	"go/types"
	"path"
	"slices"
	"strings"

	"golang.org/x/tools/go/ssa"
)

// Frame is a method activation an event ran in: the region-begin event
// that tells it apart from other calls, and the site of the method's name.
type Frame struct {
	ID   int32
	Site string
}

// Event is one event of a violation, in the pattern's order.
type Event struct {
	Thread, Unit int // the pattern's roles (T, AR): equal for one unit's events
	Var          int // the pattern's SV role: equal for one variable
	Read, Write  bool
	Site         string
	Frames       []Frame // outermost first
	// Reread lists the later events (indices into the violation's
	// events) before which the unit read this event's variable again at
	// this event's site, after another unit's event in between: a loop
	// that came round again (the next iteration of a range over a map
	// reads the map for its key). Such a later event is reached from
	// the fresh read, which saw the other unit's access, not from this
	// one; nothing this event read is stale at it.
	Reread []int
	// Claimed says the unit wrote this read's variable after it, before
	// any other unit's event: the read and that write are one
	// read-modify-write (a check and its reservation under one lock), so
	// its value is the unit's own, which no later write makes stale.
	Claimed bool
	// Seen lists the variables (Var roles) of the unit's later reads
	// that the unit also read right after this event, before any other
	// unit's event: this event's snapshot held them, and a later read of
	// one that is tested checks it again (redigo's GetContext finds no
	// idle connection and checks closed under one lock, dials, then tests
	// closed afresh under the lock before giving a slot back).
	Seen []int
	// Key is the hash of the map key the event accessed, 0 when it is no
	// access of one map element. Two events of one variable with non-zero
	// keys accessed one entry.
	Key int64
	// After are the sites of the unit's steps after this read, up to
	// its next event, in order: the path it took from the read, which
	// tells which way a test of the value went (boundKept).
	After []string
	// Step is the event's place in the replayed schedule; Writes, when
	// not nil, are every other goroutine's write of this read's
	// variable over the pattern's steps, the pattern's events among
	// them (boundKept asks each that falls where it matters).
	Step   int
	Writes []Touch
	// Stored, when not nil, are the sites of every write in the
	// schedule from the earliest of the pattern's steps and Writes'
	// guards to the pattern's last step (guardKeeps: the bound's
	// field stored by none).
	Stored []string
	// Overwrite, when after Step, is the step of the unit's own atomic
	// store or read-modify-write of this read's variable, the first
	// write of it by anyone after the read (a claim's release: a CAS
	// from false, then a deferred Swap(false)). What the read saw was
	// replaced by the unit itself; another unit's write after that
	// replaces the unit's value, not the one it read, so it makes the
	// read no staler than a serial order would.
	Overwrite int
	// Prior, when not nil, are the writes of this event's variable in
	// the replayed schedule from the pattern's first step up to this
	// event, by any goroutine (drainedEntry: what an atomic
	// read-modify-write read is what the last of them stored).
	Prior []Touch
	// Looks, when not nil, are the reads of this event's variable by
	// its own goroutine in the replayed schedule from the pattern's
	// first step up to this event; Untouched says no goroutine wrote
	// the variable at any step of the schedule before this event
	// (createdSeen: the reader's own get-or-create found the writer's
	// new element, and what it reads of it is as made).
	Looks     []Touch
	Untouched bool
	// Checked, for a write, are the calls made directly from the write's
	// own activation that read its variable after the last write of it
	// by any goroutine before the write, and Unchecked the callees of
	// those it made before that write (checkedAlike).
	// Steady, for a read, says every read of its variable by its own
	// activation (its innermost region, as far as the schedule shows it)
	// read the same write as it did; Open is the site of the last of
	// those reads when the schedule ends before the activation does.
	Checked   []Checked
	Unchecked []string
	Steady    bool
	Open      string
	// Fresh, for a write, are the sites of the unit's reads of its
	// variable after the other units' events before it, in its own
	// activation, with no other goroutine's write of the variable
	// between (rebuilt: a write built from one loses no write before).
	Fresh []string
	// Retried says the replay's trace shows the read's test sending its
	// goroutine back round its loop: it read the variable again at this
	// site next, or did anything but the exit's first step (retried).
	// Claim, for a read of the value another goroutine's
	// compare-and-swap stored, is that claim (claimKept).
	Retried bool
	Claim   *Claim
	// Handed, for a read, lists the earlier events (indices) of its unit
	// that wrote its variable and whose read-back here the replay shows
	// handed on: every write of the variable from that event to the
	// last read below is an atomic add of a constant; the unit held a
	// lock at this read and wrote nothing from it to that lock's
	// release; every other goroutine that wrote the variable between
	// went next to acquire that lock, with no access of the variable
	// between, and got it after the release; and the holders of the
	// lock from then on each read the variable at this site in the same
	// activations (methods), each writing nothing before its release,
	// until one read the value the unit's own writes alone give, with
	// every such goroutine among the holders by then (handedOn). Other
	// goroutines that hold no lock at this read and whose adds between,
	// or up to this read, net to zero are left out; with only those,
	// the read is of the unit's own value and listed too.
	Handed []int
	// GivenBack, for an atomic add of a constant, says its goroutine's
	// writes of the variable over the pattern's steps are all such adds,
	// summing to zero, and the goroutine released by the last step
	// every lock it took there: it took its count back, done with what
	// it counted on (addedAhead).
	GivenBack bool
	// Since, for a read of a map element, is the step of its
	// goroutine's first read of that element (the same key) from the
	// pattern's first step, this read's own step when none came before;
	// Settled says the goroutine wrote the read's variable at no step
	// from Since to the pattern's last, its atomic read-modify-writes
	// there are all adds of a constant, netting to zero on each object,
	// and it released by the last step every lock it took there: done
	// with what it found (madeEntry).
	Since   int
	Settled bool
	// Bound, for a read-back, is the site of the plain read of another
	// object that its goroutine made next, after only region ends (the
	// bound the value is compared with), and BoundAfter the sites of
	// the goroutine's steps after that read, from the replay's own
	// trace; Witnesses are earlier reads at this site of the same
	// variable, each followed in its goroutine by the same region ends
	// and a read of the same bound object at Bound, with no write of
	// that object from it to the unit's (witnessKept).
	Bound      string
	BoundAfter []string
	Witnesses  []Witness
	// Spares, for a write of one map element (a store at a key, or a
	// delete of it), says the replay's trace shows it overwrote nothing
	// another goroutine wrote: every write of its map by another
	// goroutine from the pattern's first step up to it wrote one
	// element (its key recorded), and at its own element either none
	// did, or the last of them deleted it and the write's own goroutine
	// wrote it again after that delete (spared).
	Spares bool
	// Again, for a plain read of one map element, are the pairs (i,
	// j) of the pattern's plain writes of its variable, i before it
	// and j after, whose replay's trace shows i and j storing one value
	// at the read's element (one recorded identity, trace.StoredAlike:
	// the stored bits) and no write of that element, nor of the whole
	// map, from i to j but theirs (storedAgain).
	Again [][2]int
	// Unused, for a plain read, says the replay's trace shows dead every
	// store its value reaches (depend's UnusedSinks): each write its
	// goroutine made at one of those sites, from the read to its next
	// read at the read's site in the same activation (or the
	// activation's end), is next accessed by a plain write, or by nothing
	// to the end of a run that ended normally; with a branch deciding
	// stores, so is each location they store into from the read on
	// (unusedRead).
	Unused bool
	// Len, for a read or write of a slice-typed variable, is what the
	// replay's trace shows of the stored lengths before it (trace.FlagLen,
	// lenAlike); nil when the trace was not read for it.
	Len *SliceLen
	// Ahead, for such a read a (a predicate's length-only load, with
	// Len), lists the later events b of its unit for which the replay's
	// trace shows every other goroutine's step from the start of a's
	// critical section to b free to run before it, and the length a
	// reads then (Ahead.Len; lenAhead).
	Ahead []Ahead
	// Superseded, for a read-back whose writes between, in the
	// schedule, are all atomic adds, are the sites where each of the
	// unit's writes after it (up to its next access of the variable)
	// is of an object the unit never reads after, which every goroutine
	// that added between wrote again at that site, later, after reading
	// the variable at the read-back's site after its add: the replay's
	// trace shows the unit's store overwritten by the same store of
	// each (superseded).
	Superseded []string
	// Late says the event, of one unit of a violation of two, comes
	// after the other unit's first event; then Before is the site of the
	// last write of its variable in the replayed schedule before the step
	// that began that other unit ("" when the schedule shows none), and
	// Kept says no goroutine wrote the variable from that step up to
	// this event (failedAsBefore).
	Late   bool
	Before string
	Kept   bool
	// Void, for a read, says the replay's trace shows it in a void round
	// of its goroutine: from a load that VoidLoad accepts, at or before
	// it, up to the goroutine's next load at that site in the same
	// activation, after it, the goroutine only read. Those steps can be
	// taken out of the run; what the read saw decides nothing that
	// stays (voidRounds).
	Void bool
}

// Witness is an earlier read of a read-back's variable at its site
// (Event.Witnesses): the unit's own value minus the value it read
// (Delta, from the replay's writes of the variable between it and the
// unit's write Of, an event index, all atomic adds of a constant, with
// the unit's own adds up to the read-back), and the sites of its
// goroutine's steps after its read of the bound.
type Witness struct {
	Of    int
	Delta int64
	After []string
}

// Touch is a write in the replayed schedule: its step and site, and the
// site of its goroutine's last read of the variable before it when no
// one wrote the variable between the two (a test under which it adds).
type Touch struct {
	Step  int
	Site  string
	Guard string
	G     string // the writing goroutine's name (middleKept: the unit's own)
	// Blind says the writing goroutine read the variable at no step of
	// the schedule before this write, and no goroutine read it from
	// this write to the pattern's last step: nothing it did came from
	// the variable, and no one saw the write before the pattern ended
	// (idleDelete: a stream's unconditional unregistering delete).
	Blind bool
}

// reread reports whether event i's read was repeated before event j.
func reread(evs []Event, i, j int) bool {
	for _, k := range evs[i].Reread {
		if k == j {
			return true
		}
	}
	return false
}

// Verdict says whether a violation changes a value its unit goes on to
// use, and how ("the value read at ledger.go:25 decides the write at
// ledger.go:32").
type Verdict struct {
	Holds bool
	Kind  string // "check-then-act", "read-modify-write", "lookup-then-act", …
	Why   string
	// Pair are the sites of the two events the dependence joins: one
	// bug, however many patterns and variables show it.
	Pair [2]string
}

// String is the verdict as a message clause: "check-then-act: the value
// read at ledger.go:25 decides the write at ledger.go:32".
func (v Verdict) String() string {
	if !v.Holds {
		return ""
	}
	return v.Kind + ": " + v.Why
}

// how says how a value reaches an access: its kind of dependence, and the
// phrase that says it of the access's operation.
type how struct {
	kind   string
	phrase func(op string) string
}

func control(g string) how {
	return how{"check-then-act", func(op string) string {
		if g != "" {
			return "decides the call of " + g + " that makes the " + op
		}
		return "decides the " + op
	}}
}

var (
	writtenBack = how{"read-modify-write", func(string) string { return "is written back by the write" }}
	addressing  = how{"lookup-then-act", func(op string) string { return "chooses what is accessed by the " + op }}
	passed      = how{"read-then-act", func(op string) string { return "is passed to the " + op }}
)

// Judge decides the dependence criterion for a violation's events. None
// holds when the violation, of two units, runs one of them wholly before
// the other as far as its events show: that unit's events after the
// other's first write nothing, each reads what it read before the other
// began or is a compare-and-swap that failed on a constant no value
// before the other unit can equal (failedAsBefore: hollywood's Send
// against Start's starting). Otherwise it holds when
//   - a unit's read, before another unit's event, flows into that unit's
//     later event (its value, its address, or the branch deciding it;
//     a later read only if its own value is used in turn), or into the
//     unit's result: check-then-act, read-modify-write, lookup-then-act;
//     the result counts for a later read of another variable only where
//     the two values meet (meets: pion's router returns what it saw of
//     its queue and only tests the bucket map its filter looks in);
//     unless the unit read the variable again at that site in between
//     (Event.Reread), or wrote it right after a, before the other units'
//     events (Event.Claimed: a check and its reservation), or a
//     write of a's variable in between counts only if the unit had not
//     replaced a's value by its own atomic write before it
//     (overwritten: a claim released), or the later event reads the checked variable
//     again and tests it (a re-check: rechecks), or every path from a
//     to b reads a's variable again and that value decides b (a
//     double-checked re-validation: revalidated), or every effect b
//     leads to runs past such a re-read made under a write lock held
//     through it (double-checked locking: lockedRecheck, bigcache's
//     shard.del, shimingyah/pool's decrRef);
//     unless the later event is a compare-and-swap of the variable
//     against the very value read (casAgainst: a CAS loop; casRetried:
//     the load and the CAS calls below the loop, the CAS's failure
//     returned up to it as false: ctrie's snapshot; validatedThenRetried:
//     b a retry loop's CAS entered only after the unit's CAS from a's
//     value swapped), or a or b is a wait's read that went round its
//     loop (retried: claimbitfixed's Pop, a nil slot before the
//     producer's fill), or a read a claim's intermediate value that it
//     cannot tell from the claim's end, whose events then count as
//     before a (claimKept), or b only fetches, under a lock, a completion channel the unit then waits on, which
//     every writer of a's flag closes and replaces by a closed one
//     (completionWait: Selectable's GetResult), or b is a broadcast
//     that only swaps in a fresh wake channel and closes the one it
//     replaced, whose every waiter starts its loop over when woken
//     (wakeRetried: go-trylock's RUnlock), or b is a fetch of such a
//     wake channel used only after a re-load, after b, found a's
//     variable equal to a's value (fetchRechecked: marusama's Acquire),
//     or a is a CAS that swapped and b a retry loop's CAS entered after it
//     (casThenRetried: RDCSS tried again), or a is a CAS that swapped
//     and b an atomic add whose result the unit drops, every write of
//     b's variable between such an add too (claimAdd: lockfree's Pop
//     counting down after its swap), or a is a CAS loop's load whose
//     value goes only into its round's CAS (and the round's stores),
//     and b is reached only when that CAS failed and the round started
//     over (restartedLoad: lockfree's Push reading the size afresh),
//     or a or b is a read that the replay shows in a void round of its
//     goroutine, which only read up to its loop's load again (Event.Void:
//     lockfree's Enqueue with a stale tail, its link CAS or helping
//     swing failing);
//     unless a is
//     a map lookup that missed, b is reached only on the miss, and the
//     other units only deleted from the map (missKept), or b is the
//     unit's delete of the key its lookup a found, all a decides, and
//     the other units only deleted, the pattern's that key (idleDelete:
//     tally's subscope, a closed scope removed twice), or the unit
//     claimed the key in the lookup's critical section and b writes
//     that key again (claimed: gcache's singleflight), or a and b read a value
//     and the error returned with it, whose writer stores an error nil
//     on its path between them (tornErrorRead: asynccache's Get), or
//     a reads that error and b, the value, runs only when it is nil
//     (tornErrorGuard: asynccache's GetOrSet), or a's value is only
//     compared with a bound, the unit's path shows the outcome, and the
//     other units' writes in between are adds whose sign keeps it
//     (boundKept: pond's worker count, lowered by another worker's exit),
//     or b loads a slice only to range over it and reads a nil stored
//     last (rangesNil: tally's cached report of a cleared scope), or b
//     is a loop's range that only deletes each key from the map, whose
//     other writers up to b only cleared it so too (clearedAgain: tally's
//     clearMetrics of a scope another report cleared), or a and b read a
//     stop flag that the other units only set to the value that stops
//     the loop they run in, and on which both only leave or skip work
//     (stopFlag: miekg/dns's serve loop and its Shutdown), or a is a
//     fast path's read of a stop flag and b a read of a slice that the
//     stopper, after setting the flag, emptied under a lock, and that
//     every grow in the program re-checks the flag under that lock
//     (stopFrozen: ants's Submit against Release's reset), or a is a
//     predicate's load of a slice used only through its length, on
//     which the predicate answers alike for the length a read and the
//     one b reads (or, for a write b, the last one before b), the
//     replay's trace showing both, b's another goroutine's
//     (lenAlike: goresilience's queueIsEmpty and its dequeue), or
//     a is such a load and the replay's trace shows the other
//     goroutines' steps up to b free to run before a's critical section,
//     the predicate answering on the length they leave as on a's, b of
//     any variable (lenAhead: goresilience's queueIsEmpty and the
//     dequeuer's decr of the queue's count); and a
//     write of a's variable in between makes a stale only in what it
//     changes: an atomic add of a small constant leaves the high bits
//     of a 64-bit word that the unit's shifts and masks read, every
//     write of the word in the package an add or a reset that keeps its
//     count bits from carrying into them, so only the rest of a's value
//     is judged stale (highBits: prometheus' histogram's hot index);
//   - a unit reads back a variable it wrote, after another unit wrote it
//     in between, and uses what it read (the next step of a range over a
//     map reads no value back, nor does a lookup of the key a later step
//     yielded, in another call of the method that wrote the earlier key:
//     freshKey; nor does a read of a variable the unit set to a constant
//     that is only compared with constants: checksForOthers; nor a
//     compare-and-swap retry loop's load, or its CAS against that load,
//     which loads again whenever the CAS fails: retryRead; nor a read
//     reached from the write only round a loop's back edge, which each
//     round makes afresh before the point of the write: nextIteration;
//     nor a wait's read that went round its loop: retried;
//     nor a test for empty of a slice the unit appended to: testsEmpty;
//     nor a FIFO's drain, taking heads until the queue is empty, after
//     the unit's append or take: drainTake; nor a load after the
//     unit's atomic add, only tested for equality against the add's
//     result (alike through pure functions) and retrying from the add
//     when they differ: bumpRechecked, ristretto's Allocate; nor a read
//     of a variable the unit set to a constant that every write between
//     set to that constant too (a setter's parameter counting as the
//     constant its calling activation passes): constBack, tally's
//     cleared slices, hashicorp/raft's empty leader; nor a
//     test of a take-and-clear block (under one lock, `if v != nil { use
//     v; v = nil }`) that finds the clear of another goroutine's run of
//     that very block, which took the unit's value first: takenBack,
//     go-smtp's Conn.Close run by Server.Close first; nor a
//     read of a stop flag, which the other units only set to the value
//     that stops the loop the read runs in, and which on that value
//     only leaves or skips work: stopFlag, miekg/dns's Server.started;
//     nor a count of the waiters for a lock the unit holds, which the
//     replay shows handed on to the next holders, the same code deciding
//     again until one reads the unit's own value, or whose other
//     writers between are done with it, their adds netting to zero
//     and no lock held there: handedOn, moby/locker's Unlock; nor a
//     count only ever added to by constants and read back only for an
//     ordering test against a plain field, when an earlier read at that
//     site, against the same bound unwritten since, took the unit's
//     branch on a value between the unit's own and the bound:
//     witnessKept, golang-queue's schedule; nor a counter's read-back
//     after the unit's atomic add, others' adds between, whose value is
//     only stored, at sites where each of those others stores the same
//     object again later from its own read after its add, the gauge of
//     a total: superseded, istio's Cache.Set);
//   - another unit reads the state between two of the unit's writes and
//     uses it: one variable read and used, or two variables read, the
//     first flowing into the second as above (an inconsistent pair);
//     unless the writes are in two rounds of a loop (nextIteration), or
//     before a loop whose every round waits and in its first round
//     (loopEntered: statedb's derive job, a commit, then one per round),
//     or a read of the reader's went round a wait's loop (retried), or
//     one read a claim's intermediate value, a and b both the claim's,
//     and the other a's variable but not b's: both as after the claim's
//     end (claimAfter), or the reader waits on what it found for the
//     writer to release it (handoff: singleflight's pending call), or the writer validates
//     the state afresh before its second write (published: a CAS from
//     the value it stored, or a re-read deciding the write, in b's
//     activation or in one enclosing it entered after a: rereadAbove,
//     seaweedfs/raft's candidateLoop), or the
//     reader only spins on the value the writer stored (spinsOn: a lock
//     bit that sends it back to read again; spinWaits: a flag a sets
//     and b clears, on which the reader's loop only sleeps and reads
//     again, leaving on b's value: reugn/async's smap() waiting out
//     Clear), or only compares it with a
//     value it can never equal, the writer's values before and after
//     differing (comparedApart: an odd resize bit against an even index),
//     or the second write gives back what the first added (undone: a
//     reservation of a slot), or deletes the entry, held by value, that
//     the first inserted at the same key (heldEntry: a lock-order
//     checker's record of a held lock), or zeroes the slice element,
//     held by value, that the first appended or stored (clearedSlot:
//     go-deadlock's holders of a lock), or the first deletes a key and
//     the second stores there an object the unit made, which the
//     reader's range over the map would have done nothing with, or
//     deletes it again (freshEntry: tally's scope registry, a closed
//     scope replaced by an empty one), or the reader's access is a
//     failed try of the claim the writer took at a and releases at b,
//     and the writer's drain takes again after the release (releaseRetaken:
//     stateless's losing Fire leaves its trigger to the holder), or a
//     and b are a try-lock's claim and release and the reader's access
//     is a failed try of it whose unit did nothing before and refuses
//     with an error (tryRefused: pogreb's Compact returning errBusy), or
//     a test's function literal that only returns whether the claim is
//     held, for a helper polling it (heldProbe), or a is the create
//     branch of a get-or-create under a lock, a fresh zero entry of a
//     synchronization-only type, b the delete of that key, and the
//     reader's lookup, the same get-or-create's (or its later lookup of
//     the key after one), found a's entry and was done with it, its adds
//     netted to zero and its locks released, before b (madeEntry:
//     moby/locker's Lock and Unlock between another Lock's create and
//     its Unlock's delete), or the reader only compares the value with
//     constants, each comparison's outcome on every value a stores being
//     its outcome on every value b stores, or before a CAS a from a
//     constant (answeredAlike: socket.io's IsDone, state != 0, between
//     Write's store of committed and its state|finalizing), or a and b
//     store one constant, a setter's parameter counting as what its
//     callers pass, and so does every write the reader could read
//     (sameStored: hashicorp/raft's setLeader("", "") twice), or the
//     reader's value reaches only stores that the replay's trace shows
//     dead, overwritten or never read again (unusedRead: goresilience's
//     window slider between two resets of its breaker); nor when the writer appended to
//     a queue and its second write is its claim of the queue's drain
//     (a CAS from a constant) or its release of that claim with its
//     drain taking again after, and the reader, a draining consumer,
//     claimed or released there too (drainClaim: the element is taken
//     by whichever holds the claim); nor when the reader ranges over the
//     map the writer deletes from and its swap of the flag the writer
//     drained gets the writer's constant, on which the method the range
//     calls does nothing (drainedEntry: tally's two final reports of a
//     gauge); nor when the read of the first write's
//     variable cannot tell it happened: a lazy initialization under a
//     nil check and a lock, or a flag checked under a lock, or by a
//     sync.Once, read only as a map,
//     directly or returned by a getter to the lookup the reader does
//     next (initUnseen: gcache's Group.m, afero's MemMapFs.data); nor
//     when that read is a load in the double-checked initializer whose
//     store a is, which makes its object of constants and returns V's
//     value, and read a's object: run first, the reader would have made
//     and returned an equal one (initRedone: lrita/cmap's getInode); nor when the writer published a new object and then
//     used it through the method the reader's second read ran in
//     (publishedThenUsed: go-limiter's bucket), or the reader's second
//     access and the writer's are atomic adds whose results both drop
//     (blindAdd: they commute, so the reader read one value only), or
//     the load or CAS of a CAS loop that only adds (casAdd: prometheus'
//     atomicAddFloat, its Write's merge and an Observe's add), or
//     the reader returns a value and an error and the writer's second
//     write stores an error nil on its path (tornErrorPair: the torn
//     pair is a serial result under Go's error convention), or the
//     reader tests that error and reads the value only when it is nil
//     (tornErrorGuard, from the writer's unit: asynccache's GetOrSet
//     between the refresh's two stores, asynccache.go:107 asv), or one of
//     the reader's reads only decides a bound test that the writes it
//     saw, undone, or those it missed, applied, keep (snapshotKept:
//     pond's subpool counts), or the writer's first write only appends
//     to a slice that the reader only loads elements of by index, each
//     below the old length as before the append (appendedPrefix:
//     seaweedfs/raft's commitInfo between appendEntry and
//     setCommitIndex), or the reader's own get-or-create,
//     after a, found a's fresh element, which it reads as made
//     (createdSeen: go-metrics' Data between AddSample's getInterval
//     and its add), or the reader's second access and the writer's
//     first are atomic adds whose results both drop, nothing wrote the
//     variable of the reader's first read since the writer's first
//     write, and the reader took its add back and released its locks
//     before the writer's second write (addedAhead: the reader's view
//     is the state before both writes, and the second breaks nothing
//     it still counts on; moby/locker's Lock finding the name's entry
//     between another Lock's add and its Unlock's delete),
//     or either of the reader's reads is in a void round of its
//     goroutine (Event.Void: lockfree's Enqueue, its link CAS failing
//     inside another's link and swing, then its next round's tail
//     load);
//   - and in a check-then-act, a later read in a method that only tests
//     a flag afresh under a lock it re-takes, sets it and wakes a
//     receiver that re-reads the checked state is no use of a's value
//     (relockedHint: ttlcache's notifyExpiration).
//
// A value is used when it reaches a branch, a store to shared memory
// (other than back into the variable it was read from: an increment is
// no use), a channel send, an index or a pointer through which memory is
// accessed, a call of another method, or the unit's result.
func (x *Index) Judge(evs []Event) Verdict {
	if x.failedAsBefore(evs) {
		return Verdict{}
	}
	other := func(i, k int) bool { return evs[k].Unit != evs[i].Unit || evs[k].Thread != evs[i].Thread }
	for i := range evs {
		for j := i + 1; j < len(evs); j++ {
			a, b := evs[i], evs[j]
			if other(i, j) {
				continue
			}
			var between []int
			for k := i + 1; k < j; k++ {
				if other(i, k) {
					between = append(between, k)
				}
			}
			if len(between) == 0 {
				continue
			}
			// stale: another unit wrote what a read before b, so a's
			// value is out of date at b; newer: another unit wrote what
			// b reads, so b's value is newer than a's. With neither (an
			// atomic-set violation whose other unit touched only a
			// third variable before b), a's value is still current.
			stale, newer := false, false
			judged := between
			if x.claimKept(a) {
				// The claim's events are before a, which acts as a read
				// after the claim's end.
				judged = slices.DeleteFunc(slices.Clone(between), func(k int) bool { return slices.Contains(a.Claim.Within, k) })
			}
			// high: the writes that made a stale all left the bits of
			// its value that some of its uses see (highBits); those
			// uses are current at b, the others stale.
			var hv highView
			high := false
			for _, k := range judged {
				if evs[k].Write {
					if evs[k].Var == a.Var && !overwritten(a, evs[k]) {
						if !stale && !high && a.Read {
							hv, high = x.highBits(a)
						}
						if high && x.keepsHigh(hv, evs[k]) {
							continue
						}
						stale = true
					}
					newer = newer || evs[k].Var == b.Var && b.Read
				}
			}
			high = high && !stale
			if a.Read && !a.Claimed && !a.Void && !b.Void && !reread(evs, i, j) && (stale || newer || high) && !x.retried(a) && !x.retried(b) && !x.casAgainst(a, b) && !x.claimAdd(a, b) && !x.restartedLoad(a, b) && !x.aheadOfUse(evs, i, j) && !x.casRetried(a, b) && !x.validatedThenRetried(a, b) && !x.casThenRetried(a, b) && !x.completionWait(a, b) && !x.wakeRetried(a, b) && !x.wokenFetch(a) && !x.fetchRechecked(a, b) && !x.missKept(evs, i, j, between) && !x.idleDelete(evs, i, j, between) && !x.claimed(evs, i, j, between) && !x.tornErrorRead(evs, i, j, between) && !x.tornErrorGuard(evs, i, j) && !x.boundKept(evs, i, j, between) && !x.rangesNil(b) && !x.clearedAgain(b) && !x.stopFlag(evs, i, j, between) && !x.stopFrozen(evs, i, j, between) && !x.lenAlike(a, b) && !x.lenAhead(a, j) {
				v := x.flows(a, b, stale)
				if high {
					// The rest of a's value is stale; the whole of it
					// only newer than b's, if at all.
					if v = x.flowsCut(a, b, true, hv.cut); !v.Holds && newer {
						v = x.flows(a, b, false)
					}
				}
				if v.Holds {
					v.Pair = [2]string{a.Site, b.Site}
					return v
				}
			}
			if b.Read && a.Write && a.Var == b.Var && !x.mapIteration(b.Site) && !x.freshKey(a, b) && !x.checksForOthers(a, b) && !x.testsEmpty(a, b) && !x.drainTake(a, b) && !x.retryRead(b) && !x.retried(b) && !x.nextIteration(a, b) && !x.bumpRechecked(a, b) && !x.constBack(evs, i, j) && !x.takenBack(a, b) && !x.stopFlag(evs, i, j, between) && !handedOn(evs, i, j) && !x.witnessKept(evs, i, j) && !x.superseded(a, b) {
				for _, k := range between {
					if evs[k].Write && evs[k].Var == b.Var {
						if at, ok := x.usesDecisively(b); ok {
							return Verdict{true, "stale read-back", fmt.Sprintf("the value read back at %s is another goroutine's, not the unit's own write at %s, and it is used at %s", short(b.Site), short(a.Site), at), [2]string{a.Site, b.Site}}
						}
						break
					}
				}
			}
			if !a.Write || !b.Write || x.nextIteration(a, b) || x.loopEntered(a, b) {
				// Two writes in two rounds of a loop: the state
				// between is what one round leaves for the next;
				// or before a loop whose rounds wait and in its
				// first round: what the code before it leaves.
				continue
			}
			var reads []int
			for _, k := range between {
				if evs[k].Read {
					reads = append(reads, k)
				}
			}
			switch {
			case len(reads) == 1 && a.Var == b.Var && evs[reads[0]].Var == a.Var:
				if x.retried(evs[reads[0]]) || x.handoff(a, evs[reads[0]]) || x.otherEntries(a, b, evs[reads[0]]) || x.published(a, b) || x.spinsOn(a, evs[reads[0]]) || x.spinWaits(a, b, evs[reads[0]]) || x.comparedApart(a, b, evs[reads[0]]) || x.undone(a, b) || x.heldEntry(a, b) || x.clearedSlot(a, b) || x.freshEntry(a, b, evs[reads[0]]) || x.middleKept(evs, i, reads[0], j) || x.releaseRetaken(a, b, evs[reads[0]]) || x.tryRefused(a, b, evs[reads[0]]) || x.heldProbe(a, b, evs[reads[0]]) || x.madeEntry(a, b, evs[reads[0]]) || x.answeredAlike(a, b, evs[reads[0]]) || x.sameStored(evs, i, reads[0], j) || storedAgain(evs, i, reads[0], j) || x.checkedAlike(a, evs[reads[0]]) || x.unusedRead(evs[reads[0]]) {
					continue
				}
				if at, ok := x.uses(evs[reads[0]]); ok {
					r := evs[reads[0]]
					return Verdict{true, "intermediate state", fmt.Sprintf("another goroutine reads at %s the value between the writes at %s and %s, and uses it at %s", short(r.Site), short(a.Site), short(b.Site), at), [2]string{a.Site, r.Site}}
				}
			case len(reads) >= 2:
				for n := 0; n+1 < len(reads); n++ {
					r1, r2 := evs[reads[n]], evs[reads[n+1]]
					if r1.Var == r2.Var || other(reads[n], reads[n+1]) || r1.Void || r2.Void || x.retried(r1) || x.retried(r2) || x.claimAfter(evs, i, j, reads[n], reads[n+1]) || x.handoff(a, r1) || x.handoff(a, r2) || r1.Var == a.Var && x.waitedFor(a, r1) || x.drainClaim(a, b, r1, r2) || x.drainedEntry(a, b, r1, r2) || x.initUnseen(evs, a, r1, r2) || x.initRedone(a, r1) || x.initRedone(a, r2) || r2.Var == b.Var && (x.publishedThenUsed(a, b, r2) || (x.blindAdd(r2) || x.casAdd(r2)) && (x.blindAdd(b) || x.casAdd(b)) || r1.Var == a.Var && x.tornErrorPair(b, r2)) || r1.Var == b.Var && r2.Var == a.Var && x.tornErrorGuard(evs, reads[n], reads[n+1]) || (r1.Var == a.Var && r2.Var == b.Var || r1.Var == b.Var && r2.Var == a.Var) && a.Var != b.Var && (x.snapshotKept(evs, i, reads[n], reads[n+1], j) || x.appendedPrefix(a, r1, r2) || x.appendedPrefix(a, r2, r1)) || r2.Var == b.Var && a.Var != b.Var && x.createdSeen(a, r1, r2) || x.addedAhead(a, r1, r2, b) || x.aheadOfUse(evs, reads[n], reads[n+1]) {
						continue
					}
					if v := x.flows(r1, r2, true); v.Holds {
						return Verdict{true, "inconsistent snapshot", fmt.Sprintf("another goroutine reads the state between the writes at %s and %s, half old and half new: %s", short(a.Site), short(b.Site), v.Why), [2]string{r1.Site, r2.Site}}
					}
				}
			}
		}
	}
	return Verdict{}
}

// overwritten reports whether the unit replaced what read a saw by its
// own atomic write (Event.Overwrite) before w, another unit's write of
// a's variable. a and that write both come before w, as in a serial
// order running a's unit first: a read what that order reads, and w
// makes a's value no staler than that order does (a later read of the
// variable by the unit is judged as the read it is; stateless's Fire
// claims firing by CAS, releases it after execute, and fetches again;
// another Fire's claim after the release is a claim in turn, not a
// change under the first one's check).
func overwritten(a, w Event) bool {
	return a.Overwrite > a.Step && a.Overwrite < w.Step
}

// missKept reports whether a, a comma-ok map lookup, missed for b: b
// (or the call of the method leading to it) is reached only on the
// lookup's miss branch, and every write of a's map by the other units
// in between is a delete (or clear). A delete cannot make a missing key
// present, so the miss the unit acts on still holds at b: cache2go's
// Value misses, loads and adds, while an expiry deletes another key.
// A lookup that hit, or an insert in between, stays judged.
func (x *Index) missKept(evs []Event, i, j int, between []int) bool {
	a, b := evs[i], evs[j]
	dels := 0
	for _, k := range between {
		e := evs[k]
		if !e.Write {
			continue
		}
		if e.Var != a.Var || !x.deletes(e.Site) {
			return false
		}
		dels++
	}
	if dels == 0 {
		return false
	}
	l, _ := x.onMiss(a, b)
	return l != nil
}

// onMiss returns the comma-ok map lookup at a, when b is reached only on
// its miss branch, and the acts leading to b in a's activation: b itself,
// or the calls there of the method b ran in; else nil.
func (x *Index) onMiss(a, b Event) (*ssa.Lookup, []ssa.Instruction) {
	sc, acts := x.actsOf(a, b)
	if sc == nil {
		return nil, nil
	}
	if len(acts) == 0 {
		return nil, nil
	}
	for _, v := range x.reads(a.Site, sc) {
		l, ok := v.(*ssa.Lookup)
		if !ok || !l.CommaOk {
			continue
		}
		misses := missBlocks(l)
		all := true
		for _, in := range acts {
			onMiss := false
			for _, m := range misses {
				if m.Parent() == in.Parent() && m.Dominates(in.Block()) {
					onMiss = true
				}
			}
			all = all && onMiss
		}
		if all && len(misses) > 0 {
			return l, acts
		}
	}
	return nil, nil
}

// missBlocks returns the blocks entered only when the comma-ok lookup l
// missed: the branch on its ok flag (or on !ok) not taken on a hit,
// when that is its only way in.
func missBlocks(l *ssa.Lookup) []*ssa.BasicBlock {
	var out []*ssa.BasicBlock
	branch := func(cond ssa.Value, miss int) {
		for _, r := range *cond.Referrers() {
			if f, ok := r.(*ssa.If); ok && f.Cond == cond {
				if s := f.Block().Succs[miss]; len(s.Preds) == 1 {
					out = append(out, s)
				}
			}
		}
	}
	for _, r := range *l.Referrers() {
		e, ok := r.(*ssa.Extract)
		if !ok || e.Index != 1 || e.Referrers() == nil {
			continue
		}
		branch(e, 1)
		for _, u := range *e.Referrers() {
			if n, ok := u.(*ssa.UnOp); ok && n.Op == token.NOT && n.Referrers() != nil {
				branch(n, 0)
			}
		}
	}
	return out
}

// deletes reports whether the write at site is a delete (or clear) of
// map entries: the builtin call the instrumenter puts there.
func (x *Index) deletes(site string) bool {
	found := false
	for _, in := range x.instrs[site] {
		call, ok := in.(ssa.CallInstruction)
		if !ok {
			continue
		}
		bi, ok := call.Common().Value.(*ssa.Builtin)
		if !ok || bi.Name() != "delete" && bi.Name() != "clear" {
			return false
		}
		found = true
	}
	return found
}

// casAgainst reports whether b is a compare-and-swap of a's variable
// whose expected value is the value a read (atomic.CompareAndSwap*, or
// the CompareAndSwap method of sync/atomic's types): the unit writes
// only if the variable still holds what it read, so another unit's write
// in between makes the swap fail and the unit act as if it ran after it
// (a CAS loop loads again and retries). Its read and swap are
// serializable by construction, unless the other unit stored the very
// value back (ABA), which no dependence on the read can tell either.
func (x *Index) casAgainst(a, b Event) bool {
	if !b.Read || !b.Write || b.Var != a.Var {
		return false
	}
	read := map[ssa.Value]bool{}
	for _, v := range x.reads(a.Site, nil) {
		read[v] = true
	}
	for _, in := range x.instrs[b.Site] {
		call, ok := in.(*ssa.Call)
		if !ok {
			continue
		}
		fn := call.Common().StaticCallee()
		if fn == nil || !isAtomicCAS(fn) || len(call.Common().Args) < 2 {
			continue
		}
		// The expected value: CompareAndSwapT(addr, old, new), or the
		// method's (recv, old, new).
		if read[unconvert(call.Common().Args[1])] {
			return true
		}
	}
	return false
}

// isAtomicCAS reports whether fn is sync/atomic's CompareAndSwap: a
// function CompareAndSwapT or a method CompareAndSwap of one of its types.
func isAtomicCAS(fn *ssa.Function) bool {
	if o := fn.Origin(); o != nil {
		fn = o // a generic type's method (atomic.Pointer[T])
	}
	obj := fn.Object()
	if obj == nil || obj.Pkg() == nil || obj.Pkg().Path() != "sync/atomic" {
		return false
	}
	return strings.HasPrefix(obj.Name(), "CompareAndSwap")
}

// unconvert strips the conversions a value goes through to be passed as
// CompareAndSwap's expected value (to any, to unsafe.Pointer): they keep
// its identity.
func unconvert(v ssa.Value) ssa.Value {
	for {
		switch c := v.(type) {
		case *ssa.ChangeType:
			v = c.X
		case *ssa.Convert:
			v = c.X
		case *ssa.MakeInterface:
			v = c.X
		default:
			return v
		}
	}
}

// mapIteration reports whether site is a range loop over a map, whose
// read at each iteration takes the entry the iterator is at: it reads
// back no value the unit stored (a delete of one key, then the next
// key).
func (x *Index) mapIteration(site string) bool {
	for _, in := range x.instrs[site] {
		if r, ok := in.(*ssa.Range); ok {
			if _, ok := r.X.Type().Underlying().(*types.Map); ok {
				return true
			}
		}
	}
	return false
}

// short shortens a site to "file.go:line".
func short(site string) string {
	parts := strings.Split(path.Base(site), ":")
	if len(parts) >= 2 {
		return parts[0] + ":" + parts[1]
	}
	return site
}

func (x *Index) shortPos(p token.Pos) string {
	if !p.IsValid() || p == token.Pos(1) {
		return "?"
	}
	return short(x.site(p))
}

func opWord(e Event) string {
	switch {
	case e.Read && e.Write:
		return "read-modify-write"
	case e.Write:
		return "write"
	}
	return "read"
}

// common returns how many outer activations a and b share.
func common(a, b []Frame) int {
	n := 0
	for n < len(a) && n < len(b) && a[n].ID == b[n].ID {
		n++
	}
	return n
}

// reads are the instructions at site, in sc, whose value is what the
// event read.
func (x *Index) reads(site string, sc *scope) []ssa.Value {
	var out, addrs []ssa.Value
	for _, in := range x.instrs[site] {
		if sc != nil && !sc.fns[in.Parent()] {
			continue
		}
		switch v := in.(type) {
		case *ssa.UnOp:
			if v.Op == token.MUL {
				out = append(out, v)
			}
		case *ssa.Lookup, *ssa.Field, *ssa.Index, *ssa.Next, *ssa.Call, *ssa.Range:
			out = append(out, v.(ssa.Value))
		case *ssa.FieldAddr, *ssa.IndexAddr:
			addrs = append(addrs, v.(ssa.Value))
		}
	}
	if len(out) == 0 {
		return addrs
	}
	return out
}

// enclosing returns the function whose scope holds the event's code: its
// innermost activation's method, or, outside any, the function holding
// its instruction.
func (x *Index) enclosing(e Event) *ssa.Function {
	if n := len(e.Frames); n > 0 {
		return x.function(e.Frames[n-1].Site)
	}
	for _, in := range x.instrs[e.Site] {
		return in.Parent()
	}
	return nil
}

// flows reports whether the value read by a reaches b, or the result of
// their unit. Only when a is stale (another unit wrote its variable
// before b) does a's deciding b or being overwritten by b count; else
// only the result mixing a's value with b's newer one.
func (x *Index) flows(a, b Event, stale bool) Verdict {
	return x.flowsCut(a, b, stale, nil)
}

// flowsCut is flows with a's value followed nowhere through the
// instructions in cut (a high view whose bits are current: highBits).
func (x *Index) flowsCut(a, b Event, stale bool, cut map[ssa.Instruction]bool) Verdict {
	c := common(a.Frames, b.Frames)
	inner := x.enclosing(a)
	if inner == nil {
		return Verdict{}
	}
	t := x.newTaint(x.scope(inner))
	t.cut = cut
	for _, v := range x.reads(a.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	if c == 0 {
		if !stale {
			return Verdict{}
		}
		// No activation holds both: find the functions that do.
		if v := x.flowsAcross(a, b, t); v.Holds {
			return v
		}
		return x.lostWrite(a, b)
	}
	// Up from a's activations to the one both ran in.
	for i := len(a.Frames) - 1; i >= c; i-- {
		parent := x.function(a.Frames[i-1].Site)
		if !t.result || parent == nil {
			return Verdict{}
		}
		t = x.lift(t, x.function(a.Frames[i].Site), parent)
	}
	if stale {
		if h, ok := x.decides(t, b, b.Frames[c:]); ok {
			if x.rechecks(a, b, h) {
				// Whichever value the unit returns, it decided on
				// a fresh one: a's on one branch, b's on the other.
				return Verdict{}
			}
			if h.kind == "check-then-act" && x.lockedRecheck(a, b, c) {
				// Double-checked locking: b's effects run past a
				// re-read under the lock (lockedrecheck.go).
				return Verdict{}
			}
			if h.kind == "check-then-act" {
				re := x.revalidated(a, b)
				if re || x.doubleChecked(a, b) {
					// a only chose the path that reads its variable
					// again and decides b on that fresh value; what
					// counts is whether a's value still flows into
					// b's value or address (a stale value written
					// back), or, past a double check, into the
					// activation's result (not only which return
					// runs: a nil error on every path is none of
					// it), which the check-then-act then stands for.
					data := x.newTaint(t.sc)
					data.dataOnly = true
					data.cut = cut
					for _, v := range x.reads(a.Site, data.sc) {
						data.seed(v)
					}
					data.run()
					if hd, ok := x.decides(data, b, b.Frames[c:]); ok {
						h = hd
					} else if re || !data.result {
						return Verdict{}
					}
				}
			}
			if v, ok := x.laterUse(a, b, h); ok {
				return v
			}
		}
		if v := x.lostWrite(a, b); v.Holds {
			return v
		}
	}
	if !b.Read {
		return Verdict{}
	}
	if a.Var != b.Var && !x.meets(t, b, c) {
		// Two variables whose values never meet: each is what some
		// serial order reads of it, and nothing the unit does uses
		// the pair (pion's router returns what it saw of its queue
		// and only tests the bucket map its filter looks in).
		return Verdict{}
	}
	// Up to the unit's own activation: its result.
	for i := c - 1; i >= 1; i-- {
		parent := x.function(a.Frames[i-1].Site)
		if !t.result || parent == nil {
			return Verdict{}
		}
		t = x.lift(t, x.function(a.Frames[i].Site), parent)
	}
	if !t.result {
		return Verdict{}
	}
	// The unit returns what a read; that matters when b's value is used
	// too: the unit's answer mixes the two.
	if at, ok := x.uses(b); ok {
		return Verdict{Holds: true, Kind: "inconsistent result", Why: fmt.Sprintf("the value read at %s is returned by %s, which also uses the value read at %s (at %s)", short(a.Site), name(x.function(a.Frames[0].Site)), short(b.Site), at)}
	}
	return Verdict{}
}

// meets reports whether the values read by a and b meet in their unit,
// ta being a's taint in the activation the two share (b's c'th frame):
// one value decides the other's use (or the call that reads it), the two
// flow into one value (a sum, a comparison, a phi), or both into one
// activation's result. a's value is followed down the calls that lead to
// b, b's up through the results of its activations, and both, past the
// shared activation, up to the unit's outermost. Two variables read in
// one unit whose values never meet are each a state some serial order
// reads: a half-old, half-new pair of them changes nothing the unit does
// with either.
func (x *Index) meets(ta *taint, b Event, c int) bool {
	n := len(b.Frames)
	inner := x.enclosing(b)
	if c < 1 || n < c || inner == nil {
		return true // no frames to follow: keep the verdict
	}
	// a's value down b's activations below the shared one: down[j] is
	// its taint in b.Frames[c-1+j].
	down := []*taint{ta}
	for k := c; k < n; k++ {
		g := x.function(b.Frames[k].Site)
		if g == nil {
			break
		}
		up, d := down[len(down)-1], x.newTaint(x.scope(g))
		for _, cs := range x.ownCalls(up.sc, g) {
			if up.ctrl[cs.Block()] {
				return true // a decides the call that reads b
			}
			for i, arg := range cs.Common().Args {
				if up.vals[arg] && i < len(g.Params) {
					d.add(g.Params[i])
				}
			}
		}
		if len(d.work) == 0 {
			break
		}
		d.run()
		down = append(down, d)
	}
	tb := x.newTaint(x.scope(inner))
	for _, v := range x.reads(b.Site, tb.sc) {
		tb.seed(v)
	}
	tb.run()
	for k := n - 1; k >= 0; k-- {
		if k >= c-1 {
			if j := k - c + 1; j < len(down) && met(down[j], tb) {
				return true
			}
		} else {
			parent := x.function(b.Frames[k].Site)
			if !ta.result || parent == nil {
				return false
			}
			ta = x.lift(ta, x.function(b.Frames[k+1].Site), parent)
			if met(ta, tb) {
				return true
			}
		}
		if k == 0 || !tb.result {
			return false
		}
		parent := x.function(b.Frames[k-1].Site)
		if parent == nil {
			return false
		}
		tb = x.lift(tb, x.function(b.Frames[k].Site), parent)
	}
	return false
}

// met reports whether two taints of one activation meet: both reach its
// result, one value carries both, or one decides a block that uses the
// other.
func met(p, q *taint) bool {
	if p.result && q.result {
		return true
	}
	for v := range q.vals {
		if p.vals[v] {
			return true
		}
	}
	return decidesUse(p, q) || decidesUse(q, p)
}

// decidesUse reports whether a block p decides uses a value of q's.
func decidesUse(p, q *taint) bool {
	var ops []*ssa.Value
	for blk := range p.ctrl {
		for _, in := range blk.Instrs {
			ops = in.Operands(ops[:0])
			for _, op := range ops {
				if *op != nil && q.vals[*op] {
					return true
				}
			}
		}
	}
	return false
}

// lostWrite holds when the unit puts the value a read to use as data,
// then overwrites the variable at b without deciding on it: another
// goroutine's write in between is lost (a swap or a reset split in two:
// Drain returns the count it read, and a count added before its reset
// is neither returned nor kept). A read used only to write the variable
// back (an increment) is no use; nor is one only tested: the unit's
// blind write then sets the variable whatever it held, as it would have
// after the other's write, and whether the stale test decided the write
// is the check-then-act question, asked before (go-cron's breaker tests
// the failure count, runs the job and resets the count on success; a
// failure counted in between is reset as it would be had it come first).
// When b is an atomic read-modify-write (an add), nothing is lost: it
// holds only when the unit hands a's value on, by data, as its result,
// as the value the add replaced (GetAndIncrement as a load, then an
// add); a value that only decides a back-off is judged as a check. Nor
// is anything lost when b stores what the unit read afresh at b's
// location after the others' writes (rebuilt), or when b writes one map
// element that no other goroutine's write still held (spared).
func (x *Index) lostWrite(a, b Event) Verdict {
	if !b.Write || b.Var != a.Var {
		return Verdict{}
	}
	if b.Read {
		at, ok := x.uses(a)
		if !ok || !x.returnsData(a, common(a.Frames, b.Frames)) {
			return Verdict{}
		}
		return Verdict{Holds: true, Kind: "stale result", Why: fmt.Sprintf("the value read at %s is used at %s as the one the unit's read-modify-write at %s replaced, but another goroutine's write fell between them", short(a.Site), at, short(b.Site))}
	}
	at, ok := x.dataUse(a)
	if !ok || x.rebuilt(b) || x.spared(b) {
		return Verdict{}
	}
	return Verdict{Holds: true, Kind: "lost write", Why: fmt.Sprintf("the value read at %s is used at %s, and the unit then overwrites it at %s: another goroutine's write in between is lost", short(a.Site), at, short(b.Site))}
}

// dataTaint is the data-only taint of the value e read, in e's innermost
// activation.
func (x *Index) dataTaint(e Event) *taint {
	inner := x.enclosing(e)
	if inner == nil {
		return nil
	}
	t := x.newTaint(x.scope(inner))
	t.dataOnly = true
	for _, v := range x.reads(e.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	return t
}

// dataUse reports whether the value read by e is used as data in its
// unit (kept in shared memory, sent, passed to a call, an index, the
// unit's result: anything but a branch's condition), and where.
func (x *Index) dataUse(e Event) (string, bool) {
	t := x.dataTaint(e)
	if t == nil {
		return "", false
	}
	for i := len(e.Frames) - 1; ; i-- {
		if t.data.IsValid() {
			return x.shortPos(t.data), true
		}
		if !t.result {
			return "", false
		}
		if i < 1 {
			return "its return", true
		}
		parent := x.function(e.Frames[i-1].Site)
		if parent == nil {
			return "", false
		}
		t = x.lift(t, x.function(e.Frames[i].Site), parent)
	}
}

// returnsData reports whether the value read by e reaches, by data, the
// result of the activation at depth c of e's frames (the one it shares
// with the other event; its outermost when c is 0).
func (x *Index) returnsData(e Event, c int) bool {
	t := x.dataTaint(e)
	if t == nil {
		return false
	}
	for i := len(e.Frames) - 1; i >= max(c, 1); i-- {
		parent := x.function(e.Frames[i-1].Site)
		if !t.result || parent == nil {
			return false
		}
		t = x.lift(t, x.function(e.Frames[i].Site), parent)
	}
	return t.result
}

func name(fn *ssa.Function) string {
	if fn == nil {
		return "the unit"
	}
	if r := fn.Signature.Recv(); r != nil {
		t := r.Type().String()
		if i := strings.LastIndexAny(t, "./"); i >= 0 {
			t = t[i+1:]
		}
		return t + "." + fn.Name()
	}
	return fn.Name()
}

// laterUse completes a flow from a to b: a later write is acted on, a
// later read counts only if its own value is used in turn (a counter
// read to be incremented exposes nothing).
func (x *Index) laterUse(a, b Event, h how) (Verdict, bool) {
	why := fmt.Sprintf("the value read at %s %s at %s", short(a.Site), h.phrase(opWord(b)), short(b.Site))
	if b.Write {
		return Verdict{Holds: true, Kind: h.kind, Why: why}, true
	}
	if x.rechecks(a, b, h) || x.relockedHint(a, b, h) {
		return Verdict{}, false
	}
	at, ok := x.uses(b)
	if !ok {
		return Verdict{}, false
	}
	return Verdict{Holds: true, Kind: h.kind, Why: why + ", whose value is used at " + at}, true
}

// rechecks reports whether b re-checks what a checked: what a's value
// decided is to read the variable again and decide anew on the fresh
// value (a lookup missed, then looked up again under the loader's lock:
// the double-checked idiom). A later read whose value is used without a
// test (a nil test, then a dereference of a fresh read) is no re-check.
// b may read another variable than a, one that a's snapshot held
// (Event.Seen): the unit checked it beside a and tests it afresh.
func (x *Index) rechecks(a, b Event, h how) bool {
	return h.kind == "check-then-act" && !b.Write && (b.Var == a.Var || slices.Contains(a.Seen, b.Var)) && x.tests(b)
}

// lift carries a taint whose activation's result depends on it to the
// parent activation: the values of the calls of fn there.
func (x *Index) lift(t *taint, fn, parent *ssa.Function) *taint {
	up := x.newTaint(x.scope(parent))
	up.dataOnly = t.dataOnly
	if fn != nil {
		for _, c := range x.ownCalls(up.sc, fn) {
			if v := c.Value(); v != nil {
				up.add(v)
			}
		}
	}
	up.run()
	return up
}

// decides reports how the taint t decides b, reached through the
// activations chain (outermost first) below t's scope: the branch that
// runs it (or the call leading to it), its address, or its value.
func (x *Index) decides(t *taint, b Event, chain []Frame) (how, bool) {
	if len(chain) == 0 {
		for _, in := range x.instrs[b.Site] {
			if !t.sc.fns[in.Parent()] {
				continue
			}
			if h, ok := t.decidesInstr(in); ok {
				return h, true
			}
		}
		return how{}, false
	}
	g := x.function(chain[0].Site)
	if g == nil {
		return how{}, false
	}
	down := x.newTaint(x.scope(g))
	for _, c := range x.ownCalls(t.sc, g) {
		if t.ctrl[c.Block()] {
			return control(name(g)), true
		}
		com := c.Common()
		args := com.Args
		for i, a := range args {
			if t.vals[a] && i < len(g.Params) {
				down.add(g.Params[i])
			}
		}
	}
	if len(down.work) == 0 {
		return how{}, false
	}
	down.run()
	return x.decides(down, b, chain[1:])
}

// decidesInstr reports how t decides the access in.
func (t *taint) decidesInstr(in ssa.Instruction) (how, bool) {
	if t.ctrl[in.Block()] {
		return control(""), true
	}
	addr := addressing
	switch in := in.(type) {
	case *ssa.Store:
		if t.vals[in.Val] {
			return writtenBack, true
		}
		if t.vals[in.Addr] {
			return addr, true
		}
	case *ssa.UnOp:
		if t.vals[in.X] {
			return addr, true
		}
	case *ssa.FieldAddr:
		if t.vals[in.X] {
			return addr, true
		}
	case *ssa.IndexAddr:
		if t.vals[in.X] || t.vals[in.Index] {
			return addr, true
		}
	case *ssa.Lookup:
		if t.vals[in.X] || t.vals[in.Index] {
			return addr, true
		}
	case *ssa.MapUpdate:
		if t.vals[in.Map] || t.vals[in.Key] {
			return addr, true
		}
		if t.vals[in.Value] {
			return writtenBack, true
		}
	case ssa.CallInstruction:
		for _, a := range in.Common().Args {
			if t.vals[a] {
				return passed, true
			}
		}
	}
	return how{}, false
}

// flowsAcross is flows for two events with no activation in common: the
// functions that can run both (their innermost activations' calls, or
// their code) stand in for the unit.
func (x *Index) flowsAcross(a, b Event, t *taint) Verdict {
	// Up through a's activations, to its outermost.
	for i := len(a.Frames) - 1; i >= 1; i-- {
		parent := x.function(a.Frames[i-1].Site)
		if !t.result || parent == nil {
			return Verdict{}
		}
		t = x.lift(t, x.function(a.Frames[i].Site), parent)
	}
	var topA, topB *ssa.Function
	if len(a.Frames) > 0 {
		if !t.result {
			return Verdict{}
		}
		topA = x.function(a.Frames[0].Site)
	}
	if len(b.Frames) > 0 {
		topB = x.function(b.Frames[0].Site)
	}
	holds := func(sc *scope, fn *ssa.Function, site string) bool {
		if fn != nil {
			return len(x.callsIn(sc, fn)) > 0
		}
		for _, in := range x.instrs[site] {
			if sc.fns[in.Parent()] {
				return true
			}
		}
		return false
	}
	for _, root := range x.all {
		sc := x.scope(root)
		if !holds(sc, topA, a.Site) || !holds(sc, topB, b.Site) {
			continue
		}
		ta := t
		if topA != nil {
			ta = x.lift(t, topA, root)
		} else if ta.sc != sc {
			ta = x.newTaint(sc)
			for _, v := range x.reads(a.Site, sc) {
				ta.seed(v)
			}
			ta.run()
		}
		if h, ok := x.decides(ta, b, b.Frames); ok {
			if v, ok := x.laterUse(a, b, h); ok {
				return v
			}
		}
	}
	return Verdict{}
}

// tests reports whether the value read by e reaches a branch in its
// unit (through the results of the activations it ran in).
func (x *Index) tests(e Event) bool {
	inner := x.enclosing(e)
	if inner == nil {
		return false
	}
	t := x.newTaint(x.scope(inner))
	for _, v := range x.reads(e.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	for i := len(e.Frames) - 1; ; i-- {
		if t.tested {
			return true
		}
		if !t.result || i < 1 {
			return false
		}
		parent := x.function(e.Frames[i-1].Site)
		if parent == nil {
			return false
		}
		t = x.lift(t, x.function(e.Frames[i].Site), parent)
	}
}

// uses reports whether the value read by e is put to use in its unit,
// and where.
func (x *Index) uses(e Event) (string, bool) { return x.usesAs(e, false) }

// usesDecisively is uses without copies: a value only stored elsewhere or
// sent on is not used decisively; a branch, an index, a call, the unit's
// result are.
func (x *Index) usesDecisively(e Event) (string, bool) { return x.usesAs(e, true) }

func (x *Index) usesAs(e Event, decisive bool) (string, bool) {
	inner := x.enclosing(e)
	if inner == nil {
		return "", false
	}
	t := x.newTaint(x.scope(inner))
	for _, v := range x.reads(e.Site, t.sc) {
		t.seed(v)
	}
	t.run()
	for i := len(e.Frames) - 1; ; i-- {
		at := t.use
		if decisive {
			at = t.decisive
		}
		if at.IsValid() {
			return x.shortPos(at), true
		}
		if !t.result {
			return "", false
		}
		if i < 1 {
			// The unit's (or the function's) result.
			return "its return", true
		}
		parent := x.function(e.Frames[i-1].Site)
		if parent == nil {
			return "", false
		}
		t = x.lift(t, x.function(e.Frames[i].Site), parent)
	}
}

// actsOf returns the scope of a's activation and the acts leading to b in
// it: b itself, or the calls there of the method b ran in. The scope is nil
// when b does not run in a's activation or below it.
func (x *Index) actsOf(a, b Event) (*scope, []ssa.Instruction) {
	c := common(a.Frames, b.Frames)
	if len(a.Frames) != c || len(b.Frames) < c {
		return nil, nil
	}
	fn := x.enclosing(a)
	if fn == nil {
		return nil, nil
	}
	sc := x.scope(fn)
	var acts []ssa.Instruction
	if len(b.Frames) == c {
		for _, in := range x.instrs[b.Site] {
			if sc.fns[in.Parent()] {
				acts = append(acts, in)
			}
		}
	} else if g := x.function(b.Frames[c].Site); g != nil {
		for _, cs := range x.ownCalls(sc, g) {
			acts = append(acts, cs)
		}
	}
	return sc, acts
}
