// Package hotcold is a Go idiom subject after prometheus/client_golang's
// histogram (pecanvet issue 26): a Hist counts observations in the low
// 63 bits of one atomic word whose top bit picks the hot one of two
// shards. Observe adds 1 to the word and adds its value to the shard the
// top bit of the result picks; Write flips the top bit by adding 1<<63,
// takes the shard that was hot and merges it into the new hot one.
//
// Known bug: Write takes the cold shard right after its flip, with no
// wait for the observations that picked it before the flip (the
// histogram's waitForCooldown), and takes it by a load and a later store
// of 0. An Observe whose add (hist.go:25) comes before the flip
// (hist.go:36) and whose shard adds (hist.go:27, :28) after Write's loads
// (hist.go:39, :40) is in Write's count but not in its shard, and is lost
// at the stores (hist.go:43, :44): atomicity violation on shard.n
// (hist.go:39 then :43, an Observe's add between: lost write), and
// atomic-set serializability violations on Hist.countAndHot and the
// shard (the flip's 1<<63 changes the very bit the Observe picked its
// shard by: a check-then-act); TestWrite fails ("count 2, shard count 0
// sum 0"). Another Observe's +1 between an Observe's add and its shard
// adds changes only the count bits, which pick nothing: that interleaving
// alone is no bug (hotcoldfixed).
package hotcold
