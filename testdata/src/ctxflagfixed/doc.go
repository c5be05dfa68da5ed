// Package ctxflagfixed is the fixed twin of package ctxflag.
//
// Fixed: the server has an RWMutex. Handle holds its read lock from the
// shutdown check through the query, and Shutdown takes the write lock to set
// the flag and close the database, so it waits for requests in flight and no
// request sees a closed database after passing the check. Nothing should be
// reported.
package ctxflagfixed
