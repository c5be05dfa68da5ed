// Package methodvaluefixed is the fixed twin of package methodvalue.
//
// Fixed: Dispatch takes the method value with the lock held. Nothing
// should be reported.
package methodvaluefixed
