package pingpong

// Ball counts how often it was hit.
type Ball struct{ Hits int }

// Table is where the ball lies between hits.
type Table struct{ ball *Ball }

// NewTable returns a table with a new ball on it.
func NewTable() *Table { return &Table{ball: new(Ball)} }

// Ball returns the ball on the table.
func (t *Table) Ball() *Ball { return t.ball }

// Player plays at a table.
type Player struct {
	Name  string
	table *Table
	hits  int
}

// NewPlayer returns a player at t.
func NewPlayer(name string, t *Table) *Player { return &Player{Name: name, table: t} }

// Hit takes the ball, hits it and puts it back.
func (p *Player) Hit() {
	b := p.table.ball  // want "data race on " "atomicity violation on "
	p.table.ball = nil // want "data race on "
	b.Hits++
	p.hits++
	p.table.ball = b
}
