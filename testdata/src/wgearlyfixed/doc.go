// Package wgearlyfixed is wgearly with Run calling wg.Add before its go
// statement, so the Add happens before any Wait that follows Run.
// Nothing should be reported.
package wgearlyfixed
