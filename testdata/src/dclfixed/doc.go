// Package dclfixed is the fixed twin of package dcl (ConTest "DCL",
// atomic-sets paper Table 1).
//
// Fixed: the configuration is created with sync.Once, which orders the
// creation and the loading before every use. Nothing should be reported.
package dclfixed
