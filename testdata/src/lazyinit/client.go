package lazyinit

// Conn is a connection to a server.
type Conn struct {
	Addr string
	ID   int
}

// Client sends requests to one server over a lazily dialed connection.
type Client struct {
	addr string
	dial func(addr string) (*Conn, error)
	conn *Conn
}

// New returns a client of addr that connects with dial on first use.
func New(addr string, dial func(string) (*Conn, error)) *Client {
	return &Client{addr: addr, dial: dial}
}

func (c *Client) getConn() (*Conn, error) {
	if c.conn == nil { // want "data race on Client\\.conn" "atomicity violation on Client\\.conn"
		conn, err := c.dial(c.addr)
		if err != nil {
			return nil, err
		}
		c.conn = conn
	}
	return c.conn, nil
}

// Do sends req and returns the id of the connection that carried it.
func (c *Client) Do(req string) (int, error) {
	conn, err := c.getConn()
	if err != nil {
		return 0, err
	}
	return conn.ID, nil
}
