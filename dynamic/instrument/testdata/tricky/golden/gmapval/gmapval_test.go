package gmapval

import "testing"

func TestGolden(t *testing.T) {
	if m, ifs := Stores(); m["x"] != m["z"] || m["x"] == m["y"] || m["w"] != nil || ifs[3] == nil {
		t.Errorf("Stores = %v, %v", m, ifs)
	}
}
