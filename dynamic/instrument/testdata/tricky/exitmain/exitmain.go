// Package exitmain has its own TestMain.
package exitmain

// Setup is set by TestMain.
var Setup bool
