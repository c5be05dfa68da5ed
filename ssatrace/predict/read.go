package predict

import (
	"io"
	"os"

	"github.com/pecanvet/pecanvet/ssatrace/trace"
)

// MaxEvents is the number of trace events a prediction that is replayed
// reads (ReadPrefix): with the PTG at about 100 to 300 bytes per event,
// it keeps the engine within a few hundred megabytes. A schedule is
// replayed from the start of the test, so the events of its anomaly must be
// within the part of the trace read; RunStream analyzes longer traces
// window by window for prediction alone.
const MaxEvents = 1 << 21

// ReadPrefix reads the first max events (all if max <= 0) of the trace
// file at path, leniently, and reports whether it left events out.
func ReadPrefix(path string, max int) (tr *trace.Trace, cut bool, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	d, err := trace.NewDecoderOptions(f, path, trace.ReadOptions{Lenient: true})
	if err != nil {
		return nil, false, err
	}
	tr = new(trace.Trace)
	for {
		e, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, false, err
		}
		if max > 0 && len(tr.Events) >= max {
			cut = true
			break
		}
		tr.Events = append(tr.Events, e)
	}
	tr.Tables = *d.Tables()
	tr.Truncated = d.Truncated()
	return tr, cut, nil
}
