// Package busyflag is a real-module subject (pecanvet issue 26; the
// single-flight compaction flag of akrylysov/pogreb v0.10.2, with a
// refusal that leaves its work to the holder): Compact claims the flag
// by a compare-and-swap (db.go:28), reclaims the deleted records it
// finds in one look, and releases the flag (db.go:38). Delete marks a
// record deleted and compacts; its Compact, finding the flag held,
// returns without a word, leaving the record to the running compaction.
//
// Known bug: an atomicity violation (WRW) on DB.running: a Delete whose
// Compact finds the flag held after the holder's look at the deleted
// count leaves its record unreclaimed, and nobody is told. TestCompact
// lets the holder look only after Delete returned, so the record is
// reclaimed and the test passes: the state between the claim and the
// release, read by the refused try, decides Delete's return, reported by
// dependence (intermediate state), which static/depend's tryRefused must
// not excuse (the try runs in Delete's unit after its write, and refuses
// silently). The test's poll of the flag (db_test.go:22) is heldProbe's,
// and adds nothing.
//
// go test -race flags nothing: the count is under the mutex and the flag
// atomic.
package busyflag
