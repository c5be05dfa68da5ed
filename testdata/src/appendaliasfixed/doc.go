// Package appendaliasfixed is the fixed twin of package appendalias.
//
// Fixed: each append starts from the prefix sliced to its length as
// capacity (a full slice expression), so it always copies into a new
// array and never writes the shared one. Nothing should be reported.
package appendaliasfixed
