// Package buggyprgfixed is the fixed twin of package buggyprg (ConTest
// "BuggyProgram", PECAN Table 1).
//
// Fixed: Report has a mutex that Add, Parts and Total hold for their whole
// body, so filing a part (slot index, count and total) is one atomic step.
// Nothing should be reported.
package buggyprgfixed
