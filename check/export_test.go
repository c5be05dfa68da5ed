package check

// SetRecordCap sets the recordings' event cap (record.Recorder.MaxEvents)
// and returns what restores it.
func SetRecordCap(n int) (restore func()) {
	old := recordCap
	recordCap = n
	return func() { recordCap = old }
}
