// Package shopfixed is the fixed twin of package shop (ConTest "Shop", PECAN
// Table 1).
//
// Fixed: Deliver holds the shop's mutex like every other method, so all
// accesses to stock are serialized. Nothing should be reported.
package shopfixed
