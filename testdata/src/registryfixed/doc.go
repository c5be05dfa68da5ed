// Package registryfixed is the fixed twin of package registry.
//
// Fixed: Register stores with LoadOrStore, which stores only if the name is
// absent and says whether it did, so the check and the act are one
// operation and the registration is counted once whatever the order of
// the calls. Nothing should be reported.
package registryfixed
