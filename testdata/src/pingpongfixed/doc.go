// Package pingpongfixed is the fixed twin of package pingpong (ConTest
// "PingPong", atomic-sets paper Table 1).
//
// Fixed: the table has a mutex, and a player holds it from taking the ball
// until putting it back, so nobody can see the empty table. Nothing should
// be reported.
package pingpongfixed
