// Package moldynfixed is the fixed twin of package moldyn (Java Grande
// "MolDyn", PECAN Table 1).
//
// Fixed: the reduction of a worker's energy and virial into the system
// totals is done under the system's mutex, and Totals reads them under it.
// Nothing should be reported.
package moldynfixed
