package moby27037fixed

import (
	"sort"
	"strings"
	"testing"
)

func TestAPIVersions(t *testing.T) {
	got := apiVersions()
	sort.Strings(got)
	if s := strings.Join(got, ","); s != "v1.17,v1.18,v1.19,v1.20,v1.21" {
		t.Errorf("versions = %s", s)
	}
}
