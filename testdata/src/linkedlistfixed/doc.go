// Package linkedlistfixed is the fixed twin of package linkedlist
// (java.util.LinkedList; PECAN Table 1).
//
// Fixed: the list has a mutex that every exported method holds for its whole
// body (what Collections.synchronizedList gives a Java caller), so AddLast
// updates tail, the link and size atomically. Nothing should be reported.
package linkedlistfixed
