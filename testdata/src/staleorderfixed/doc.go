// Package staleorderfixed is staleorder with Evict locking the
// connection before the pool (look it up under the pool's lock, release
// that, lock the connection, take the pool's lock again and check the
// entry is still there): every path takes the two locks in the order
// conn, pool, drain's included. Nothing should be reported.
package staleorderfixed
