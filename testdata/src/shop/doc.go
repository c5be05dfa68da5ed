// Package shop is a Go version of the ConTest "Shop" program (PECAN Table
// 1): customers buy goods from a shop while a supplier delivers new goods.
// Buy and Stock hold the shop's mutex; Deliver was written as "just a
// counter update" and does not.
//
// Known bug: data race on Shop.stock (with the lost update it allows, an
// atomicity violation RWW). The unlocked read and write of s.stock in
// Deliver at shop.go:29 race with the locked read at shop.go:19 and write at
// shop.go:22 in Buy. If a Buy runs between the delivery's read and write (or
// the delivery between the Buy's read and write), one update is lost: the
// stock is wrong (TestShopping fails).
//
// go test -race flags it in a single run.
package shop
