package roombookfixed

import "sync"

// Desk books rooms to guests.
type Desk struct {
	mu    sync.Mutex
	rooms map[string]string // room → guest
}

// New returns a desk with no booking.
func New() *Desk { return &Desk{rooms: map[string]string{}} }

// holder returns the guest who booked room, "" if none.
func (d *Desk) holder(room string) string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.rooms[room]
}

// book books room to guest.
func (d *Desk) book(room, guest string) {
	d.mu.Lock()
	d.rooms[room] = guest
	d.mu.Unlock()
}

// Reserve books room to guest if it is free, and reports whether it did.
func (d *Desk) Reserve(room, guest string) bool {
	if d.holder(room) != "" {
		return false
	}
	d.book(room, guest)
	return true
}

// Assign books room to guest whoever holds it (the manager's override).
func (d *Desk) Assign(room, guest string) { d.book(room, guest) }

// Cancel frees room.
func (d *Desk) Cancel(room string) {
	d.mu.Lock()
	delete(d.rooms, room)
	d.mu.Unlock()
}

// Holder returns the guest who booked room, "" if none.
func (d *Desk) Holder(room string) string { return d.holder(room) }
