package loader

// Loader loads a fixed set of modules concurrently.
type Loader struct {
	names  []string
	data   [][]byte
	loaded int
	done   chan struct{} // closed when every module is loaded
}

// New returns a loader for the named modules.
func New(names ...string) *Loader {
	return &Loader{
		names: names,
		data:  make([][]byte, len(names)),
		done:  make(chan struct{}),
	}
}

// Done is closed once all modules are loaded.
func (l *Loader) Done() <-chan struct{} { return l.done }

// Data returns the loaded contents of module i.
func (l *Loader) Data(i int) []byte { return l.data[i] }

// Load loads module i with fetch and counts it.
func (l *Loader) Load(i int, fetch func(name string) []byte) {
	l.data[i] = fetch(l.names[i])
	l.loaded++ // want "data race on " "atomicity violation on "
	if l.loaded == len(l.names) {
		close(l.done)
	}
}
