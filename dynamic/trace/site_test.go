package trace

import "testing"

func TestParseSite(t *testing.T) {
	for _, tc := range []struct {
		in    string
		want  Site
		short string
	}{
		{"a/b.go:12:5", Site{"a/b.go", 12, 5}, "b.go:12"},
		{"a/b.go:12", Site{"a/b.go", 12, 0}, "b.go:12"},
		{"c:/x/y.go:7:3", Site{"c:/x/y.go", 7, 3}, "y.go:7"},
		{"odd:name.go:1:2", Site{"odd:name.go", 1, 2}, "odd:name.go:1"},
		{"f#1@x=2.go:3:4", Site{"f#1@x=2.go", 3, 4}, "f#1@x=2.go:3"},
	} {
		got, err := ParseSite(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("ParseSite(%q) = %+v, %v; want %+v", tc.in, got, err, tc.want)
			continue
		}
		if s := got.String(); s != tc.in {
			t.Errorf("ParseSite(%q).String() = %q", tc.in, s)
		}
		if s := got.Short(); s != tc.short {
			t.Errorf("ParseSite(%q).Short() = %q, want %q", tc.in, s, tc.short)
		}
	}
	for _, in := range []string{"", "a.go", "a.go:", ":3", ":3:4", "a.go:0", "a.go:1:0", "a.go:0:1", "a.go:x", "a.go:1:x", "a.go:99999999999", "a.go:-1"} {
		if s, err := ParseSite(in); err == nil {
			t.Errorf("ParseSite(%q) = %+v, want an error", in, s)
		}
		// The decoders reject exactly what ParseSite does.
		if msg, _ := checkSite(in); msg == "" {
			t.Errorf("checkSite(%q) accepts it", in)
		}
	}
	if (Site{}).String() != "" || (Site{}).Short() != "?" || (Site{}).IsValid() {
		t.Error("zero Site")
	}
}

func TestSiteLess(t *testing.T) {
	order := []Site{{"a.go", 3, 0}, {"a.go", 3, 2}, {"a.go", 10, 1}, {"a_test.go", 1, 1}, {"b/a.go", 1, 1}}
	for i, s := range order {
		for j, u := range order {
			if got := s.Less(u); got != (i < j) {
				t.Errorf("%v.Less(%v) = %v", s, u, got)
			}
		}
	}
}
